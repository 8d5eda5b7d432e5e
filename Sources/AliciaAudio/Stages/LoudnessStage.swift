#if canImport(Glibc)
import Glibc
#endif

/// Matched loudness in the sink's format: the entry's loudness gain (ramped over at least a
/// second) and, where that gain is a boost, a look-ahead true-peak limiter that keeps the peaks
/// under −1 dBTP. While enabled it delays the audio by its look-ahead (5 ms) whatever the gain, so
/// that the limiter coming into play never inserts or drops a frame; at 0 dB the delayed samples are
/// the input's, bit for bit (the arithmetic is in `Double`, exact for every sample type). Disabled
/// (`--loudness off`), it hands its input on untouched. Feeder thread only.
final class LoudnessStage: AudioStage {
    private let format: AudioFormat
    private let blockFrames: Int
    private let channels: Int
    /// The look-ahead: 5 ms, so a peak is met by a gain already down (the attack is a straight line
    /// over it).
    let lookAhead: Int
    /// Release of the limiter's gain back up: a time constant of 80 ms (no pumping on speech: at
    /// least 50 ms).
    private let release: Double
    /// −1 dBTP less 0.2 dB: the peak between two samples is found a frame or two after them, so the
    /// attack toward it starts that much late.
    private let ceiling = pow(10, (LoudnessFigures.ceiling - 0.2) / 20)

    /// Whether the stage works at all (loudness matching on).
    private(set) var enabled = false

    // The delay line: `lookAhead` frames of gained samples, and the gain each needs, in a ring.
    private let delayed: UnsafeMutablePointer<Double>
    private let needed: UnsafeMutablePointer<Double>
    /// The last `taps` gained samples of each channel, for the peaks between samples: a ring per
    /// channel written twice (at `i` and `i + taps`), so the window from the oldest is contiguous
    /// and read without a modulo; `historyNext` is the oldest.
    private let history: UnsafeMutablePointer<Double>
    /// The coefficients, in a buffer (not an array) for the inner loop.
    private let coefficients: UnsafeMutablePointer<Double>
    /// 4× oversampled peak detection, as BS.1770's true peak: a windowed-sinc interpolator (12 taps,
    /// Hann) for the three points between the samples 6 and 5 frames back. `coefficients[phase][k]`
    /// weighs the window's sample k (k = 11 is the newest) for the point `phase / 4` past the older.
    static let taps = 12
    private static let coefficientTable: [Double] = (1...3).flatMap { phase in
        (0..<taps).map { k -> Double in
            let t = Double(taps / 2 - 1) + Double(phase) / 4 - Double(k)
            let sinc = sin(Double.pi * t) / (Double.pi * t)
            return sinc * 0.5 * (1 + cos(Double.pi * t / Double(taps / 2)))
        }
    }

    private let output: UnsafeMutableRawPointer

    /// What changes frame by frame, in one value: `process` works on a local copy of it, so the
    /// loop pays no exclusivity check per field access of the class (they were a tenth of its time).
    private struct Running {
        /// The loudness gain, linear, where it ramps to, and how.
        var gain = 1.0
        var target = 1.0
        var rampLeft = 0
        var rampStep = 1.0
        /// Frames in the delay line, and its oldest.
        var filled = 0
        var head = 0
        /// Frames in the ring that need the limiter (their `needed` is under 1): the window search
        /// is skipped while there are none.
        var limitedInRing = 0
        /// The limiter's gain on the last frame out, and the smallest since `takeDeepestReduction`.
        var limiterGain = 1.0
        var deepestLimit = 1.0
        /// The oldest slot of the peak-detection history.
        var historyNext = 0
    }
    private var running = Running()

