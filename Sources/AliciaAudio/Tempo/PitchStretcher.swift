#if canImport(Glibc)
import Glibc
#endif

/// Plays speech faster or slower at the same pitch, a pitch period at a time: pitch-synchronous
/// overlap-add as libsonic does it (its pitch range, its rules for skipping and inserting periods,
/// its linear ramps), with a pitch search that costs a small share of libsonic's. Interleaved float
/// samples in and out; counts are frames. One thread at a time (the feeder's).
///
/// Where the time goes: for every period it skips or inserts, the stretcher finds the pitch period
/// at the read position by the average magnitude difference function (AMDF) of the mono signal,
/// first over a 4 kHz copy (every period from 65 to 400 Hz), then at the full rate around what
/// that found. libsonic mixes the window down twice for every search and refines over ±4 coarse
/// steps with a branch per sample; here the mono mix is made once, as samples arrive, and the
/// refinement's differences run in eight independent sums (DECISIONS.md, "CPU at 2×").
///
/// The output depends only on the input, never on how it was cut into writes: a step is taken
/// only when a whole search window is there, and the flush pads with silence as libsonic does.
final class PitchStretcher {
    /// The pitch range searched (libsonic's `SONIC_MIN_PITCH` and `SONIC_MAX_PITCH`).
    static let lowestPitch = 65
    static let highestPitch = 400
    /// The rate of the coarse search's copy of the signal (libsonic's `SONIC_AMDF_FREQ`).
    static let coarseRate = 4_000

    let channels: Int
    private(set) var speed: Double
    private let minPeriod: Int
    private let maxPeriod: Int
    /// Frames a step may look at: two of the longest periods.
    private let window: Int
    /// Source frames averaged into one of the coarse copy's.
    private let skip: Int

    /// Interleaved input not yet consumed, and its mono mix (the mean of the channels).
    private var input: FloatFrames
    private var mono: FloatFrames
    /// Interleaved output not yet read, from `outputStart`.
    private var output: FloatFrames
    private var outputStart = 0
    /// The coarse copy of a search window.
    private let coarse: UnsafeMutablePointer<Float>
    /// Input frames still to copy unchanged before the next period is skipped or inserted (speeds
    /// between 0.5 and 2 change one period in every few).
    private var remainingToCopy = 0
    /// The last search's period and how well it matched, for the next search's choice.
    private var previousPeriod = 0
    private var previousMinimum: Float = 0

    /// `maxWrite`: the most frames one `write` takes (buffers are made for it once).
    init(sampleRate: Int, channels: Int, speed: Double, maxWrite: Int) {
        self.channels = channels
        self.speed = speed
        minPeriod = max(1, sampleRate / Self.highestPitch)
        maxPeriod = max(minPeriod + 1, sampleRate / Self.lowestPitch)
        window = 2 * maxPeriod
        skip = sampleRate > Self.coarseRate ? sampleRate / Self.coarseRate : 1
        input = FloatFrames(channels: channels, capacity: window + max(maxWrite, 2 * window))
        mono = FloatFrames(channels: 1, capacity: input.capacity)
        // At half speed every input frame becomes two, plus what a step inserts.
        output = FloatFrames(channels: channels, capacity: 2 * input.capacity + 2 * window)
        coarse = .allocate(capacity: window / skip + 1)
    }

    deinit {
        input.deallocate()
        mono.deallocate()
        output.deallocate()
        coarse.deallocate()
    }

    /// Drops everything held (a seek, or a new speed) and plays on at `speed`.
    func reset(speed: Double) {
        self.speed = speed
        input.count = 0
        mono.count = 0
        output.count = 0
        outputStart = 0
        remainingToCopy = 0
        previousPeriod = 0
        previousMinimum = 0
    }

    /// Takes `frames` frames of interleaved samples and makes what output it can.
    func write(_ samples: UnsafePointer<Float>, frames: Int) {
        append(frames) { target in target.update(from: samples, count: frames * channels) }
        process()
    }

    /// Frames of output ready to read.
    var available: Int { output.count - outputStart }

