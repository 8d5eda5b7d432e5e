#if canImport(Glibc)
import Glibc
#endif

/// Plays decoded audio faster or slower at the same pitch, between the decoder and the sink, in the
/// sink's own sample format. Bypassed entirely at 1×, so normal speed stays bit for bit.
///
/// The stretcher works in floats: samples are carried to ±1 and back (speed-changed audio is new
/// audio; only the stretches it copies unchanged keep their bits, and they do). Buffers are
/// allocated once, for `maxFrames` frames in; output is read out in blocks of the same size.
/// Feeder thread only.
final class SpeedChanger {
    /// The speeds a listener can choose: podcast apps offer about this much.
    static let range = 0.5...3.0

    private let format: AudioFormat
    private let stretcher: PitchStretcher
    private let maxFrames: Int
    /// One block of samples as floats, in and out.
    private let floats: UnsafeMutablePointer<Float>
    /// One block of output in the sink's format.
    private let output: UnsafeMutableRawPointer

    /// Nil when `speed` is out of `range`.
    init?(format: AudioFormat, maxFrames: Int, speed: Double) {
        guard Self.range.contains(speed) else { return nil }
        self.format = format
        self.maxFrames = maxFrames
        stretcher = PitchStretcher(sampleRate: format.sampleRate, channels: format.channels, speed: speed, maxWrite: maxFrames)
        let samples = maxFrames * format.channels
        floats = .allocate(capacity: samples)
        output = .allocate(byteCount: samples * format.sampleType.bytes, alignment: 16)
    }

    deinit {
        floats.deallocate()
        output.deallocate()
    }

    var speed: Double { stretcher.speed }

    /// Drops what is held and plays on at `speed` (a seek, or a new speed); false when `speed` is
    /// out of `range`.
    func reset(speed: Double) -> Bool {
        guard Self.range.contains(speed) else { return false }
        stretcher.reset(speed: speed)
        return true
    }

    /// Feeds `input` (whole frames, at most `maxFrames`) and hands each ready block of output to
    /// `emit`; stops early, returning `emit`'s result, when that is not `.done`.
    func process(_ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        let frames = input.count / format.bytesPerFrame
        precondition(frames <= maxFrames, "SpeedChanger.process: \(frames) frames, more than the \(maxFrames) it was made for")
        guard frames > 0, let base = input.baseAddress else { return .done }
        let count = frames * format.channels
        switch format.sampleType {
        case .int16:
            let samples = base.assumingMemoryBound(to: Int16.self)
            for i in 0..<count { floats[i] = Float(samples[i]) * (1 / 32_768) }
            stretcher.write(floats, frames: frames)
        case .int32:
            let samples = base.assumingMemoryBound(to: Int32.self)
            for i in 0..<count { floats[i] = Float(samples[i]) * (1 / Self.int32Scale) }
            stretcher.write(floats, frames: frames)
        case .float32:
            stretcher.write(base.assumingMemoryBound(to: Float.self), frames: frames)
        }
        return drain(emit)
    }

    /// The end of the stream: hands out everything still held.
    func finish(emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        stretcher.flush()
        return drain(emit)
    }

    private func drain(_ emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        while stretcher.available > 0 {
            let block: UnsafeRawBufferPointer
            switch format.sampleType {
            case .int16:
                let frames = stretcher.read(into: floats, maxFrames: maxFrames)
                let samples = output.assumingMemoryBound(to: Int16.self)
                for i in 0..<frames * format.channels {
                    samples[i] = Int16(max(-32_768, min(32_767, (floats[i] * 32_768).rounded())))
                }
                block = UnsafeRawBufferPointer(start: output, count: frames * format.bytesPerFrame)
            case .int32:
                let frames = stretcher.read(into: floats, maxFrames: maxFrames)
                let samples = output.assumingMemoryBound(to: Int32.self)
                for i in 0..<frames * format.channels {
                    // Clamped: an overlap of two loud periods can reach just past full scale, and
                    // a Float's 24 bits make full scale's neighbour 2^31 − 128.
                    samples[i] = Int32(max(-Self.int32Scale, min(Self.int32Scale - 128, floats[i] * Self.int32Scale)))
                }
                block = UnsafeRawBufferPointer(start: output, count: frames * format.bytesPerFrame)
            case .float32:
                let frames = stretcher.read(into: output.assumingMemoryBound(to: Float.self), maxFrames: maxFrames)
                block = UnsafeRawBufferPointer(start: output, count: frames * format.bytesPerFrame)
            }
            let result = emit(block)
            guard case .done = result else { return result }
        }
        return .done
    }

    /// 2^31: full scale of a 32-bit sample.
    private static let int32Scale: Float = 2_147_483_648
}
