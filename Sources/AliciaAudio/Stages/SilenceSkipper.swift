#if canImport(Glibc)
import Glibc
#endif

/// Shortens pauses (`SilenceSkipping`), in the entry's own format and frames, before the converter
/// and the speed changer: the frames it cuts are source frames, so the feeder can tell the frame
/// map exactly where each cut is (`onCut`, called before anything after the cut is handed on), and
/// positions, cues and seeks stay in the episode's time.
///
/// A run of silent frames is held until it either ends shorter than the level's minimum (then it
/// goes out whole, untouched) or its length decides what is kept: `retention` of it, capped, half
/// from its start and half from its end. The kept half before the cut fades over 5 ms to −20 dB and
/// the half after it comes back up over its last 5 ms, so it never sounds like playback stopped
/// (media3's SilenceSkippingAudioProcessor also keeps an attenuated share rather than zeroing). A
/// run that reaches `maximumKept / retention` keeps the cap whatever its length, so only that much is
/// ever held (2 s mild and medium, 3 s strong): after it, only the last half of the cap is kept in a
/// ring. Noisy frames pass through without a copy. Feeder thread only.
final class SilenceSkipper: AudioStage {
    let format: AudioFormat
    private(set) var level: SilenceSkipping
    private let bytesPerFrame: Int
    private let pieceFrames: Int
    private var minimumFrames = 0
    private var maximumKeptFrames = 0
    private var holdCapacity = 0
    private var hold: UnsafeMutableRawPointer?
    /// The fades at the kept part's ends: 5 ms.
    private let fadeFrames: Int
    /// The kept part of a shortened pause plays at −20 dB between its fades.
    static let keptGain = 0.1

    private enum Mode { case noisy, holding, cutting }
    private var mode = Mode.noisy
    /// Source frame of the run's first frame, and its length so far.
    private var runStart: Int64 = 0
    private var runFrames = 0
    /// Cutting: the frames kept before the cut, the ring of the last ones, and where it writes next.
    private var headFrames = 0
    private var tailFrames = 0
    private var ringNext = 0
    /// Source frame of the next input frame.
    private(set) var nextFrame: Int64 = 0
    /// Told of each cut as it is made, before the frames after it are emitted: from a source frame
    /// (the first one cut) to the first one heard again.
    var onCut: ((SourceCut) -> Void)?

    struct SourceCut: Equatable {
        var from: Int64
        var to: Int64
    }

    private var noiseFloor: NoiseFloor
    private var threshold: Double
    /// The noise floor's window being filled: its peak so far and its frames.
    private var windowPeak = 0.0
    private var windowFill = 0

    init(format: AudioFormat, level: SilenceSkipping, pieceFrames: Int) {
        self.format = format
        self.pieceFrames = pieceFrames
        self.level = .off
        bytesPerFrame = format.bytesPerFrame
        fadeFrames = max(1, format.sampleRate / 200)
        noiseFloor = NoiseFloor(sampleRate: format.sampleRate)
        threshold = NoiseFloor.linear(noiseFloor.thresholdDecibels)
        setLevel(level)
    }

    /// Each input frame's peak, filled per `process` in one loop of its own (a switch on the sample
    /// type per frame cost more than the rest of the stage).
    private var peakBuffer: UnsafeMutablePointer<Double>?
    private var peakCapacity = 0

    deinit {
        hold?.deallocate()
        peakBuffer?.deallocate()
    }

    /// Changes the rules for what follows. Call `flush` first: a run held under the old rules is
    /// dropped here.
    func setLevel(_ level: SilenceSkipping) {
        self.level = level
        mode = .noisy
        guard level != .off else { return }
        let rate = Double(format.sampleRate)
        minimumFrames = Int((level.minimum * rate).rounded())
        maximumKeptFrames = Int((level.maximumKept * rate).rounded())
        let capacity = Int((level.maximumKept / level.retention * rate).rounded(.up))
        if capacity != holdCapacity {
            hold?.deallocate()
            hold = .allocate(byteCount: capacity * bytesPerFrame, alignment: 16)
            holdCapacity = capacity
        }
    }

