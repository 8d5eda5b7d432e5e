internal import CSonic

/// A libsonic stream: changes the speed of audio without changing its pitch (pitch-synchronous
/// overlap-add, made for speech). Interleaved samples in and out; counts are frames. One thread
/// at a time (the feeder's).
final class SonicStream {
    private var stream: OpaquePointer
    private let sampleRate: Int32
    private let channels: Int32

    /// Nil only when memory runs out. Wraps `sonicCreateStream`.
    init?(sampleRate: Int, channels: Int, speed: Double) {
        self.sampleRate = Int32(sampleRate)
        self.channels = Int32(channels)
        guard let made = sonicCreateStream(self.sampleRate, self.channels) else { return nil }
        stream = made
        sonicSetSpeed(stream, Float(speed))
    }

    deinit { sonicDestroyStream(stream) }

    /// Wraps `sonicGetSpeed` and `sonicSetSpeed`.
    var speed: Double {
        get { Double(sonicGetSpeed(stream)) }
        set { sonicSetSpeed(stream, Float(newValue)) }
    }

    /// False when libsonic could not grow its buffer. Wraps `sonicWriteShortToStream`.
    func write(_ samples: UnsafeMutablePointer<Int16>, frames: Int) -> Bool {
        sonicWriteShortToStream(stream, samples, Int32(frames)) != 0
    }

    /// Samples within ±1. Wraps `sonicWriteFloatToStream`.
    func write(_ samples: UnsafeMutablePointer<Float>, frames: Int) -> Bool {
        sonicWriteFloatToStream(stream, samples, Int32(frames)) != 0
    }

    /// Frames read, 0 when none are ready (not an error). Wraps `sonicReadShortFromStream`.
    func read(into samples: UnsafeMutablePointer<Int16>, maxFrames: Int) -> Int {
        Int(sonicReadShortFromStream(stream, samples, Int32(maxFrames)))
    }

    /// Wraps `sonicReadFloatFromStream`.
    func read(into samples: UnsafeMutablePointer<Float>, maxFrames: Int) -> Int {
        Int(sonicReadFloatFromStream(stream, samples, Int32(maxFrames)))
    }

    /// Makes what the stream holds available to read, with no more delay (the end of a stream).
    /// Wraps `sonicFlushStream`.
    func flush() {
        sonicFlushStream(stream)
    }

    /// Drops everything the stream holds (a seek): libsonic has no call for that, so a new stream
    /// with the same settings takes the old one's place. False when memory runs out (the old
    /// stream stays). Wraps `sonicCreateStream` and `sonicDestroyStream`.
    func reset() -> Bool {
        guard let made = sonicCreateStream(sampleRate, channels) else { return false }
        sonicSetSpeed(made, sonicGetSpeed(stream))
        sonicDestroyStream(stream)
        stream = made
        return true
    }
}
