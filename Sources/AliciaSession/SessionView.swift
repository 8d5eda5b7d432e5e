import AliciaAudio
import AliciaLocks

/// What a listening session is doing, read from any thread: the players are thread-safe, and the
/// session's own levels (volume, mute) sit behind a lock. Read-only: front ends change nothing
/// through it (`ListeningSession.perform(_:)` does). The control thread and MPRIS read through it
/// without going through the session's thread, so a status bar's `time-pos` never waits on it.
public struct SessionView: Sendable {
    let player: Player
    let voiceNotes: VoiceNotes?
    let levelLock: Locked<ListenerLevels>

    public func snapshot() -> PlayerSnapshot { player.snapshot() }
    public var queue: PlayQueue { player.queue }
    /// A new reader of the episode player's events (each reader sees every event).
    public func subscribe() -> PlayerSubscription { player.subscribe() }

    /// Whether there is a voice-note player at all.
    public var hasVoiceNotes: Bool { voiceNotes != nil }
    /// The voice note playing now, if any, and how many wait.
    public var voice: (title: String?, waiting: Int) { voiceNotes?.nowPlaying ?? (nil, 0) }
    public var voiceIsIdle: Bool { voiceNotes?.isIdle ?? true }
    public func voiceSnapshot() -> PlayerSnapshot? { voiceNotes?.player.snapshot() }
    public var voiceQueue: PlayQueue? { voiceNotes?.player.queue }
    /// A new reader of the voice-note player's events.
    public func subscribeVoice() -> PlayerSubscription? { voiceNotes?.player.subscribe() }

    /// The listener's levels: volume (percent of the mixer's scale), mute, shuffle.
    public var levels: ListenerLevels { levelLock.withLock { $0 } }
}

/// The listener's own settings that are not a player's: one volume for both players (muting sets
/// their gain to 0 and keeps this), whether the queue was shuffled, the last voice note.
public struct ListenerLevels: Sendable, Equatable {
    public var volumePercent = 100.0
    public var muted = false
    public var shuffled = false
    /// The last voice note that played or was queued, for `replayVoiceNote`.
    public var lastVoiceNote: QueueItem?
    /// The sleep preset last chosen by `sleep(.cycle)` (an index of `SleepTimer.cycle`).
    public var sleepPreset = 0

    public init() {}
}