    init(format: AudioFormat, blockFrames: Int) {
        self.format = format
        self.blockFrames = blockFrames
        channels = format.channels
        lookAhead = max(1, format.sampleRate / 200)
        release = 1 - exp(-1 / (0.08 * Double(format.sampleRate)))
        delayed = .allocate(capacity: lookAhead * format.channels)
        needed = .allocate(capacity: lookAhead)
        history = .allocate(capacity: 2 * Self.taps * format.channels)
        history.initialize(repeating: 0, count: 2 * Self.taps * format.channels)
        coefficients = .allocate(capacity: Self.coefficientTable.count)
        coefficients.initialize(from: Self.coefficientTable, count: Self.coefficientTable.count)
        output = .allocate(byteCount: blockFrames * format.bytesPerFrame, alignment: 16)
    }

    deinit {
        delayed.deallocate()
        needed.deallocate()
        history.deallocate()
        coefficients.deallocate()
        output.deallocate()
    }

    /// Turns the stage on or off. Turning it off lets go of what the delay line holds first
    /// (`flush`), so nothing is lost.
    func setEnabled(_ on: Bool) {
        enabled = on
        if !on {
            running.gain = 1
            running.target = 1
            running.rampLeft = 0
        }
    }

    /// Moves the loudness gain to `decibels` over `ramp` seconds (at least one: no sudden jumps),
    /// in even decibel steps; 0: at once (a start, where nothing was heard before).
    func setGain(decibels: Double, ramp: Double) {
        let linear = pow(10, decibels / 20)
        running.target = linear
        guard ramp > 0 else {
            running.gain = linear
            running.rampLeft = 0
            return
        }
        running.rampLeft = linear == running.gain ? 0 : max(1, Int(max(1, ramp) * Double(format.sampleRate)))
        running.rampStep = running.rampLeft > 0 ? pow(linear / running.gain, 1 / Double(running.rampLeft)) : 1
    }

    /// The gain heard now in dB (the ramp's position).
    var gainDecibels: Double { 20 * log10(running.gain) }

    /// The loudness gain now, linear.
    var gain: Double { running.gain }

    func process(_ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        guard enabled else { return emit(input) }
        let frames = input.count / format.bytesPerFrame
        guard let base = input.baseAddress else { return .done }
        var r = running
        defer { running = r }
        var written = 0
        for frame in 0..<frames {
            push(base, frame: frame, &r)
            if r.filled == lookAhead {
                pop(into: written, &r)
                written += 1
                if written == blockFrames {
                    let result = emit(UnsafeRawBufferPointer(start: output, count: written * format.bytesPerFrame))
                    guard case .done = result else { return result }
                    written = 0
                }
            }
        }
        guard written > 0 else { return .done }
        return emit(UnsafeRawBufferPointer(start: output, count: written * format.bytesPerFrame))
    }

    /// Lets out what the delay line holds (the end of an entry: its frames all go before the next one's).
    func flush(emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        guard enabled, running.filled > 0 else { return .done }
        var r = running
        defer { running = r }
        var written = 0
        while r.filled > 0 {
            pop(into: written, &r)
            written += 1
            if written == blockFrames || r.filled == 0 {
                let result = emit(UnsafeRawBufferPointer(start: output, count: written * format.bytesPerFrame))
                guard case .done = result else { return result }
                written = 0
            }
        }
        return .done
    }

    func reset() {
        running.filled = 0
        running.head = 0
        running.limitedInRing = 0
        running.limiterGain = 1
        running.historyNext = 0
        history.update(repeating: 0, count: 2 * Self.taps * channels)
    }

    /// The deepest limiter gain since the last call, in dB (0: the limiter did nothing).
    func takeDeepestReduction() -> Double {
        defer { running.deepestLimit = 1 }
        return 20 * log10(running.deepestLimit)
    }

    // MARK: Frames

    private func sample(_ base: UnsafeRawPointer, _ index: Int) -> Double {
        switch format.sampleType {
        case .int16: return Double(base.assumingMemoryBound(to: Int16.self)[index]) / 32_768
        case .int32: return Double(base.assumingMemoryBound(to: Int32.self)[index]) / 2_147_483_648
        case .float32: return Double(base.assumingMemoryBound(to: Float.self)[index])
        }
    }

