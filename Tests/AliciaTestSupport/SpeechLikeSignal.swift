#if canImport(Glibc)
import Glibc
#endif

/// A generated stand-in for speech, for the skip-silence tests: bursts of shaped noise (150–600 ms,
/// a raised-cosine envelope that never falls under 20 %, so every sample of a burst stays above
/// −36 dBFS) separated by known pauses of faint noise (±30 at most, about −60 dBFS, a noise floor as
/// recordings have). 16-bit stereo, deterministic.
public struct SpeechLikeSignal: Sendable {
    public let rate: Int
    public let channels = 2
    /// The pieces in order: bursts and pauses alternate, starting and ending with a burst.
    public let pieces: [Piece]
    public let samples: [Int16]

    public struct Piece: Sendable {
        public var isBurst: Bool
        /// Frames into the signal where it begins, and its length in frames.
        public var start: Int
        public var frames: Int
    }

    /// Pauses of 80 ms to 3 s, in milliseconds: under 150 ms (never touched), between the levels'
    /// minimums, and long enough to reach each level's cap.
    public static let pauseMilliseconds = [80, 400, 120, 1_500, 140, 200, 3_000, 100, 600, 250, 1_000, 90, 2_200, 350]

    public init(rate: Int = 48_000, pauses: [Int] = SpeechLikeSignal.pauseMilliseconds, seed: UInt64 = 0x5111) {
        self.rate = rate
        var generator = Xorshift64(seed: seed)
        var pieces: [Piece] = []
        var samples: [Int16] = []
        func burst() {
            let frames = rate * (150 + Int(generator.next() % 451)) / 1000
            pieces.append(Piece(isBurst: true, start: samples.count / 2, frames: frames))
            for frame in 0..<frames {
                let envelope = 0.6 - 0.4 * cos(2 * Double.pi * Double(frame) / Double(frames))
                for _ in 0..<2 {
                    let magnitude = 0.25 + 0.75 * Double(generator.next() % 10_000) / 10_000
                    let sign: Double = generator.next() & 1 == 0 ? 1 : -1
                    samples.append(Int16((sign * envelope * magnitude * 0.3 * 32767).rounded()))
                }
            }
        }
        burst()
        for milliseconds in pauses {
            let frames = rate * milliseconds / 1000
            pieces.append(Piece(isBurst: false, start: samples.count / 2, frames: frames))
            // ±1 to ±30, never 0: a zero frame would read as the sink's own silence in a capture.
            for _ in 0..<frames * 2 {
                let magnitude = Int16(1 + generator.next() % 30)
                samples.append(generator.next() & 1 == 0 ? magnitude : -magnitude)
            }
            burst()
        }
        self.pieces = pieces
        self.samples = samples
    }

    public var frameCount: Int { samples.count / channels }

    public var bursts: [Piece] { pieces.filter(\.isBurst) }
    public var pauses: [Piece] { pieces.filter { !$0.isBurst } }

    /// The samples of `piece`.
    public func samples(of piece: Piece) -> ArraySlice<Int16> {
        samples[piece.start * channels..<(piece.start + piece.frames) * channels]
    }

    /// A 16-bit PCM WAV file of the signal.
    public var wav: [UInt8] {
        WAVFixture.pcm16File(samples, sampleRate: rate, channels: channels)
    }

    /// Where each burst is found, in order, in `output` (interleaved like the signal), by its
    /// first frames; nil for a burst not found after the one before.
    public func burstStarts(in output: [Int16]) -> [Int?] {
        var from = 0
        var found: [Int?] = []
        for burst in bursts {
            let probe = Array(samples(of: burst).prefix(16))
            var at: Int?
            var frame = from
            while (frame + 8) * channels <= output.count {
                if output[frame * channels] == probe[0], Array(output[frame * channels..<frame * channels + 16]) == probe {
                    at = frame
                    break
                }
                frame += 1
            }
            found.append(at)
            if let at { from = at + burst.frames }
        }
        return found
    }
}

extension SpeechLikeSignal {
    /// What is wrong with `output` (the signal after skip silence at `level`, interleaved, trimmed
    /// of the sink's silence or not): every burst must be there bit for bit and in order, each pause
    /// kept for what the rules predict (to a frame), pauses under 150 ms identical, and the time
    /// saved within 5 % of the prediction. Empty when all holds; `saved` is the frames cut.
    public func problems(in output: [Int16], level: String) -> (problems: [String], saved: Int) {
        var problems: [String] = []
        let starts = burstStarts(in: output)
        guard !starts.contains(nil) else { return (["bursts not found: \(starts)"], 0) }
        let bursts = self.bursts
        for (index, burst) in bursts.enumerated() {
            let at = starts[index]!
            let heard = output[at * channels..<min(output.count, (at + burst.frames) * channels)]
            if Array(heard) != Array(samples(of: burst)) { problems.append("burst \(index) altered") }
        }
        var predictedSaved = 0
        var saved = 0
        for (index, pause) in pauses.enumerated() {
            let kept = starts[index + 1]! - (starts[index]! + bursts[index].frames)
            let seconds = Double(pause.frames) / Double(rate)
            let predicted = Int((SkipSilenceRules.kept(seconds, level: level) * Double(rate)).rounded())
            if abs(kept - predicted) > 1 { problems.append("a pause of \(seconds) s kept \(kept) frames, \(predicted) predicted") }
            predictedSaved += pause.frames - predicted
            saved += pause.frames - kept
            if seconds < 0.15 {
                let from = starts[index]! + bursts[index].frames
                if Array(output[from * channels..<(from + kept) * channels]) != Array(samples(of: pause)) {
                    problems.append("a pause of \(seconds) s was touched")
                }
            }
        }
        if abs(saved - predictedSaved) > predictedSaved / 20 {
            problems.append("saved \(saved) frames, \(predictedSaved) predicted")
        }
        return (problems, saved)
    }
}

/// The skip-silence rules as the issue states them, written out again here so the tests do not
/// take the engine's word for what it should do: (minimum seconds, share kept, most seconds kept).
public enum SkipSilenceRules {
    public static let levels: [String: (minimum: Double, retention: Double, maximumKept: Double)] = [
        "mild": (0.5, 0.5, 1.0),
        "medium": (0.3, 0.3, 0.6),
        "strong": (0.15, 0.1, 0.3),
    ]

    /// Seconds a pause of `seconds` keeps at `level`.
    public static func kept(_ seconds: Double, level: String) -> Double {
        guard let rule = levels[level], seconds >= rule.minimum else { return seconds }
        return min(seconds * rule.retention, rule.maximumKept)
    }
}
