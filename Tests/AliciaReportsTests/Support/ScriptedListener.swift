import AliciaAudio
import AliciaBackend
import AliciaReports
import AliciaSession

/// A listener scripted turn by turn against a `ListeningReporter`, on a clock of its own: the
/// episode player's snapshot as the host would read it after each turn, the notices of the turn,
/// and the truth the events must add up to (`heard`: how far the position moved while it played).
///
/// Turns come as the host gives them: each second while playing (the reporter's deadline), right
/// after a key (a seek or a pause asked mid-second), and when the player's state changes.
final class ScriptedListener {
    let reporter = ListeningReporter(wallClock: { 1_790_000_000 })
    private(set) var now = 1000.0
    private(set) var snapshot = PlayerSnapshot()
    /// Every event the reporter made, in order.
    private(set) var events: [EpisodeDayEvent] = []
    /// Seconds of the episodes heard, as the position moved while playing.
    private(set) var heard = 0.0
    private var nextEntry: UInt64 = 1

    /// An item as the backend's library makes one: a label makes it one of Alicia's episodes.
    static func episode(_ label: String?, title: String = "An episode") -> QueueItem {
        let location: MediaLocation
        do {
            location = try MediaLocation("http://127.0.0.1:9/api/audio/\(label ?? "file").wav")
        } catch {
            preconditionFailure("ScriptedListener.episode: a fixed URL does not parse: \(error)")
        }
        return QueueItem(location: location, title: title, label: label)
    }

    /// `item` becomes the entry heard, loading from `position`, then playing (`.started` notice).
    @discardableResult
    func start(_ item: QueueItem, at position: Double = 0, duration: Double, speed: Double = 1) -> QueueEntryID {
        let entry = QueueEntryID(rawValue: nextEntry)
        nextEntry += 1
        snapshot.entry = entry
        snapshot.item = item
        snapshot.position = position
        snapshot.duration = duration
        snapshot.speed = speed
        snapshot.state = .loading
        snapshot.seekTarget = nil
        snapshot.pendingEntry = nil
        turn(after: 0.2, notices: [.started(entry, item)])
        snapshot.state = .playing
        turn(after: 0.1)
        return entry
    }

    /// Plays `seconds` of wall time, a turn every `tick` seconds; the position moves by speed × time.
    func play(for seconds: Double, tick: Double = ListeningReporter.tickInterval) {
        var left = seconds
        while left > 1e-9 {
            let step = min(tick, left)
            advance(step)
            turn(after: 0)
            left -= step
        }
    }

    /// The position moves `seconds` × speed and the clock `seconds`, with no turn (heard).
    func advance(_ seconds: Double) {
        let moved = min(seconds * snapshot.speed, max(0, (snapshot.duration ?? .infinity) - snapshot.position))
        snapshot.position += moved
        heard += moved
        now += seconds
    }

    /// A seek asked `after` seconds of playing past the last turn: pending at the turn right after
    /// the key, then landed (buffering at the target), then playing again.
    func seek(to target: Double, after: Double = 0.4) {
        advance(after)
        snapshot.seekTarget = target
        turn(after: 0)
        snapshot.seekTarget = nil
        snapshot.position = target
        snapshot.state = .buffering
        turn(after: 0.3)
        snapshot.state = .playing
        turn(after: 0.2)
    }

    /// A pause `after` seconds of playing past the last turn, for `seconds`, then playing again.
    func pause(for seconds: Double, after: Double = 0.6) {
        advance(after)
        snapshot.state = .paused
        turn(after: 0)
        snapshot.state = .playing
        turn(after: seconds)
    }

    /// Plays to the end of the item and gives the `.finished` notice (the queue ends there).
    func playToEnd(truncated: Bool = false) {
        let remaining = ((snapshot.duration ?? 0) - snapshot.position) / snapshot.speed
        play(for: max(0, remaining - 0.5))
        advance(0.5)
        guard let entry = snapshot.entry else { return }
        snapshot.state = .ended
        turn(after: 0, notices: [.finished(entry, snapshot.item, truncated: truncated)])
    }

    /// The speed from now on.
    func setSpeed(_ speed: Double) {
        snapshot.speed = speed
    }

    /// The host stalled: `count` turns `gap` seconds apart, the position moving as if it played
    /// (what was heard, if anything, the rules do not count).
    func stall(turns count: Int, gap: Double) {
        for _ in 0..<count {
            advance(gap)
            turn(after: 0)
        }
    }

    /// Skips to `item` `after` seconds of playing past the last turn: the jump pending at the turn
    /// after the key, then the new entry heard.
    func skip(to item: QueueItem, after: Double = 0.3, duration: Double) {
        advance(after)
        snapshot.pendingEntry = QueueEntryID(rawValue: nextEntry)
        turn(after: 0)
        start(item, duration: duration, speed: snapshot.speed)
    }

    /// One turn of the host, `after` seconds past the last (the clock only: the position is moved
    /// by `advance`).
    func turn(after seconds: Double, notices: [SessionNotice] = []) {
        now += seconds
        events += reporter.update(notices, snapshot, at: now)
    }

    /// Changes the snapshot without a turn (a test's own arrangement).
    func arrange(_ change: (inout PlayerSnapshot) -> Void) {
        change(&snapshot)
    }

    /// The session closes (its players held).
    func close() {
        snapshot.isHeld = true
        events += reporter.close(snapshot, at: now)
    }

    /// The events' `played_ms`, added up (seconds).
    var reportedSeconds: Double { Double(events.map(\.playedMS).reduce(0, +)) / 1000 }

    var actions: [EpisodeDayEvent.Action] { events.map(\.action) }
}
