/// Where a player is in its life.
public enum PlayerState: String, Sendable, Equatable {
    /// `buffering`: waiting for the network to catch up (at the start, after a seek, after the
    /// reader ran dry); `reconnecting`: the same while the server cannot be reached; `voicing`: a
    /// synthesis voiced as it plays has played all its chunks so far and waits for the next.
    case idle, loading, buffering, reconnecting, voicing, playing, paused, ended, failed
}

/// Where to begin: a time, or a fraction of the duration (`50%`).
public enum StartPosition: Sendable, Equatable {
    case seconds(Double)
    case fraction(Double)
}

/// What a user interface shows, read at any time. Position, duration and format are those of the
/// entry heard now (which is not the one being decoded in the last moments before a join).
public struct PlayerSnapshot: Sendable, Equatable {
    public var state: PlayerState = .idle
    /// The queue entry heard now.
    public var entry: QueueEntryID?
    public var item: QueueItem?
    /// What plays after it, if anything.
    public var next: QueueItem?
    /// Seconds of the entry the device has played (from the server's timing info and the frame map).
    public var position: Double = 0
    public var positionFrames: Int64 = 0
    /// What the entry heard is about (tags, chapters, transcript), beside its format.
    public var metadata = ItemMetadata()
    /// Where a seek asked for in the entry heard and not yet begun lands (seconds), read with the
    /// rest of the snapshot: a position shown right after a seek is the seek's, never its origin.
    public var seekTarget: Double?
    /// The entry a jump or a seek asked for and not yet begun is about (nil: none is pending).
    public var pendingEntry: QueueEntryID?
    public var duration: Double?
    /// Seconds decoded or fetched ahead of what is playing.
    public var bufferedAhead: Double = 0
    /// While playback waits for the network to catch up (`buffering`, `reconnecting`): the share
    /// (0…1) of the refill buffered so far.
    public var refill: Double?
    /// While the server cannot be reached: seconds since it stopped answering.
    public var reconnectingFor: Double?
    /// The sound server went away: the one being tried again (nil while it answers).
    public var noSoundServer: String?
    public var format: AudioFormat?
    /// The last error, if the entry failed.
    public var error: PlaybackError?
    /// The entry ended before its header said it would.
    public var truncated = false
    public var fetch = FetchStatistics()
    /// Held while another player has the focus (a voice note plays).
    public var isHeld = false
    /// The listener's linear gain (1 = as decoded); a duck does not change it.
    public var volume = 1.0
    /// The speed playback runs at (1 = as recorded; the pitch stays).
    public var speed = 1.0
    public var queueCount = 0
    /// How pauses are shortened, and the seconds that saved the listener: in the entry heard now
    /// and since the player started (counted as the listener passes each cut).
    public var silenceSkipping: SilenceSkipping = .off
    public var silenceSaved = 0.0
    public var silenceSavedTotal = 0.0
    /// The sleep timer, with the seconds of playing it has left.
    public var sleepTimer: SleepTimer = .off
    /// Matched loudness, the gain (dB) it applies to the entry being written (the one heard, but
    /// for the last half second before a join), and the deepest reduction the true-peak limiter has
    /// made (dB, 0 or less).
    public var loudness: LoudnessMatching = .off
    public var loudnessGain = 0.0
    public var limiterReduction = 0.0
    /// Index of the entry heard now in the queue.
    public var queueIndex: Int?

    public init() {}
}

/// How a player fetches and plays.
public struct PlayerConfiguration: Sendable, Equatable {
    /// The PulseAudio sink to play to; nil for the default.
    public var device: String?
    /// Read-ahead in seconds of audio, capped by `readAheadMaximumBytes`.
    public var readAheadSeconds: Double = 10
    public var readAheadMaximumBytes = 4 * 1024 * 1024
    /// `media.name` of the stream before an item names it, shown by mixers.
    public var mediaName = "Alicia"
    /// `media.role` of the stream.
    public var role = "music"
    /// Retries, patience and trust on the network.
    public var network = NetworkPolicy()
    /// Matched loudness measures every item whole before it plays (voice notes: too short for a
    /// running estimate to settle), not only local files.
    public var measureLoudnessFirst = false
    /// Seconds up to which a local file is measured whole before its first frame (a fraction of a
    /// second for two minutes of audio); a longer one starts at once on the running estimate, as an
    /// episode over HTTP does, and its whole measure, made meanwhile, is kept for its next play.
    /// Decided by the file's length, never by how soon a measure is done, so what is played does not
    /// depend on the machine's speed. Nil: every local file is measured first (a render, which
    /// nobody hears as it goes).
    public var wholeMeasureLimit: Double? = 120

    public init(device: String? = nil) {
        self.device = device
    }
}

/// A position of an entry at which the player posts `.cueReached(id)` once, when it is heard.
public struct PositionCue: Sendable, Equatable {
    public var id: Int
    public var entry: QueueEntryID
    public var at: StartPosition

    public init(id: Int, entry: QueueEntryID, at: StartPosition) {
        self.id = id
        self.entry = entry
        self.at = at
    }
}
