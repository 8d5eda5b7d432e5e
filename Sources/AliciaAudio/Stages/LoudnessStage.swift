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
    /// The loudness gain, linear, and where it ramps to.
    private(set) var gain = 1.0
    private var target = 1.0
    private var rampLeft = 0
    private var rampStep = 1.0

    // The delay line: `lookAhead` frames of gained samples, and the gain each needs, in a ring.
    private let delayed: UnsafeMutablePointer<Double>
    private let needed: UnsafeMutablePointer<Double>
    private var filled = 0
    private var head = 0
    /// Frames in the ring that need the limiter (their `needed` is under 1): the window search is
    /// skipped while there are none.
    private var limitedInRing = 0
    /// The limiter's gain on the last frame out.
    private var limiterGain = 1.0
    /// The last `taps` gained samples of each channel, for the peaks between samples: a ring per
    /// channel written twice (at `i` and `i + taps`), so the window from the oldest is contiguous
    /// and read without a modulo; `historyNext` is the oldest.
    private let history: UnsafeMutablePointer<Double>
    private var historyNext = 0
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
    /// Smallest limiter gain applied since the last `takeDeepestReduction` (for the tests and logs).
    private(set) var deepestLimit = 1.0

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
            gain = 1
            target = 1
            rampLeft = 0
        }
    }

    /// Moves the loudness gain to `decibels` over `ramp` seconds (at least one: no sudden jumps),
    /// in even decibel steps; 0: at once (a start, where nothing was heard before).
    func setGain(decibels: Double, ramp: Double) {
        let linear = pow(10, decibels / 20)
        target = linear
        guard ramp > 0 else {
            gain = linear
            rampLeft = 0
            return
        }
        rampLeft = target == gain ? 0 : max(1, Int(max(1, ramp) * Double(format.sampleRate)))
        rampStep = rampLeft > 0 ? pow(target / gain, 1 / Double(rampLeft)) : 1
    }

    /// The gain heard now in dB (the ramp's position).
    var gainDecibels: Double { 20 * log10(gain) }

    func process(_ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        guard enabled else { return emit(input) }
        let frames = input.count / format.bytesPerFrame
        guard let base = input.baseAddress else { return .done }
        var written = 0
        for frame in 0..<frames {
            push(base, frame: frame)
            if filled == lookAhead {
                pop(into: written)
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
        guard enabled, filled > 0 else { return .done }
        var written = 0
        while filled > 0 {
            pop(into: written)
            written += 1
            if written == blockFrames || filled == 0 {
                let result = emit(UnsafeRawBufferPointer(start: output, count: written * format.bytesPerFrame))
                guard case .done = result else { return result }
                written = 0
            }
        }
        return .done
    }

    func reset() {
        filled = 0
        head = 0
        limitedInRing = 0
        limiterGain = 1
        history.update(repeating: 0, count: 2 * Self.taps * channels)
        historyNext = 0
    }

    /// The deepest limiter gain since the last call, in dB (0: the limiter did nothing).
    func takeDeepestReduction() -> Double {
        defer { deepestLimit = 1 }
        return 20 * log10(deepestLimit)
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
    private func push(_ base: UnsafeRawPointer, frame: Int) {
        if rampLeft > 0 {
            gain *= rampStep
            rampLeft -= 1
            if rampLeft == 0 { gain = target }
        }
        let slot = (head + filled) % lookAhead
        let taps = Self.taps
        var peak = 0.0
        var between = 0.0
        for channel in 0..<channels {
            let value = sample(base, frame * channels + channel) * gain
            delayed[slot * channels + channel] = value
            peak = max(peak, abs(value))
            let ring = history + channel * 2 * taps
            ring[historyNext] = value
            ring[historyNext + taps] = value
            // The window, oldest first: from the slot after the newest.
            let window = ring + historyNext + 1
            // Between two samples the signal can rise over both by a few decibels, not more for
            // audio that went through any sane chain: the interpolation is only worth doing when
            // the two samples it lies between are within 6 dB of the ceiling.
            if gain > 1 && max(abs(window[taps / 2 - 1]), abs(window[taps / 2])) > ceiling / 2 {
                for phase in 0..<3 {
                    let weights = coefficients + phase * taps
                    var sum = 0.0
                    for k in 0..<taps { sum += window[k] * weights[k] }
                    between = max(between, abs(sum))
                }
            }
        }
        historyNext = historyNext + 1 == taps ? 0 : historyNext + 1
        needed[slot] = 1
        // Only a boost is limited: at or under 0 dB the samples stay as they are.
        if gain > 1 && peak > ceiling { require(ceiling / peak, at: slot) }
        let back = taps / 2
        if gain > 1 && between > ceiling && filled >= back {
            require(ceiling / between, at: (head + filled - back) % lookAhead)
        }
        filled += 1
    }

    /// The frame at `slot` of the delay line may be played at no more than `need`.
    private func require(_ need: Double, at slot: Int) {
        if needed[slot] >= 1 { limitedInRing += 1 }
        needed[slot] = min(needed[slot], need)
    }

    /// Hands the oldest frame of the delay line to `output` at `index`, at the limiter's gain: the
    /// lowest of a straight-line attack toward every frame ahead that needs less, and a release
    /// back up from the last frame's gain.
    private func pop(into index: Int) {
        var limit = 1.0
        if limitedInRing > 0 {
            for ahead in 0..<filled {
                let need = needed[(head + ahead) % lookAhead]
                guard need < 1 else { continue }
                limit = min(limit, need + (1 - need) * Double(ahead) / Double(lookAhead))
            }
        }
        let released = limiterGain + (1 - limiterGain) * release
        limiterGain = min(limit, released)
        deepestLimit = min(deepestLimit, limiterGain)
        let first = index * channels
        for channel in 0..<channels {
            let value = delayed[head * channels + channel] * limiterGain
            switch format.sampleType {
            case .int16:
                output.assumingMemoryBound(to: Int16.self)[first + channel] = Int16(clamping: Int((value * 32_768).rounded()))
            case .int32:
                output.assumingMemoryBound(to: Int32.self)[first + channel] = Int32(clamping: Int64((value * 2_147_483_648).rounded()))
            case .float32:
                output.assumingMemoryBound(to: Float.self)[first + channel] = Float(value)
            }
        }
        if needed[head] < 1 { limitedInRing -= 1 }
        head = (head + 1) % lookAhead
        filled -= 1
    }
}
