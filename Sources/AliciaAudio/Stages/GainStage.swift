#if canImport(Glibc)
import Glibc
#endif

/// The one gain of a player's output: listener volume × duck (× loudness, later), as one linear
/// factor, in the sink's format. Changes ramp (so nothing clicks); at exactly 1 and not ramping the
/// samples pass through untouched. Feeder thread only.
final class GainStage: AudioStage {
    private let format: AudioFormat
    private let blockFrames: Int
    private let buffer: UnsafeMutableRawPointer
    /// The factor applied to the last frame, and where it is going.
    private(set) var current = 1.0
    private var target = 1.0
    private var rampFramesLeft = 0

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
        if current == 1 && rampFramesLeft == 0 { return emit(input) }
        let frameBytes = format.bytesPerFrame
        var offset = 0
        while offset < input.count {
            let frames = min(blockFrames, (input.count - offset) / frameBytes)
            apply(UnsafeRawBufferPointer(rebasing: input[offset..<offset + frames * frameBytes]), frames: frames)
            let result = emit(UnsafeRawBufferPointer(start: buffer, count: frames * frameBytes))
            guard case .done = result else { return result }
            offset += frames * frameBytes
        }
        return .done
    }

    func flush(emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult { .done }

    func reset() {}

    private func apply(_ input: UnsafeRawBufferPointer, frames: Int) {
        let channels = format.channels
        var frame = 0
        while frame < frames {
            let block = min(Self.stepFrames, frames - frame)
            let gain = nextGain(frames: block)
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