    /// The next input begins at source frame `frame`; `newItem`: of another entry, whose noise floor
    /// is measured anew.
    func restart(at frame: Int64, newItem: Bool) {
        mode = .noisy
        runFrames = 0
        nextFrame = frame
        if newItem {
            noiseFloor.reset()
            windowPeak = 0
            windowFill = 0
            threshold = NoiseFloor.linear(noiseFloor.thresholdDecibels)
        }
    }

    /// The silence threshold now, in dBFS.
    var thresholdDecibels: Double { noiseFloor.thresholdDecibels }

    // MARK: AudioStage

    func process(_ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        let frames = input.count / bytesPerFrame
        defer { nextFrame += Int64(frames) }
        guard level != .off, let base = input.baseAddress else { return emit(input) }
        var walk = Walk(base: base, input: input, bytesPerFrame: bytesPerFrame)
        // The threshold and the noise floor's window are worked on as locals, written back however
        // this returns: a class's fields cost an exclusivity check on every access in a loop this
        // hot. The floor itself is told once per 10 ms window.
        var limit = threshold
        var windowPeak = self.windowPeak
        var windowFill = self.windowFill
        let windowFrames = noiseFloor.windowFrames
        defer {
            threshold = limit
            self.windowPeak = windowPeak
            self.windowFill = windowFill
        }
        let peaks = self.peaks(base, frames: frames)
        var i = 0
        while i < frames {
            // The frames up to the end of the noise floor's window share its threshold, but the
            // window's last frame, which may see a new one: the window is told first.
            let segmentEnd = min(frames, i + windowFrames - windowFill)
            var segmentPeak = windowPeak
            for j in i..<segmentEnd { segmentPeak = max(segmentPeak, peaks[j]) }
            let before = limit
            var lastBefore = segmentEnd
            if windowFill + (segmentEnd - i) == windowFrames {
                if noiseFloor.add(window: segmentPeak) { limit = NoiseFloor.linear(noiseFloor.thresholdDecibels) }
                lastBefore = segmentEnd - 1
                windowPeak = 0
                windowFill = 0
            } else {
                windowPeak = segmentPeak
                windowFill += segmentEnd - i
            }
            let thresholds = Thresholds(before: before, after: limit, lastBefore: lastBefore)
            let result = walkSegment(&walk, &i, to: segmentEnd, peaks, thresholds, emit)
            guard case .done = result else { return result }
        }
        return finishInput(walk, frames: frames, emit)
    }

    /// One input as it is walked: where its frames are, the first one not yet handed on, and where
    /// the run held now began in it (nil: in an earlier input). A short run that begins and ends
    /// within one input is handed on with the frames around it, in one piece: the hold copy is only
    /// needed when it turns long or goes on past the input's end (speech has a short "silent" run
    /// every few frames, and a write per run cost 40 times the CPU of playing).
    private struct Walk {
        let base: UnsafeRawPointer
        let input: UnsafeRawBufferPointer
        let bytesPerFrame: Int
        var pending = 0
        var runStartIndex: Int?

