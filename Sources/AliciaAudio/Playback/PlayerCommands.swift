extension PlayerCore {
    /// What the feeder is asked to do next.
    enum Request: Equatable {
        /// Play `entry` from `start` (a jump to another entry, or a seek within this one).
        case play(QueueEntryID, Start)
        /// Stop: flush, close the entry and the stream, go idle.
        case stop
        /// The player is going away (`shutdown`): stop and end the thread. Every wait answers it
        /// from then on, so whatever the feeder is doing unwinds to its loop.
        case quit
    }

    enum Start: Equatable {
        /// The item's own start (`QueueItem.start`, else its beginning).
        case itemStart
        case position(StartPosition)
        case frame(Int64)
        /// Where the listener is when the feeder takes it: the device is stopped first and its exact
        /// frame read back (a speed change: nothing heard twice, nothing skipped).
        case heard
    }
}

/// What the front side asks of the feeder, as MPD's `PlayerControl` holds the main thread's
/// commands for its player thread: the request, the queue, and the settings the feeder reads as it
/// goes (pause, hold, gain, speed, skip silence, loudness, the sleep timer, cues).
///
/// Who may touch it: `Player` writes it, through `PlayerCore.command` (under the core's lock, which
/// wakes the feeder when a request was asked). The feeder reads it and writes back only what a
/// command does by itself, each in one place: it takes the request (`CoreState.takeRequest`), the
/// queue's current entry follows the one heard and a consuming queue drops what has been played
/// (`CoreState.hear`, `CoreState.consume`), and the sleep timer counts down (`SleepTimerClock`:
/// rebased at each new segment, an `end` counted at each join, and at its end off, the player
/// paused).
struct PlayerCommands {
    var queue = PlayQueue()
    /// The request not yet taken; a newer one replaces it.
    private(set) var request: PlayerCore.Request?
    /// Requests asked so far, and queues replaced: `PlayerCore.command` acts on a change.
    private(set) var asked = 0
    private(set) var queuesReplaced = 0
    /// `shutdown` was called: every wait of the feeder answers `.quit`.
    var shutdown = false
    var paused = false
    var held = false
    /// The listener's linear gain and the focus duck, with the ramp of the last change; the feeder
    /// applies them when `gainChanges` has moved past what it last applied.
    private(set) var volume = 1.0
    private(set) var duck = 1.0
    private(set) var gainRamp = 0.0
    private(set) var gainChanges = 0
    var speed = 1.0
    var silenceSkipping: SilenceSkipping = .off
    var loudness: LoudnessMatching = .off
    var sleep = SleepTimerClock.Countdown()
    /// Positions to post `.cueReached` at; `cueChanges` tells the feeder to arm them all again.
    private(set) var cues: [PositionCue] = []
    private(set) var cueChanges = 0

    /// The feeder has something to take: a request, or the end.
    var hasRequest: Bool { request != nil || shutdown }

    /// Asks the feeder to do `request` next.
    mutating func ask(_ request: PlayerCore.Request) {
        self.request = request
        asked += 1
    }

    /// Takes the waiting request (the feeder's; see `CoreState.takeRequest`).
    mutating func take() -> PlayerCore.Request? {
        defer { request = nil }
        return request
    }

    /// A new queue of `items`; their ids.
    mutating func replaceQueue(with items: [QueueItem]) -> [QueueEntryID] {
        queue.clear(keeping: items)
        queuesReplaced += 1
        return items.map { queue.append($0) }
    }

    mutating func setVolume(_ linear: Double, ramp: Double) {
        volume = max(0, linear)
        gainRamp = ramp
        gainChanges += 1
    }

    mutating func setDuck(_ linear: Double, ramp: Double) {
        duck = linear
        gainRamp = ramp
        gainChanges += 1
    }

    /// The gain the stages apply: volume × duck.
    var gain: Double { volume * duck }

    mutating func setCues(_ cues: [PositionCue]) {
        self.cues = cues
        cueChanges += 1
    }
}
