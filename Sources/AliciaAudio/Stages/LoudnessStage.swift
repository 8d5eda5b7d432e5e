#if canImport(Glibc)
import Glibc
#endif

/// Matched loudness in the sink's format: the entry's loudness gain (ramped over at least a
/// second) and, where that gain is a boost, a look-ahead true-peak limiter that keeps the peaks
/// under −1 dBTP. While enabled it delays the audio by its look-ahead (5 ms) whatever the gain, so
/// that the limiter coming into play never inserts or drops a frame; at 0 dB the delayed samples are
/// the input's, bit for bit (the arithmetic is in `Double`, exact for every sample type). Disabled
/// (`--loudness off`), it hands its input on untouched. Feeder thread only.
///
/// It works a block at a time, in plain loops over one linear buffer (the frames already out that
/// the peak detector still looks back on, the delay line, then the new block), so that the usual
/// case, a gain and no peak near the ceiling, costs a multiply per sample: frame by frame through a
/// ring it cost as much as decoding and playing together.
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
    /// The coefficients, in a buffer (not an array) for the inner loop.
    private let coefficients: UnsafeMutablePointer<Double>

    /// Frames kept before the delay line: the peak detector's window reaches this far back.
    private static let history = taps - 1
    /// Gained samples, interleaved: `history` frames already out, the delay line (`filled` frames),
    /// then the block being taken.
    private let work: UnsafeMutablePointer<Double>
    /// Per frame of `work`: the most the limiter may let through (1: no limit) for the frame's own
    /// peak, and for the peak between it and the next frame. The latter is found `taps / 2` frames
    /// later, so it is known to fewer of the frames before it: kept apart, each bounds exactly the
    /// frames it would bound taken one at a time, and blocks of any size give the same output.
    private let needs: UnsafeMutablePointer<Double>
    private let betweenNeeds: UnsafeMutablePointer<Double>
    /// Per frame of a block: its loudness gain while one ramps; then the limiter's bound on each frame out.
    private let gains: UnsafeMutablePointer<Double>
    private let limits: UnsafeMutablePointer<Double>
    private let output: UnsafeMutableRawPointer

    /// What changes block by block, in one value: the loops work on a local copy, so they pay no
    /// exclusivity check per access of a class's field.
    private struct Running {
        /// The loudness gain, linear, where it ramps to, and how.
        var gain = 1.0
        var target = 1.0
        var rampLeft = 0
        var rampStep = 1.0
        /// Frames in the delay line.
        var filled = 0
        /// The limiter's gain on the last frame out, and the smallest since `takeDeepestReduction`.
        var limiterGain = 1.0
        var deepestLimit = 1.0
    }
    private var running = Running()

    init(format: AudioFormat, blockFrames: Int) {
        self.format = format
        self.blockFrames = blockFrames
        channels = format.channels
        lookAhead = max(1, format.sampleRate / 200)
        release = 1 - exp(-1 / (0.08 * Double(format.sampleRate)))
        let frames = Self.history + lookAhead + blockFrames
        work = .allocate(capacity: frames * format.channels)
        work.initialize(repeating: 0, count: frames * format.channels)
        needs = .allocate(capacity: frames)
        needs.initialize(repeating: 1, count: frames)
        betweenNeeds = .allocate(capacity: frames)
        betweenNeeds.initialize(repeating: 1, count: frames)
        gains = .allocate(capacity: blockFrames)
        limits = .allocate(capacity: max(blockFrames, lookAhead))
        coefficients = .allocate(capacity: Self.coefficientTable.count)
        coefficients.initialize(from: Self.coefficientTable, count: Self.coefficientTable.count)
        output = .allocate(byteCount: max(blockFrames, lookAhead) * format.bytesPerFrame, alignment: 16)
    }

    deinit {
        work.deallocate()
        needs.deallocate()
        betweenNeeds.deallocate()
        gains.deallocate()
        limits.deallocate()
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
        guard let base = input.baseAddress else { return .done }
        let frames = input.count / format.bytesPerFrame
        var start = 0
        while start < frames {
            let count = min(blockFrames, frames - start)
            let out = take(base + start * format.bytesPerFrame, frames: count)
            start += count
            guard out > 0 else { continue }
            let result = emit(UnsafeRawBufferPointer(start: output, count: out * format.bytesPerFrame))
            guard case .done = result else { return result }
        }
        return .done
    }

    /// Lets out what the delay line holds (the end of an entry: its frames all go before the next one's).
    func flush(emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        guard enabled, running.filled > 0 else { return .done }
        let out = running.filled
        release(frames: out, total: out)
        keep(from: out, total: out)
        running.filled = 0
        return emit(UnsafeRawBufferPointer(start: output, count: out * format.bytesPerFrame))
    }

    func reset() {
        running.filled = 0
        running.limiterGain = 1
        work.update(repeating: 0, count: Self.history * channels)
    }

    /// The deepest limiter gain since the last call, in dB (0: the limiter did nothing).
    func takeDeepestReduction() -> Double {
        defer { running.deepestLimit = 1 }
        return 20 * log10(running.deepestLimit)
    }

    // MARK: Blocks

    /// Takes `count` input frames (at most `blockFrames`) into the delay line, and writes the frames
    /// that leave it to `output`; returns how many.
    private func take(_ input: UnsafeRawPointer, frames count: Int) -> Int {
        let first = Self.history + running.filled
        let gained: Gained
        switch format.sampleType {
        case .int16: gained = gain(input.assumingMemoryBound(to: Int16.self), frames: count, into: first)
        case .int32: gained = gain(input.assumingMemoryBound(to: Int32.self), frames: count, into: first)
        case .float32: gained = gain(input.assumingMemoryBound(to: Float.self), frames: count, into: first)
        }
        (needs + first).update(repeating: 1, count: count)
        (betweenNeeds + first).update(repeating: 1, count: count)
        if gained.boosted { findPeaks(first..<first + count, ramped: gained.ramped) }
        let total = running.filled + count
        let out = max(0, total - lookAhead)
        if out > 0 { release(frames: out, total: total) }
        keep(from: out, total: total)
        running.filled = total - out
        return out
    }

    /// How a block was gained: whether any frame of it is a boost, and whether the gain ramped
    /// (then `gains` holds each frame's).
    private struct Gained {
        var boosted: Bool
        var ramped: Bool
    }

    /// Scales `count` frames at `samples` by the loudness gain (ramping it) into `work` from frame
    /// `first`.
    private func gain<Sample: PCMSample>(_ samples: UnsafePointer<Sample>, frames count: Int, into first: Int) -> Gained {
        let n = count * channels
        let into = work + first * channels
        var r = running
        defer { running = r }
        guard r.rampLeft > 0 else {
            let g = r.gain
            for i in 0..<n { into[i] = samples[i].unit * g }
            return Gained(boosted: g > 1, ramped: false)
        }
        var boosted = false
        for frame in 0..<count {
            if r.rampLeft > 0 {
                r.gain *= r.rampStep
                r.rampLeft -= 1
                if r.rampLeft == 0 { r.gain = r.target }
            }
            let g = r.gain
            gains[frame] = g
            boosted = boosted || g > 1
            for channel in frame * channels..<(frame + 1) * channels { into[channel] = samples[channel].unit * g }
        }
        return Gained(boosted: boosted, ramped: true)
    }

    /// Marks the frames of `range` (of `work`) whose peaks, or the peaks between them and the frame
    /// before, would pass the ceiling: the limit each needs. Only frames at a boost are limited
    /// (`ramped`: `gains` says which).
    private func findPeaks(_ range: Range<Int>, ramped: Bool) {
        let taps = Self.taps
        let back = taps / 2
        let half = ceiling / 2
        for frame in range {
            if ramped && gains[frame - range.lowerBound] <= 1 { continue }
            let samples = work + frame * channels
            var peak = 0.0
            var between = 0.0
            for channel in 0..<channels {
                peak = max(peak, abs(samples[channel]))
                // Between two samples the signal can rise over both by a few decibels, not more for
                // audio that went through any sane chain: the interpolation is only worth doing when
                // the two samples it lies between are within 6 dB of the ceiling.
                let window = samples + channel - (taps - 1) * channels
                guard max(abs(window[(back - 1) * channels]), abs(window[back * channels])) > half else { continue }
                for phase in 0..<3 {
                    let weights = coefficients + phase * taps
                    var sum = 0.0
                    for k in 0..<taps { sum += window[k * channels] * weights[k] }
                    between = max(between, abs(sum))
                }
            }
            if peak > ceiling { needs[frame] = min(needs[frame], ceiling / peak) }
            // The point found lies before the frame `back` frames ago, which must still be in the
            // delay line to be limited.
            if between > ceiling && frame - back >= Self.history {
                betweenNeeds[frame - back] = min(betweenNeeds[frame - back], ceiling / between)
            }
        }
    }

    /// Writes the oldest `count` of the `total` frames in the delay line to `output`, at the
    /// limiter's gain: the lowest of a straight-line attack toward every frame ahead that needs less,
    /// and a release back up from the last frame's gain.
    private func release(frames count: Int, total: Int) {
        let from = Self.history
        var r = running
        defer { running = r }
        var limited = false
        // A frame that needs `need` bounds itself and the `lookAhead - 1` frames before it; a peak
        // between frames only those that were still in the delay line when it was found.
        func bound(_ need: Double, at ahead: Int, from lowest: Int) {
            guard lowest < count else { return }
            if !limited { limits.update(repeating: 1, count: count) }
            limited = true
            for out in max(0, lowest)..<min(count, ahead + 1) {
                limits[out] = min(limits[out], need + (1 - need) * Double(ahead - out) / Double(lookAhead))
            }
        }
        let back = Self.taps / 2
        for frame in from..<from + total {
            let ahead = frame - from
            if needs[frame] < 1 { bound(needs[frame], at: ahead, from: ahead - lookAhead + 1) }
            if betweenNeeds[frame] < 1 { bound(betweenNeeds[frame], at: ahead, from: min(ahead, ahead - lookAhead + 1 + back)) }
        }
        guard limited || r.limiterGain < 1 else { return convert(frames: count, from: from, limited: false) }
        if !limited { limits.update(repeating: 1, count: count) }
        for out in 0..<count {
            let released = r.limiterGain + (1 - r.limiterGain) * release
            // Back within a hair of 1, it is 1: the unlimited loop takes over again.
            r.limiterGain = min(limits[out], 1 - released < 1e-12 ? 1 : released)
            r.deepestLimit = min(r.deepestLimit, r.limiterGain)
            limits[out] = r.limiterGain
        }
        convert(frames: count, from: from, limited: true)
    }

    private func convert(frames count: Int, from: Int, limited: Bool) {
        switch format.sampleType {
        case .int16: convert(output.assumingMemoryBound(to: Int16.self), frames: count, from: from, limited: limited)
        case .int32: convert(output.assumingMemoryBound(to: Int32.self), frames: count, from: from, limited: limited)
        case .float32: convert(output.assumingMemoryBound(to: Float.self), frames: count, from: from, limited: limited)
        }
    }

    private func convert<Sample: PCMSample>(_ out: UnsafeMutablePointer<Sample>, frames count: Int, from: Int, limited: Bool) {
        let samples = work + from * channels
        guard limited else {
            for i in 0..<count * channels { out[i] = Sample(unit: samples[i]) }
            return
        }
        for frame in 0..<count {
            let g = limits[frame]
            for i in frame * channels..<(frame + 1) * channels { out[i] = Sample(unit: samples[i] * g) }
        }
    }

    /// Moves what stays (the history before the frame `out` of the delay line, and the delay line
    /// from it) to the front of `work`.
    private func keep(from out: Int, total: Int) {
        guard out > 0 else { return }
        let kept = Self.history + total - out
        // Overlapping: a memmove.
        UnsafeMutableRawPointer(work).copyMemory(from: work + out * channels, byteCount: kept * channels * MemoryLayout<Double>.size)
        UnsafeMutableRawPointer(needs).copyMemory(from: needs + out, byteCount: kept * MemoryLayout<Double>.size)
        UnsafeMutableRawPointer(betweenNeeds).copyMemory(from: betweenNeeds + out, byteCount: kept * MemoryLayout<Double>.size)
    }
}