        func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: input[range.lowerBound * bytesPerFrame..<range.upperBound * bytesPerFrame])
        }

        /// Hands on what is pending before the run held now, which then lives in the hold.
        mutating func emitBeforeRun(_ emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
            defer { runStartIndex = nil }
            guard let start = runStartIndex, start > pending else { return .done }
            return emit(slice(pending..<start))
        }
    }

    /// The silence threshold of a segment: before its last frame, and from it on (the noise
    /// floor's window may have moved it there).
    private struct Thresholds {
        let before: Double
        let after: Double
        let lastBefore: Int

        func silent(_ peak: Double, at index: Int) -> Bool { peak < (index < lastBefore ? before : after) }
    }

    /// The frames `i..<end` of one threshold: noisy ones pass without a look, the others go
    /// through the run's rules.
    private func walkSegment(_ walk: inout Walk, _ i: inout Int, to end: Int, _ peaks: UnsafeMutablePointer<Double>,
                             _ thresholds: Thresholds, _ emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        while i < end {
            if mode == .noisy {
                // Noisy frames pass without a look: on to the next silent one.
                while i < thresholds.lastBefore && peaks[i] >= thresholds.before { i += 1 }
                if i == thresholds.lastBefore && (i == end || peaks[i] >= thresholds.after) {
                    i = end
                    break
                }
            }
            let result = take(frame: i, silent: thresholds.silent(peaks[i], at: i), &walk, emit)
            guard case .done = result else { return result }
            i += 1
        }
        return .done
    }

    /// One frame that is silent, or ends a run: the run's rules.
    @inline(__always)
    private func take(frame i: Int, silent: Bool, _ walk: inout Walk, _ emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        switch mode {
        case .noisy:
            mode = .holding
            runStart = nextFrame + Int64(i)
            runFrames = 0
            walk.runStartIndex = i
            append(walk.base, frame: i)
            return .done
        case .holding:
            return hold(frame: i, silent: silent, &walk, emit)
        case .cutting:
            guard !silent else {
                copy(walk.base, frame: i, to: ringNext)
                ringNext = (ringNext + 1) % tailFrames
                runFrames += 1
                return .done
            }
            walk.pending = i
            return endRun(emit: emit)
        }
    }

    /// A frame while a run is held: it grows (to the cap, where the cutting starts), or ends short
    /// (it goes out as it came) or long (shortened).
    private func hold(frame i: Int, silent: Bool, _ walk: inout Walk, _ emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        if silent {
            append(walk.base, frame: i)
            guard runFrames == holdCapacity else { return .done }
            let result = walk.emitBeforeRun(emit)
            guard case .done = result else { return result }
            walk.pending = i + 1
            return startCutting(emit: emit)
        }
        if runFrames < minimumFrames {
            // Short: it goes out as it came. Begun in this input, it is part of what is pending.
            if walk.runStartIndex == nil {
                let result = emitHeld(0..<runFrames, emit)
                guard case .done = result else { return result }
                walk.pending = i
            }
            mode = .noisy
            runFrames = 0
            walk.runStartIndex = nil
            return .done
        }
        let result = walk.emitBeforeRun(emit)
        guard case .done = result else { return result }
        walk.pending = i
        return endRun(emit: emit)
    }

    /// What of the input is left to hand on when its last frame has been walked.
    private func finishInput(_ walk: Walk, frames: Int, _ emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        switch mode {
        case .noisy:
            guard frames > walk.pending else { return .done }
            return emit(walk.slice(walk.pending..<frames))
        case .holding:
            // The run goes on into the next input, from the hold; what came before it goes now.
            guard let start = walk.runStartIndex, start > walk.pending else { return .done }
            return emit(walk.slice(walk.pending..<start))
        case .cutting:
            return .done
        }
    }

    /// The end of the entry: a pause it ends on is shortened by the same rules.
    func flush(emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        guard mode != .noisy else { return .done }
        return endRun(emit: emit)
    }

    func reset() {
        mode = .noisy
        runFrames = 0
    }

    // MARK: Runs

    private func append(_ base: UnsafeRawPointer, frame: Int) {
        copy(base, frame: frame, to: runFrames)
        runFrames += 1
    }

    private func copy(_ base: UnsafeRawPointer, frame: Int, to slot: Int) {
        (hold! + slot * bytesPerFrame).copyMemory(from: base + frame * bytesPerFrame, byteCount: bytesPerFrame)
    }

    /// Hands on the held `frames` in pieces of at most `pieceFrames`, as the decoder's chunks come
    /// (the converter and the speed changer take no more at a time).
    private func emitHeld(_ frames: Range<Int>, _ emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        var start = frames.lowerBound
        while start < frames.upperBound {
            let end = min(frames.upperBound, start + pieceFrames)
            let result = emit(UnsafeRawBufferPointer(start: hold! + start * bytesPerFrame, count: (end - start) * bytesPerFrame))
            guard case .done = result else { return result }
            start = end
        }
        return .done
    }

    /// The run has reached the length at which the cap holds: the head goes out, the ring keeps
    /// the tail from here on.
    private func startCutting(emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        headFrames = (maximumKeptFrames + 1) / 2
        tailFrames = max(1, maximumKeptFrames - headFrames)
        fadeOut(0..<headFrames)
        let result = emitHeld(0..<headFrames, emit)
        // The last `tailFrames` frames held become the ring, oldest at slot 0.
        hold!.copyMemory(from: hold! + (runFrames - tailFrames) * bytesPerFrame, byteCount: tailFrames * bytesPerFrame)
        ringNext = 0
        mode = .cutting
        return result
    }

    /// The run ended (a noisy frame, or the entry's end): what it keeps goes out, around a cut.
    private func endRun(emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        let length = runFrames
        let wasMode = mode
        mode = .noisy
        runFrames = 0
        if wasMode == .holding {
            guard length >= minimumFrames else { return emitHeld(0..<length, emit) }
            let keep = min(Int((Double(length) * level.retention).rounded()), maximumKeptFrames)
            let head = (keep + 1) / 2
            let tail = keep - head
            fadeOut(0..<head)
            var result = emitHeld(0..<head, emit)
            guard case .done = result else { return result }
            onCut?(SourceCut(from: runStart + Int64(head), to: runStart + Int64(length - tail)))
            fadeIn(length - tail..<length)
            result = emitHeld(length - tail..<length, emit)
            return result
        }
        onCut?(SourceCut(from: runStart + Int64(headFrames), to: runStart + Int64(length - tailFrames)))
        // The ring, oldest first: from `ringNext` to its end, then from its start.
        let first = ringNext..<tailFrames
        let second = 0..<ringNext
        fadeIn(first, second)
        var result = emitHeld(first, emit)
        guard case .done = result else { return result }
        if !second.isEmpty { result = emitHeld(second, emit) }
        return result
    }

    /// Full level down to `keptGain` over the first 5 ms of `frames`, `keptGain` after.
    private func fadeOut(_ frames: Range<Int>) {
        let fade = min(fadeFrames, frames.count)
        for (k, slot) in frames.enumerated() {
            let gain = k < fade ? 1 - (1 - Self.keptGain) * Double(k + 1) / Double(fade) : Self.keptGain
            scale(slot: slot, by: gain)
        }
    }

    /// `keptGain`, then back up to full level over the last 5 ms, across the slots of `parts` in order.
    private func fadeIn(_ parts: Range<Int>...) {
        let count = parts.reduce(0) { $0 + $1.count }
        let fade = min(fadeFrames, count)
        var k = 0
        for part in parts {
            for slot in part {
                let rising = k - (count - fade)
                let gain = rising >= 0 ? Self.keptGain + (1 - Self.keptGain) * Double(rising + 1) / Double(fade) : Self.keptGain
                scale(slot: slot, by: gain)
                k += 1
            }
        }
    }

    private func scale(slot: Int, by gain: Double) {
        guard gain != 1 else { return }
        let channels = format.channels
        let first = slot * channels
        switch format.sampleType {
        case .int16:
            let samples = hold!.assumingMemoryBound(to: Int16.self)
            for i in first..<first + channels { samples[i] = Int16(clamping: Int(lrint(Double(samples[i]) * gain))) }
        case .int32:
            let samples = hold!.assumingMemoryBound(to: Int32.self)
            for i in first..<first + channels { samples[i] = Int32(clamping: Int64(llrint(Double(samples[i]) * gain))) }
        case .float32:
            let samples = hold!.assumingMemoryBound(to: Float.self)
            for i in first..<first + channels { samples[i] *= Float(gain) }
        }
    }

    /// The largest magnitude over the channels of each of the `frames` at `base`, full scale 1.
    private func peaks(_ base: UnsafeRawPointer, frames: Int) -> UnsafeMutablePointer<Double> {
        if frames > peakCapacity {
            peakBuffer?.deallocate()
            peakBuffer = .allocate(capacity: frames)
            peakCapacity = frames
        }
        let peaks = peakBuffer!
        let channels = format.channels
        switch format.sampleType {
        case .int16: Self.peaks(base.assumingMemoryBound(to: Int16.self), frames: frames, channels: channels, into: peaks)
        case .int32: Self.peaks(base.assumingMemoryBound(to: Int32.self), frames: frames, channels: channels, into: peaks)
        case .float32: Self.peaks(base.assumingMemoryBound(to: Float.self), frames: frames, channels: channels, into: peaks)
        }
        return peaks
    }

    private static func peaks<Sample: PeakSample>(_ samples: UnsafePointer<Sample>, frames: Int, channels: Int,
                                                 into peaks: UnsafeMutablePointer<Double>) {
        if channels == 2 {
            for frame in 0..<frames {
                peaks[frame] = max(samples[2 * frame].magnitudeUnit, samples[2 * frame + 1].magnitudeUnit)
            }
            return
        }
        for frame in 0..<frames {
            var peak = 0.0
            for i in frame * channels..<(frame + 1) * channels { peak = max(peak, samples[i].magnitudeUnit) }
            peaks[frame] = peak
        }
    }
}