    /// Takes one input frame: gains it, finds the peaks it makes (the sample, and the points
    /// between the samples 6 and 5 frames back, which are still in the delay line) and what the
    /// limiter must do about them, and puts it at the end of the delay line.
    private func push(_ base: UnsafeRawPointer, frame: Int, _ r: inout Running) {
        if r.rampLeft > 0 {
            r.gain *= r.rampStep
            r.rampLeft -= 1
            if r.rampLeft == 0 { r.gain = r.target }
        }
        let slot = (r.head + r.filled) % lookAhead
        let taps = Self.taps
        var peak = 0.0
        var between = 0.0
        for channel in 0..<channels {
            let value = sample(base, frame * channels + channel) * r.gain
            delayed[slot * channels + channel] = value
            peak = max(peak, abs(value))
            let ring = history + channel * 2 * taps
            ring[r.historyNext] = value
            ring[r.historyNext + taps] = value
            // The window, oldest first: from the slot after the newest.
            let window = ring + r.historyNext + 1
            // Between two samples the signal can rise over both by a few decibels, not more for
            // audio that went through any sane chain: the interpolation is only worth doing when
            // the two samples it lies between are within 6 dB of the ceiling.
            if r.gain > 1 && max(abs(window[taps / 2 - 1]), abs(window[taps / 2])) > ceiling / 2 {
                for phase in 0..<3 {
                    let weights = coefficients + phase * taps
                    var sum = 0.0
                    for k in 0..<taps { sum += window[k] * weights[k] }
                    between = max(between, abs(sum))
                }
            }
        }
        r.historyNext = r.historyNext + 1 == taps ? 0 : r.historyNext + 1
        needed[slot] = 1
        // Only a boost is limited: at or under 0 dB the samples stay as they are.
        if r.gain > 1 && peak > ceiling { require(ceiling / peak, at: slot, &r) }
        let back = taps / 2
        if r.gain > 1 && between > ceiling && r.filled >= back {
            require(ceiling / between, at: (r.head + r.filled - back) % lookAhead, &r)
        }
        r.filled += 1
    }

    /// The frame at `slot` of the delay line may be played at no more than `need`.
    private func require(_ need: Double, at slot: Int, _ r: inout Running) {
        if needed[slot] >= 1 { r.limitedInRing += 1 }
        needed[slot] = min(needed[slot], need)
    }

    /// Hands the oldest frame of the delay line to `output` at `index`, at the limiter's gain: the
    /// lowest of a straight-line attack toward every frame ahead that needs less, and a release
    /// back up from the last frame's gain.
    private func pop(into index: Int, _ r: inout Running) {
        var limit = 1.0
        if r.limitedInRing > 0 {
            for ahead in 0..<r.filled {
                let need = needed[(r.head + ahead) % lookAhead]
                guard need < 1 else { continue }
                limit = min(limit, need + (1 - need) * Double(ahead) / Double(lookAhead))
            }
        }
        let released = r.limiterGain + (1 - r.limiterGain) * release
        r.limiterGain = min(limit, released)
        r.deepestLimit = min(r.deepestLimit, r.limiterGain)
        let first = index * channels
        for channel in 0..<channels {
            let value = delayed[r.head * channels + channel] * r.limiterGain
            switch format.sampleType {
            case .int16:
                output.assumingMemoryBound(to: Int16.self)[first + channel] = Int16(clamping: lrint(value * 32_768))
            case .int32:
                output.assumingMemoryBound(to: Int32.self)[first + channel] = Int32(clamping: llrint(value * 2_147_483_648))
            case .float32:
                output.assumingMemoryBound(to: Float.self)[first + channel] = Float(value)
            }
        }
        if needed[r.head] < 1 { r.limitedInRing -= 1 }
        r.head = (r.head + 1) % lookAhead
        r.filled -= 1
    }
}