    /// Copies up to `maxFrames` frames of output to `samples`; the number copied (0: none ready).
    func read(into samples: UnsafeMutablePointer<Float>, maxFrames: Int) -> Int {
        let frames = min(maxFrames, available)
        samples.update(from: output.frame(outputStart), count: frames * channels)
        outputStart += frames
        if outputStart == output.count {
            output.count = 0
            outputStart = 0
        }
        return frames
    }

    /// The end of the signal: what is held becomes output, as long as the speed makes it (the
    /// window is padded with silence and what that adds is cut off).
    func flush() {
        let expected = available + Int(Double(input.count) / speed + 0.5)
        append(2 * window) { target in target.update(repeating: 0, count: 2 * window * channels) }
        process()
        output.count = min(output.count, outputStart + expected)
        input.count = 0
        mono.count = 0
        remainingToCopy = 0
    }

    // MARK: Steps

    /// Appends `frames` frames written by `fill` to the input, and their mono mix.
    private func append(_ frames: Int, _ fill: (UnsafeMutablePointer<Float>) -> Void) {
        input.reserve(input.count + frames)
        mono.reserve(input.count + frames)
        let start = input.count
        fill(input.frame(start))
        let scale = 1 / Float(channels)
        let from = input.frame(start)
        let to = mono.frame(start)
        for frame in 0..<frames {
            var sum: Float = 0
            for channel in 0..<channels { sum += from[frame * channels + channel] }
            to[frame] = sum * scale
        }
        input.count += frames
        mono.count += frames
    }

    /// Steps through the input while a whole window is there, then drops what was consumed.
    private func process() {
        guard input.count >= window else { return }
        if outputStart > 0 {
            output.removeFirst(outputStart)
            outputStart = 0
        }
        var position = 0
        repeat {
            if remainingToCopy > 0 {
                let frames = min(remainingToCopy, window)
                copy(from: position, frames: frames)
                remainingToCopy -= frames
                position += frames
            } else {
                let period = findPeriod(at: position)
                position += speed > 1 ? skipPeriod(at: position, period: period) : insertPeriod(at: position, period: period)
            }
        } while position + window <= input.count
        input.removeFirst(position)
        mono.removeFirst(position)
    }

    /// Faster: the period at `position` and the next are overlapped into one (at 2× and above, into
    /// a part of one). Returns the input frames consumed.
    private func skipPeriod(at position: Int, period: Int) -> Int {
        let frames: Int
        if speed >= 2 {
            frames = Int(Float(period) / Float(speed - 1))
        } else {
            frames = period
            remainingToCopy = Int(Float(period) * Float(2 - speed) / Float(speed - 1))
        }
        overlapAdd(frames: frames, down: position, up: position + period)
        return period + frames
    }

    /// Slower: the period at `position` goes out, then it again overlapped with the next. Returns
    /// the input frames consumed.
    private func insertPeriod(at position: Int, period: Int) -> Int {
        let frames: Int
        if speed < 0.5 {
            frames = Int(Float(period) * Float(speed) / Float(1 - speed))
        } else {
            frames = period
            remainingToCopy = Int(Float(period) * Float(2 * speed - 1) / Float(1 - speed))
        }
        copy(from: position, frames: period)
        overlapAdd(frames: frames, down: position + period, up: position)
        return frames
    }

    private func copy(from position: Int, frames: Int) {
        output.reserve(output.count + frames)
        output.frame(output.count).update(from: input.frame(position), count: frames * channels)
        output.count += frames
    }

    /// `frames` frames of output: the input from `down` fading out while that from `up` fades in,
    /// linearly over the whole length.
    private func overlapAdd(frames: Int, down: Int, up: Int) {
        guard frames > 0 else { return }
        output.reserve(output.count + frames)
        let out = output.frame(output.count)
        let falling = input.frame(down)
        let rising = input.frame(up)
        let step = 1 / Float(frames)
        for frame in 0..<frames {
            let ratio = Float(frame) * step
            for channel in 0..<channels {
                let i = frame * channels + channel
                out[i] = falling[i] + (rising[i] - falling[i]) * ratio
            }
        }
        output.count += frames
    }

    // MARK: The pitch search

