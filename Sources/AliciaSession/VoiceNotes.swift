#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaLocks

/// What an episode does while a voice note plays.
public enum VoiceFocus: Sendable, Equatable {
    /// The episode is held at its exact frame and resumes there afterwards.
    case pause
    /// The episode plays on, this many decibels lower (negative), with smooth ramps.
    case duck(decibels: Double)
    /// Both play at full level.
    case mix
}

/// What the voice-note player tells its user interface.
public enum VoiceEvent: Sendable, Equatable {
    /// A note began; `heldAtFrame` is the episode's exact frame when the focus policy is `pause`.
    case started(title: String, heldAtFrame: Int64?)
    case finished(title: String)
    case failed(title: String, error: PlaybackError)
    /// No more notes: the episode has its focus back.
    case focusReleased
}

/// The second, independent player: voice notes (chat replies, Alicia's notes) play on a player of
/// their own, from a queue of their own (joined gaplessly, each removed once heard), while the
/// episode's player keeps its position (held, ducked, or mixed, by `VoiceFocus`). Either player can
/// start, stop, seek or fail without touching the other's state.
///
/// A coordinator thread takes the focus before the first note plays, follows the note player's
/// events, and gives the focus back when its queue has ended. The thread keeps the object alive:
/// call `stop()` when done with it.
public final class VoiceNotes: Sendable {
    private struct State {
        /// Notes enqueued and not yet handed to the player.
        var incoming: [QueueItem] = []
        /// Titles of the entries handed to the player, by id.
        var titles: [QueueEntryID: String] = [:]
        var playing: String?
        /// Notes handed over and not yet finished or failed.
        var busy = 0
        var shutdown = false
        var skip = false
        /// How many of `incoming` were queued before the skip was asked: a skip ends the note playing
        /// when it was asked, never one queued after it (on a busy machine the coordinator may read
        /// both at once, and a replay asked after a skip was skipped with it).
        var queuedBeforeSkip = 0
        /// The skip is of every note, not only the one playing.
        var skipAll = false
        var events: [VoiceEvent] = []
    }

    /// The voice notes' own player: its own fetchers, decoders and PulseAudio stream.
    public let player: Player
    private let episode: Player
    private let focus: VoiceFocus
    private let resumeRewind: Double
    private let state = ConditionLock(State())
    private let playerEvents: PlayerSubscription
    private let thread: ConditionLock<NativeThread?> = ConditionLock(nil)
    /// Called after each event is posted (from the coordinator thread): wakes a front end's poll.
    private let onEvent = Locked<(@Sendable () -> Void)?>(nil)

    /// Ducking ramps over 200 ms, in even decibel steps: no clicks, no pumping.
    static let duckRamp = 0.2

    public convenience init(episode: Player, configuration: PlayerConfiguration, focus: VoiceFocus = .pause, resumeRewind: Double = 0) {
        self.init(episode: episode, configuration: configuration, output: nil, focus: focus, resumeRewind: resumeRewind)
    }

    /// The voice-note player beside `episode`, on `output` (nil: PulseAudio).
    package init(episode: Player, configuration: PlayerConfiguration, output: OutputDevice?, focus: VoiceFocus = .pause,
                 resumeRewind: Double = 0) {
        self.episode = episode
        self.focus = focus
        self.resumeRewind = max(0, resumeRewind)
        var configuration = configuration
        if configuration.mediaName == PlayerConfiguration().mediaName { configuration.mediaName = "Alicia voice note" }
        player = output.map { Player(configuration: configuration, output: $0) } ?? Player(configuration: configuration)
        player.setConsume(true)
        playerEvents = player.subscribe()
        let made = NativeThread(name: "alicia-voice") { [self] in run() }
        thread.withLock { $0 = made }
    }

    /// Queues a note; it plays after those already queued, joined to the one before.
    public func enqueue(_ location: MediaLocation, title: String) {
        state.update { s in
            s.incoming.append(QueueItem(location: location, title: title))
        }
        playerEvents.wake()
    }

    /// True when no note plays and none waits.
    public var isIdle: Bool { state.withLock { $0.incoming.isEmpty && $0.busy == 0 } }

    /// The note playing now, if any, and how many wait.
    ///
    /// The note player sets its state before it posts the event: a note it has ended is not playing
    /// here even before this coordinator's thread has read that event (a socket client that had seen
    /// `voice-end` asked at once, on a busy machine, and was told the note still played).
    public var nowPlaying: (title: String?, waiting: Int) {
        let over = [PlayerState.ended, .failed, .idle].contains(player.snapshot().state)
        let (playing, waiting) = state.withLock { ($0.playing, $0.incoming.count + max(0, $0.busy - ($0.playing == nil ? 0 : 1))) }
        return (over ? nil : playing, waiting)
    }

    /// Waits until idle (or the timeout passes); returns whether idle.
    public func waitUntilIdle(timeout: Duration) -> Bool {
        state.withLock(waitingUntil: { ($0.incoming.isEmpty && $0.busy == 0) || $0.shutdown }, timeout: timeout) {
            $0.incoming.isEmpty && $0.busy == 0
        }
    }

    /// The next event, waiting up to `timeout` for one.
    public func nextEvent(timeout: Duration?) -> VoiceEvent? {
        state.withLock(waitingUntil: { !$0.events.isEmpty || $0.shutdown }, timeout: timeout) { s in
            s.events.isEmpty ? nil : s.events.removeFirst()
        }
    }

    /// `wake` is called after each event is posted, on the coordinator thread.
    public func whenEvent(_ wake: @escaping @Sendable () -> Void) {
        onEvent.withLock { $0 = wake }
    }

