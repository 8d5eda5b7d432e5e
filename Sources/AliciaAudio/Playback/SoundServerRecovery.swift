import AliciaLocks
/// Waiting for a sound server that went away: a player that has had a sink holds the frame it
/// was at and tries again, 0.1 s doubling to 1 s (so a server that is back is found within about
/// a second), while it still answers commands; one that never reached a server fails at once.
/// The feeder calls it when a sink opens (`answered`), when opening one fails (`waits(for:)`, then
/// `waitStep`), and when a playing stream fails (`lost(at:)`). Feeder thread only.
final class SoundServerRecovery {
    private let shared: ConditionLock<CoreState>
    private let hub: EventHub
    /// The server tried, as a person would name it (from the output device).
    private let serverName: String
    /// A sink has been open once: a server that goes away later is waited for, not a failure.
    private var hadServer = false
    private var attempts = 0

    init(shared: ConditionLock<CoreState>, hub: EventHub, serverName: String) {
        self.shared = shared
        self.hub = hub
        self.serverName = serverName
    }

    /// The output failed with `error`: whether that is a server gone away, to be waited for.
    func waits(for error: PlaybackError) -> Bool {
        if case .noAudioServer = error, hadServer { return true }
        return false
    }

    /// Opening a sink failed while the server is away: holds `frame` of `entry` as the place and
    /// waits a step of the backoff, unless a request comes first (returned).
    func waitStep(_ entry: QueueEntryID, frame: Int64, error: PlaybackError) -> PlayerCore.Request? {
        let (attempt, first) = shared.update { s -> (Int, Bool) in
            let first = s.status.soundServerLost == nil
            if first {
                s.status.soundServerLost = serverName
                attempts = 0
            }
            if s.status.state == .playing { s.status.state = .buffering }
            if s.status.heard == entry, let format = s.status.opened?.format ?? s.status.map.spans.first?.format {
                s.status.resting = PlayerStatus.Resting(entry: entry, frame: frame, format: format)
            }
            return (attempts, first)
        }
        if first {
            Log.info(.output, "\(error.message); trying \(serverName) again")
            hub.post(PlayerEvent(entry: entry, kind: .stateChanged(.buffering)))
        }
        attempts = attempt + 1
        return shared.awaitRequest(timeout: .milliseconds(min(1000, 100 << min(attempt, 4))))
    }

    /// A sink opened: the server answers (again).
    func answered() {
        hadServer = true
        let was = shared.update { s -> String? in
            defer { s.status.soundServerLost = nil }
            return s.status.soundServerLost
        }
        if was != nil { Log.info(.output, "the sound server is back: playing on") }
    }

    /// A playing stream failed because the server went away: playback rests at `place` (posted
    /// as buffering) until a sink opens again there.
    func lost(at place: PlayerStatus.Resting) {
        shared.update { s in
            s.status.soundServerLost = serverName
            s.status.resting = place
            if s.status.state == .playing { s.status.state = .buffering }
        }
        hub.post(PlayerEvent(entry: place.entry, kind: .stateChanged(.buffering)))
    }
}
