#if canImport(Glibc)
import Glibc
#endif

/// The one gain of a player's output: listener volume × duck (× loudness, later), as one linear
/// factor, in the sink's format, times the sleep timer's fade. Changes ramp (so nothing clicks); at
/// exactly 1, not ramping and not fading the samples pass through untouched. Feeder thread only.
final class GainStage: AudioStage {
    private let format: AudioFormat
    private let blockFrames: Int
    private let buffer: UnsafeMutableRawPointer
    /// The factor applied to the last frame, and where it is going.
    private(set) var current = 1.0
    private var target = 1.0
    private var rampFramesLeft = 0
    /// Frames handed on since the last reset: the sink frame being written, as the frame map counts.
    private(set) var outputFrame: Int64 = 0
    /// The sleep timer's fade: down to silence at sink frame `end`, straight in amplitude over `length`
    /// frames before it, silent after it. A function of the frame written, not a ramp with a state,
    /// so a seek or a pause during the fade needs nothing but a new `end`.
    struct Fade: Equatable {
        var end: Int64
        var length: Int64
    }
    var fade: Fade?

    /// The gain is recomputed every 32 frames (0.7 ms at 48 kHz) along a ramp: smooth to the ear,
    /// one `pow` per block.
    static let stepFrames = 32

    init(format: AudioFormat, blockFrames: Int) {
        self.format = format
        self.blockFrames = blockFrames
        buffer = .allocate(byteCount: blockFrames * format.bytesPerFrame, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Moves the gain to `linear` over `ramp` seconds (0: at once).
    func setTarget(_ linear: Double, ramp: Double) {
        target = max(0, linear)
        rampFramesLeft = target == current ? 0 : max(0, Int(ramp * Double(format.sampleRate)))
        if rampFramesLeft == 0 { current = target }
    }

    func process(_ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        let frameBytes = format.bytesPerFrame
        let inputFrames = Int64(input.count / frameBytes)
        let fading = fade.map { outputFrame + inputFrames > $0.end - $0.length } ?? false
        if current == 1 && rampFramesLeft == 0 && !fading {
            let result = emit(input)
            if case .done = result { outputFrame += inputFrames }
            return result
        }
        var offset = 0
        while offset < input.count {
            let frames = min(blockFrames, (input.count - offset) / frameBytes)
            apply(UnsafeRawBufferPointer(rebasing: input[offset..<offset + frames * frameBytes]), frames: frames)
            let result = emit(UnsafeRawBufferPointer(start: buffer, count: frames * frameBytes))
            guard case .done = result else { return result }
            outputFrame += Int64(frames)
            offset += frames * frameBytes
        }
        return .done
    }

    func flush(emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult { .done }

    /// The sink was flushed: frames count from 0 again, as the frame map's do.
    func reset() {
        outputFrame = 0
    }

    /// The fade's factor for frames from `frame` on (1 before the fade, 0 from its end).
    private func fadeGain(at frame: Int64) -> Double {
        guard let fade else { return 1 }
        let left = fade.end - frame
        if left >= fade.length { return 1 }
        return max(0, Double(left) / Double(max(1, fade.length)))
    }

    private func apply(_ input: UnsafeRawBufferPointer, frames: Int) {
        let channels = format.channels
        var frame = 0
        while frame < frames {
            let block = min(Self.stepFrames, frames - frame)
            let gain = nextGain(frames: block) * fadeGain(at: outputFrame + Int64(frame))
            let first = frame * channels
            let last = (frame + block) * channels
            switch format.sampleType {
            case .int16:
                let source = input.baseAddress!.assumingMemoryBound(to: Int16.self)
                let out = buffer.assumingMemoryBound(to: Int16.self)
                for i in first..<last {
                    out[i] = Int16(clamping: Int(lrint(Double(source[i]) * gain)))
                }
            case .int32:
                let source = input.baseAddress!.assumingMemoryBound(to: Int32.self)
                let out = buffer.assumingMemoryBound(to: Int32.self)
                for i in first..<last {
                    out[i] = Int32(clamping: Int64(llrint(Double(source[i]) * gain)))
                }
            case .float32:
                let source = input.baseAddress!.assumingMemoryBound(to: Float.self)
                let out = buffer.assumingMemoryBound(to: Float.self)
                let factor = Float(gain)
                for i in first..<last { out[i] = source[i] * factor }
            }
            frame += block
        }
    }

    /// The gain for the next `frames` frames, stepping along the ramp: even steps in decibels
    /// between audible levels (a duck sounds smooth), straight lines to and from silence.
    private func nextGain(frames: Int) -> Double {
        guard rampFramesLeft > 0 else { return current }
        let step = min(frames, rampFramesLeft)
        let fraction = Double(step) / Double(rampFramesLeft)
        if current > 0.001 && target > 0.001 {
            current *= pow(target / current, fraction)
        } else {
            current += (target - current) * fraction
        }
        rampFramesLeft -= step
        if rampFramesLeft == 0 { current = target }
        return current
    }
}