/// A sample's magnitude, full scale 1 (exact: the scales are powers of two).
protocol PeakSample {
    var magnitudeUnit: Double { get }
}

extension Int16: PeakSample {
    @inline(__always) var magnitudeUnit: Double { Double(abs(Int32(self))) * (1 / 32_768) }
}

extension Int32: PeakSample {
    @inline(__always) var magnitudeUnit: Double { Double(abs(Int64(self))) * (1 / 2_147_483_648) }
}

extension Float: PeakSample {
    @inline(__always) var magnitudeUnit: Double { Double(abs(self)) }
}

/// An item's noise floor, from the peaks of its 10 ms windows: the level 10 % of them stay under
/// (a histogram of 1 dB bins, so nothing is allocated or sorted). The silence threshold sits 10 dB
/// above it, but never under −40 dBFS (clean recordings: digital silence must not make speech's
/// soft ends "silent" only below −90) and never above −30 (a noisy recording must not swallow quiet
/// speech). Until a second has been measured it is −40.
struct NoiseFloor {
    let windowFrames: Int
    private var bins = [Int](repeating: 0, count: 101)
    private var windows = 0
    private var windowPeak = 0.0
    private var windowFill = 0
    private(set) var thresholdDecibels = NoiseFloor.defaultThreshold

    static let defaultThreshold = -40.0
    static let highestThreshold = -30.0
    /// Above the floor by this much, a frame is no longer silent.
    static let margin = 10.0
    /// The share of windows under the floor.
    static let quantile = 0.1