    /// The pitch period at `position`: coarse over the whole range, then at the full rate around
    /// it; the previous period when it still matches better (the end of a voiced sound).
    private func findPeriod(at position: Int) -> Int {
        let signal = mono.frame(position)
        var match: Match
        if skip > 1 {
            let count = window / skip
            let scale = 1 / Float(skip)
            for i in 0..<count {
                var sum: Float = 0
                for j in i * skip..<(i + 1) * skip { sum += signal[j] }
                coarse[i] = sum * scale
            }
            let rough = Self.search(coarse, periods: minPeriod / skip...maxPeriod / skip).period * skip
            let periods = max(minPeriod, rough - 4 * skip)...min(maxPeriod, rough + 4 * skip)
            match = Self.search(signal, periods: periods)
        } else {
            match = Self.search(signal, periods: minPeriod...maxPeriod)
        }
        let chosen = previousIsBetter(match) ? previousPeriod : match.period
        previousMinimum = match.minimum
        previousPeriod = match.period
        return chosen
    }

    /// libsonic's rule for the end of a voiced sound: the new period stands when it matches well
    /// (its worst candidate is more than three times its best) or not much worse than the last one.
    private func previousIsBetter(_ match: Match) -> Bool {
        guard match.minimum > 0, previousPeriod > 0 else { return false }
        if match.maximum > match.minimum * 3 { return false }
        if match.minimum * 2 <= previousMinimum * 3 { return false }
        return true
    }

    /// A search's best period and the mean differences of its best and worst candidates.
    struct Match {
        var period: Int
        var minimum: Float
        var maximum: Float
    }

    /// The period in `periods` whose mean |s[i] − s[i + period]| over one period is least.
    static func search(_ signal: UnsafePointer<Float>, periods: ClosedRange<Int>) -> Match {
        var best = Match(period: periods.lowerBound, minimum: .infinity, maximum: 0)
        for period in periods {
            let mean = difference(signal, period: period) / Float(period)
            if mean < best.minimum {
                best.minimum = mean
                best.period = period
            }
            best.maximum = max(best.maximum, mean)
        }
        return best
    }

    /// The sum of |s[i] − s[i + period]| for i in 0..<period, in eight independent sums (the
    /// compiler keeps them in one vector register).
    @inline(__always)
    static func difference(_ signal: UnsafePointer<Float>, period: Int) -> Float {
        let lagged = signal + period
        var s0: Float = 0, s1: Float = 0, s2: Float = 0, s3: Float = 0
        var s4: Float = 0, s5: Float = 0, s6: Float = 0, s7: Float = 0
        var i = 0
        while i + 8 <= period {
            s0 += abs(signal[i] - lagged[i])
            s1 += abs(signal[i + 1] - lagged[i + 1])
            s2 += abs(signal[i + 2] - lagged[i + 2])
            s3 += abs(signal[i + 3] - lagged[i + 3])
            s4 += abs(signal[i + 4] - lagged[i + 4])
            s5 += abs(signal[i + 5] - lagged[i + 5])
            s6 += abs(signal[i + 6] - lagged[i + 6])
            s7 += abs(signal[i + 7] - lagged[i + 7])
            i += 8
        }
        while i < period {
            s0 += abs(signal[i] - lagged[i])
            i += 1
        }
        return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
    }
}

/// Interleaved float frames in one allocation that grows (rarely: it is made for the usual
/// writes), with room taken from the front by moving what is left down.
struct FloatFrames {
    let channels: Int
    private(set) var capacity: Int
    private(set) var base: UnsafeMutablePointer<Float>
    var count = 0

    init(channels: Int, capacity: Int) {
        self.channels = channels
        self.capacity = capacity
        base = .allocate(capacity: capacity * channels)
    }

    func deallocate() { base.deallocate() }

    func frame(_ index: Int) -> UnsafeMutablePointer<Float> { base + index * channels }

    mutating func reserve(_ frames: Int) {
        guard frames > capacity else { return }
        let grown = max(frames, capacity * 2)
        let moved = UnsafeMutablePointer<Float>.allocate(capacity: grown * channels)
        moved.update(from: base, count: count * channels)
        base.deallocate()
        base = moved
        capacity = grown
    }

    mutating func removeFirst(_ frames: Int) {
        guard frames > 0 else { return }
        let left = count - frames
        if left > 0 { memmove(base, base + frames * channels, left * channels * MemoryLayout<Float>.size) }
        count = left
    }
}
