/// Plays decoded audio faster or slower at the same pitch, between the decoder and the sink, in the
/// sink's own sample format. Bypassed entirely at 1×, so normal speed stays bit for bit.
///
/// libsonic takes 16-bit or float samples: 16-bit sources go through as they are, float sources
/// too, and 24/32-bit integer sources are carried as floats and converted back (speed-changed
/// audio is new audio; its last bits cannot be the source's anyway). Buffers are allocated once,
/// for `maxFrames` frames in; output is read out in blocks of the same size. Feeder thread only.
final class SpeedChanger {
    /// The speeds a listener can choose: podcast apps offer about this much.
    static let range = 0.5...3.0

    private let format: AudioFormat
    private let sonic: SonicStream
    private let maxFrames: Int
    /// Int32 sources: the samples as floats, in and out.
    private let floats: UnsafeMutablePointer<Float>?
    /// One block of output in the sink's format.
    private let output: UnsafeMutableRawPointer

    /// Nil only when memory runs out.
    init?(format: AudioFormat, maxFrames: Int, speed: Double) {
        guard let sonic = SonicStream(sampleRate: format.sampleRate, channels: format.channels, speed: speed) else {
            return nil
        }
        self.format = format
        self.sonic = sonic
        self.maxFrames = maxFrames
        let samples = maxFrames * format.channels
        floats = format.sampleType == .int32 ? .allocate(capacity: samples) : nil
        output = .allocate(byteCount: samples * format.sampleType.bytes, alignment: 16)
    }

    deinit {
        floats?.deallocate()
        output.deallocate()
    }

    var speed: Double { sonic.speed }

    /// Drops what is held and plays on at `speed` (a seek, or a new speed).
    func reset(speed: Double) -> Bool {
        guard sonic.reset() else { return false }
        sonic.speed = speed
        return true
    }

    /// Feeds `input` (whole frames, at most `maxFrames`) and hands each ready block of output to
    /// `emit`; stops early, returning `emit`'s result, when that is not `.done`.
    func process(_ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        let frames = input.count / format.bytesPerFrame
        precondition(frames <= maxFrames, "SpeedChanger.process: \(frames) frames, more than the \(maxFrames) it was made for")
        guard frames > 0 else { return .done }
        let written: Bool
        switch format.sampleType {
        case .int16:
            written = sonic.write(UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Int16.self)), frames: frames)
        case .float32:
            written = sonic.write(UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Float.self)), frames: frames)
        case .int32:
            let samples = input.baseAddress!.assumingMemoryBound(to: Int32.self)
            for i in 0..<frames * format.channels { floats![i] = Float(samples[i]) / Self.int32Scale }
            written = sonic.write(floats!, frames: frames)
        }
        guard written else { return .failed(.audioOutput(reason: "out of memory changing the speed")) }
        return drain(emit)
    }

    /// The end of the stream: hands out everything still held.
    func finish(emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        sonic.flush()
        return drain(emit)
    }

    private func drain(_ emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        while true {
            let frames: Int
            switch format.sampleType {
            case .int16:
                frames = sonic.read(into: output.assumingMemoryBound(to: Int16.self), maxFrames: maxFrames)
            case .float32:
                frames = sonic.read(into: output.assumingMemoryBound(to: Float.self), maxFrames: maxFrames)
            case .int32:
                frames = sonic.read(into: floats!, maxFrames: maxFrames)
                let samples = output.assumingMemoryBound(to: Int32.self)
                for i in 0..<frames * format.channels {
                    // Clamped: libsonic's overlap-add can reach just past full scale.
                    samples[i] = Int32(max(-Self.int32Scale, min(Self.int32Scale - 128, floats![i] * Self.int32Scale)))
                }
            }
            guard frames > 0 else { return .done }
            let result = emit(UnsafeRawBufferPointer(start: output, count: frames * format.bytesPerFrame))
            guard case .done = result else { return result }
        }
    }

    /// 2^31: full scale of a 32-bit sample.
    private static let int32Scale: Float = 2_147_483_648
}