    init(sampleRate: Int) {
        windowFrames = max(1, sampleRate / 100)
    }

    mutating func reset() {
        for i in bins.indices { bins[i] = 0 }
        windows = 0
        windowPeak = 0
        windowFill = 0
        thresholdDecibels = Self.defaultThreshold
    }

    /// Takes one frame's peak; true when the threshold was recomputed (once a second).
    mutating func add(_ peak: Double) -> Bool {
        windowPeak = max(windowPeak, peak)
        windowFill += 1
        guard windowFill == windowFrames else { return false }
        defer {
            windowPeak = 0
            windowFill = 0
        }
        return add(window: windowPeak)
    }

    /// Takes the peak of a whole 10 ms window (`windowFrames`); true when the threshold was
    /// recomputed (once a second).
    mutating func add(window peak: Double) -> Bool {
        let decibels = peak > 0 ? -20 * log10(peak) : 100
        bins[min(100, max(0, Int(decibels)))] += 1
        windows += 1
        guard windows % 100 == 0 else { return false }
        // From the quietest bin up, to the one that holds the 10th percentile.
        let wanted = Int((Double(windows) * Self.quantile).rounded(.up))
        var seen = 0
        var floor = -100.0
        for bin in stride(from: 100, through: 0, by: -1) {
            seen += bins[bin]
            if seen >= wanted {
                floor = -Double(bin)
                break
            }
        }
        thresholdDecibels = min(Self.highestThreshold, max(Self.defaultThreshold, floor + Self.margin))
        return true
    }

    static func linear(_ decibels: Double) -> Double { pow(10, decibels / 20) }
}
