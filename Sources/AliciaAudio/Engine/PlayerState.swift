/// Where a player is in its life.
public enum PlayerState: String, Sendable, Equatable {
    case idle, loading, buffering, playing, paused, ended, failed
}

/// Where to begin: a time, or a fraction of the duration (`50%`).
public enum StartPosition: Sendable, Equatable {
    case seconds(Double)
    case fraction(Double)
}

/// What a user interface shows, read at any time.
public struct PlayerSnapshot: Sendable, Equatable {
    public var state: PlayerState = .idle
    /// Seconds of audio the device has played (from the server's timing info).
    public var position: Double = 0
    public var positionFrames: Int64 = 0
    public var duration: Double?
    /// Seconds decoded or fetched ahead of what is playing.
    public var bufferedAhead: Double = 0
    public var format: AudioFormat?
    public var error: PlaybackError?
    /// The stream ended before its header said it would.
    public var truncated = false
    public var fetch = FetchStatistics()
    /// Held while another player has the focus (a voice note plays).
    public var isHeld = false
    /// Linear gain (1 = as decoded).
    public var volume = 1.0
    /// The speed playback runs at (1 = as recorded; the pitch stays).
    public var speed = 1.0

    public init() {}
}

/// What a player tells its user interface.
public enum PlayerEvent: Sendable, Equatable {
    case stateChanged(PlayerState)
    case formatKnown(AudioFormat)
    case seeked(toFrame: Int64)
    /// Playback reached the end (`truncated`: of what was there).
    case ended(truncated: Bool)
    case failed(PlaybackError)
}

/// How a player fetches and plays.
public struct PlayerConfiguration: Sendable, Equatable {
    /// The PulseAudio sink to play to; nil for the default.
    public var device: String?
    /// Read-ahead in seconds of audio, capped by `readAheadMaximumBytes`.
    public var readAheadSeconds: Double = 10
    public var readAheadMaximumBytes = 4 * 1024 * 1024
    /// `media.name` of the stream, shown by mixers.
    public var mediaName = "Alicia"
    /// `media.role` of the stream.
    public var role = "music"

    public init(device: String? = nil) {
        self.device = device
    }
}