/// A PCM sample as the stage works on it: full scale 1, in `Double` (exact for every type).
protocol PCMSample {
    var unit: Double { get }
    /// Rounded to the nearest (ties to even, as `lrint`) and clamped.
    init(unit: Double)
}

/// The integer nearest `value` (ties to even, as `lrint`), for |value| < 2^31, in the low 32 bits
/// of the result: adding 1.5 × 2^52 leaves no bits under the units, and the units in the lowest
/// bits of the mantissa, in two's complement. No call to `lrint` and no trapping conversion per
/// sample, so the loops around it vectorize.
@inline(__always)
private func roundedBits(_ value: Double) -> UInt64 {
    (value + 0x1.8p52).bitPattern
}

extension Int16: PCMSample {
    @inline(__always) var unit: Double { Double(self) / 32_768 }
    @inline(__always) init(unit: Double) {
        self.init(truncatingIfNeeded: roundedBits(Swift.min(32_767, Swift.max(-32_768, unit * 32_768))))
    }
}

extension Int32: PCMSample {
    @inline(__always) var unit: Double { Double(self) / 2_147_483_648 }
    @inline(__always) init(unit: Double) {
        self.init(truncatingIfNeeded: roundedBits(Swift.min(2_147_483_647, Swift.max(-2_147_483_648, unit * 2_147_483_648))))
    }
}

extension Float: PCMSample {
    @inline(__always) var unit: Double { Double(self) }
    @inline(__always) init(unit: Double) { self.init(unit) }
}