    /// Ends the note playing now; the next queued one (if any) follows.
    public func skip() {
        state.update { s in
            if !s.skip { s.queuedBeforeSkip = s.incoming.count }
            s.skip = true
        }
        playerEvents.wake()
    }

    /// Ends the note playing and drops those waiting; the episode has its focus back. Notes queued
    /// later play as usual.
    public func clear() {
        state.update { s in
            s.incoming.removeAll()
            s.skip = true
            s.queuedBeforeSkip = 0
            s.skipAll = true
        }
        playerEvents.wake()
    }

    /// Stops everything, drops the queue and gives the episode its focus back. Idempotent.
    public func stop() {
        state.update { s in
            s.shutdown = true
            s.incoming.removeAll()
        }
        playerEvents.wake()
        let joining = thread.withLock { current -> NativeThread? in
            defer { current = nil }
            return current
        }
        joining?.join()
        player.stop()
    }

    // MARK: Coordinator thread

    /// The coordinator's own state: whether it holds the episode's focus, and the episode's exact
    /// frame when it was held (for the first note's `started`).
    private struct Focus {
        var taken = false
        var heldAt: Int64?
    }

    private func run() {
        var focus = Focus()
        while true {
            // Taken and counted busy in one step: never idle in between.
            let (incoming, skip, before, skipAll, shutdown) = state.withLock { s -> ([QueueItem], Bool, Int, Bool, Bool) in
                defer {
                    s.busy += s.incoming.count
                    s.incoming.removeAll()
                    s.skip = false
                    s.queuedBeforeSkip = 0
                    s.skipAll = false
                }
                return (s.incoming, s.skip, s.queuedBeforeSkip, s.skipAll, s.shutdown)
            }
            if shutdown { break }
            let split = skip ? min(before, incoming.count) : incoming.count
            hand(incoming[..<split], &focus)
            if skip { skipNote(all: skipAll, &focus) }
            hand(incoming[split...], &focus)
            guard let event = playerEvents.next(timeout: nil) else { continue }
            follow(event, &focus)
        }
        if focus.taken { releaseFocus() }
    }

    /// Notes enqueued go to the note player, the focus taken before the first.
    private func hand(_ incoming: ArraySlice<QueueItem>, _ focus: inout Focus) {
        guard !incoming.isEmpty else { return }
        if !focus.taken {
            focus.heldAt = takeFocus()
            focus.taken = true
        }
        for item in incoming {
            let id = player.add(item, startIfIdle: true)
            state.update { s in s.titles[id] = item.title }
        }
    }

    private func skipNote(all: Bool, _ focus: inout Focus) {
        if !all, let skipped = player.snapshot().entry, player.queue.count > 1 {
            // Not the last note: it leaves the queue (consume would only drop it once heard to
            // its end) and the next one plays.
            let title = state.withLock { $0.titles[skipped] } ?? ""
            player.remove(skipped)
            finish(skipped)
            post(.finished(title: title))
            return
        }
        // The last note: nothing follows, so no end of queue will come to give the focus back (a
        // clear only stops); it is given back here.
        player.clear()
        finishAll()
        giveFocusBack(&focus)
    }

    /// What the note player said.
    private func follow(_ event: PlayerEvent, _ focus: inout Focus) {
        guard let entry = event.entry else {
            if event.kind == .queueEnded || event.kind == .stopped, focus.taken, isIdleAfterEnd() { giveFocusBack(&focus) }
            return
        }
        let title = state.withLock { $0.titles[entry] } ?? ""
        switch event.kind {
        case .entryStarted:
            state.update { $0.playing = title }
            post(.started(title: title, heldAtFrame: focus.heldAt))
            focus.heldAt = nil
        case .ended:
            finish(entry)
            post(.finished(title: title))
        case .failed(let error):
            finish(entry)
            post(.failed(title: title, error: error))
        default:
            break
        }
    }

    private func giveFocusBack(_ focus: inout Focus) {
        guard focus.taken else { return }
        releaseFocus()
        focus.taken = false
        post(.focusReleased)
    }

    private func finish(_ entry: QueueEntryID) {
        state.update { s in
            guard s.titles.removeValue(forKey: entry) != nil else { return }
            s.busy -= 1
            s.playing = nil
        }
    }

    /// A skip with nothing after: every note handed over is done (those taken and still to be
    /// handed, queued after the skip, stay counted).
    private func finishAll() {
        state.update { s in
            s.busy = max(0, s.busy - s.titles.count)
            s.titles.removeAll()
            s.playing = nil
        }
    }

    /// The note player's queue ended: idle unless more notes came meanwhile.
    /// The note player's queue ended: idle unless more notes came meanwhile (an end read late, after
    /// a note was handed over, is not the end of that note).
    private func isIdleAfterEnd() -> Bool {
        state.update { s -> Bool in
            guard s.incoming.isEmpty, s.titles.isEmpty || player.queue.isEmpty else { return false }
            s.titles.removeAll()
            s.busy = 0
            s.playing = nil
            return true
        }
    }

    private func takeFocus() -> Int64? {
        switch focus {
        case .pause: return episode.setHeld(true)
        case .duck(let decibels): episode.setDuck(decibels: decibels, ramp: Self.duckRamp)
        case .mix: break
        }
        return nil
    }

    private func releaseFocus() {
        switch focus {
        case .pause:
            if resumeRewind > 0 { episode.seek(by: -resumeRewind) }
            episode.setHeld(false)
        case .duck:
            episode.setDuck(decibels: 0, ramp: Self.duckRamp)
        case .mix:
            break
        }
    }

    private func post(_ event: VoiceEvent) {
        state.update { $0.events.append(event) }
        onEvent.withLock { $0 }?()
    }
}
