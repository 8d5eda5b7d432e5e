/// How decoded samples are laid out: interleaved, native-endian.
public enum SampleType: Sendable, Equatable {
    /// 16-bit PCM sources, passed through bit for bit.
    case int16
    /// 24- and 32-bit PCM sources (24-bit left-justified), bit for bit.
    case int32
    /// Everything else (float WAV, FLAC > 16-bit, MP3, Ogg), normalised to ±1.
    case float32

    public var bytes: Int {
        switch self {
        case .int16: return 2
        case .int32, .float32: return 4
        }
    }
}

/// What a decoder produces.
public struct AudioFormat: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    public var sampleType: SampleType
    /// Frames in the stream, when the container says.
    public var frames: Int64?
    /// The decoder's name of the container and encoding, e.g. "WAV (Microsoft) · Signed 16 bit PCM",
    /// "MPEG-1 Layer III · 128 kb/s".
    public var description: String
    /// A live stream (internet radio): no length, no seeking, no place to keep.
    public var isLive = false
    /// `frames` is an estimate (a VBR MP3 without an info frame): shown, and used to seek, but the
    /// item ends where its audio does, neither cut there nor truncated short of it.
    public var framesEstimated = false

    public init(sampleRate: Int, channels: Int, sampleType: SampleType, frames: Int64?, description: String = "") {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleType = sampleType
        self.frames = frames
        self.description = description
    }

    public var bytesPerFrame: Int { channels * sampleType.bytes }

    /// Length in seconds, when known.
    public var duration: Double? { frames.map { Double($0) / Double(sampleRate) } }
}
