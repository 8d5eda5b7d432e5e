#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaLocks
import Synchronization

/// What a listening session tells its front-end (the `play` loop, the Studio, the plain Studio),
/// already read against the queue: which item it is about, in the listener's terms.
public enum SessionNotice: Equatable, Sendable {
    /// An item is now the one heard.
    case started(QueueEntryID, QueueItem)
    /// Its format (and so its length) is known.
    case opened(QueueEntryID, QueueItem, AudioFormat)
    /// It was heard to its end (`truncated`: the end of what the file held). The item is nil when
    /// it has left the queue since.
    case finished(QueueEntryID, QueueItem?, truncated: Bool)
    /// It could not be played; the queue goes on.
    case failed(QueueEntryID?, QueueItem?, PlaybackError)
    /// Nothing more to play.
    case queueEnded
    /// The sleep timer ended: the episode faded out and paused, its position saved.
    case asleep
    case voice(VoiceEvent)
    /// The episode's output moved to another sink (the one it played on went away).
    case outputMoved(SinkMove)
}

/// One listener's playback: the episode player and its queue, the voice-note player beside it,
/// and the `--voice-at` cues between them. The front-ends only render and translate keys into the
/// calls below; no command loop is written twice. Owned by one thread (the front-end's loop);
/// the players run on threads of their own.
public final class ListeningSession {
    public struct Options {
        public var configuration = PlayerConfiguration()
        public var speed = 1.0
        /// How the episode's pauses are shortened (voice notes are left as they are).
        public var silenceSkipping: SilenceSkipping = .off
        public var sleepTimer: SleepTimer = .off
        /// Matched loudness, for the episode and the voice notes alike (notes are measured whole
        /// before they play, so in `duck` mode a note sits at the target above the ducked episode).
        public var loudness: LoudnessMatching = .off
        /// The listener's gain, linear (1 = as decoded), for the episode and the voice notes alike.
        public var volume = 1.0
        public var voiceFocus: VoiceFocus = .pause
        public var resumeRewind = 0.0
        /// Whether there is a voice-note player at all (`voice` plays its note on the main one).
        public var voiceNotes = true
        /// Where resume positions are kept (nil: nowhere).
        public var positions: PositionStore?
        /// Where measured loudness is kept per episode (nil: nowhere).
        public var loudnessCache: LoudnessCache?
        /// Start every item from its beginning, not where it was left (`--from-start`).
        public var fromStart = false

        public init() {}
    }

    public let player: Player
    public let voiceNotes: VoiceNotes?
    private let events: PlayerSubscription
    /// Work other threads (the control socket, MPRIS) hand to the session's own thread.
    public let remote: RemoteMailbox
    /// A remote `quit` asked the front-end to end, with this exit status.
    public private(set) var quitRequested: Int32?
    /// Voice notes to queue when the episode reaches their cue, by cue id.
    private var cueNotes: [Int: (location: MediaLocation, title: String)] = [:]
    /// Everything that failed, in order.
    public private(set) var failures: [PlaybackError] = []
    /// Items heard to a truncated end.
    public private(set) var truncated: [QueueItem] = []
    /// The queue has ended (or failed) since the last `play`.
    public private(set) var queueEnded = false
    public let positions: PositionStore?
    public let loudnessCache: LoudnessCache?
    private let fromStart: Bool
    /// The item heard last and where, for saving its position when another takes over.
    private var lastHeard: (entry: QueueEntryID, key: String, position: Double, duration: Double?)?
    /// When positions were last saved and when the listener paused, in `monotonicSeconds()`.
    private var lastSave = ListeningSession.monotonicSeconds()
    private var pausedAt: Double?

    /// Positions are saved this often while playing (seconds): a crash loses at most this much.
    public static let saveInterval = 5.0

    /// Within this many seconds of an item's start, "previous" goes to the item before; later it
    /// starts the item again (as podcast apps do).
    public static let restartThreshold = 3.0

    public init(_ options: Options) {
        positions = options.positions
        loudnessCache = options.loudnessCache
        fromStart = options.fromStart
        player = Player(configuration: options.configuration)
        player.setSpeed(options.speed)
        player.setSilenceSkipping(options.silenceSkipping)
        player.setSleepTimer(options.sleepTimer)
        player.setLoudness(options.loudness)
        events = player.subscribe()
        let waking = events
        remote = RemoteMailbox { waking.wake() }
        if options.voiceNotes {
            var noteConfiguration = PlayerConfiguration(device: options.configuration.device)
            noteConfiguration.readAheadSeconds = options.configuration.readAheadSeconds
            noteConfiguration.network = options.configuration.network
            noteConfiguration.measureLoudnessFirst = true
            voiceNotes = VoiceNotes(episode: player, configuration: noteConfiguration,
                                    focus: options.voiceFocus, resumeRewind: options.resumeRewind)
        } else {
            voiceNotes = nil
        }
        voiceNotes?.player.setLoudness(options.loudness)
        setVolume(options.volume)
    }

    /// The listener's gain (linear, 1 = as decoded) for both players: one volume for what is heard.
    public func setVolume(_ linear: Double) {
        player.setVolume(linear)
        voiceNotes?.player.setVolume(linear)
    }

    /// Asks the front-end to end (a remote `quit`): `quitRequested` is set and its wait ends.
    public func requestQuit(status: Int32 = 0) {
        quitRequested = quitRequested ?? status
        events.wake()
    }

    /// Stops playback and empties the queue (mpv's `stop`): the heard item's position is saved
    /// first; nothing plays until something is loaded again.
    public func stopPlayback() {
        savePosition()
        lastHeard = nil
        voiceNotes?.stop()
        player.stop()
        player.clear()
        queueEnded = true
    }

    /// How the episode's pauses are shortened; positions stay in the episode's own time. The time
    /// saved is in the player's snapshot (`silenceSaved`, `silenceSavedTotal`).
    public var silenceSkipping: SilenceSkipping {
        get { player.silenceSkipping }
        set { player.setSilenceSkipping(newValue) }
    }

    /// Key `s`: the next level (off, mild, medium, strong, off); returns it.
    @discardableResult
    public func cycleSilenceSkipping() -> SilenceSkipping {
        let next = player.silenceSkipping.next
        player.setSilenceSkipping(next)
        return next
    }

    /// The sleep timer (`.after` with the seconds of playing left).
    public var sleepTimer: SleepTimer {
        get { player.sleepTimer }
        set { player.setSleepTimer(newValue) }
    }

    /// Key `z`: the next timer of `SleepTimer.cycle` (off, 15, 30, 45, 60 min, end of the
    /// episode); returns it.
    @discardableResult
    public func cycleSleepTimer() -> SleepTimer {
        let next = player.sleepTimer.next
        player.setSleepTimer(next)
        return next
    }

    /// The sleep timer ended since the last resume.
    public private(set) var asleep = false

    /// What a resume after the sleep timer steps back (seconds), to pick up the thread.
    public static let sleepRewind = 5.0

    /// Saves where the listener is, then stops both players. Idempotent.
    public func close() {
        savePosition()
        voiceNotes?.stop()
        player.stop()
    }

    /// Readable while the episode player has events waiting: for the front-end's `poll`.
    public var fileDescriptor: Int32 { events.fileDescriptor }

    /// Ends one `nextNotices` wait (a signal arrived); callable from any thread.
    public var waker: @Sendable () -> Void {
        let events = self.events
        return { events.wake() }
    }

    // MARK: Commands

    /// Plays `items` as the queue, from the one at `index`.
    public func play(_ items: [QueueItem], at index: Int = 0, from start: StartPosition? = nil,
                     loop: LoopMode = .off, shuffle: Bool = false) {
        savePosition()
        queueEnded = false
        player.setLoop(loop)
        var ordered = items.indices.map { i in i == index && start != nil ? items[i] : resumed(items[i]) }
        if shuffle {
            var generator = SystemRandomNumberGenerator()
            let first = ordered.indices.contains(index) ? ordered.remove(at: index) : nil
            ordered.shuffle(using: &generator)
            if let first { ordered.insert(first, at: 0) }
            player.play(ordered, at: 0, from: start)
        } else {
            player.play(ordered, at: index, from: start)
        }
    }

    /// Plays `notes` when the first entry of the queue reaches each position (`--voice-at`).
    public func setVoiceCues(_ cues: [(at: StartPosition, location: MediaLocation, title: String)]) {
        guard let first = player.queue.entries.first?.id else { return }
        cueNotes = [:]
        var made: [PositionCue] = []
        for (index, cue) in cues.enumerated() {
            cueNotes[index] = (cue.location, cue.title)
            made.append(PositionCue(id: index, entry: first, at: cue.at))
        }
        player.setCues(made)
    }

    /// Adds an item at the end of the queue (playing it when nothing plays, if `startIfIdle`).
    @discardableResult
    public func append(_ item: QueueItem, startIfIdle: Bool = true) -> QueueEntryID {
        if startIfIdle { queueEnded = false }
        return player.add(item, .end, startIfIdle: startIfIdle)
    }

    /// Adds an item right after the one heard.
    @discardableResult
    public func playNext(_ item: QueueItem, startIfIdle: Bool = true) -> QueueEntryID {
        if startIfIdle { queueEnded = false }
        return player.add(item, .next, startIfIdle: startIfIdle)
    }

    /// The next item; false at the end of the queue.
    public func next() -> Bool {
        player.next()
    }

    /// The item before, within the first seconds of an item; later the start of this one. False
    /// when there is nothing before and the item is at its start.
    public func previous() -> Bool {
        if player.snapshot().position > Self.restartThreshold {
            player.seek(to: 0)
            return true
        }
        return player.previous()
    }

    /// Space: pause or play; after the end, the last item again from its start.
    public func togglePause() {
        let snapshot = player.snapshot()
        if snapshot.state == .ended || snapshot.state == .idle, let entry = snapshot.entry {
            queueEnded = false
            player.resume()
            player.jump(to: entry, from: .seconds(0))
        } else if snapshot.state == .paused {
            resume()
        } else {
            player.togglePause()
        }
    }

    /// Plays on after a pause. The step back a resume takes (after a long pause, AntennaPod's
    /// steps; after the sleep timer, 5 s) is asked for while the output is still corked, so it is
    /// counted from the exact frame where playback stopped, not from a position read while the
    /// device has just started again.
    public func resume() {
        stepBackAfterPause()
        player.resume()
    }

    /// The step back owed for the pause that is ending, once. (The sleep timer's pause may not have
    /// been read yet when the listener resumes; its own notice, read first, is enough.)
    private func stepBackAfterPause() {
        guard pausedAt != nil || asleep else { return }
        var rewind = pausedAt.map { PositionStore.rewind(afterPause: Self.monotonicSeconds() - $0) } ?? 0
        if asleep { rewind = max(rewind, Self.sleepRewind) }
        self.pausedAt = nil
        asleep = false
        if rewind > 0 { player.seek(by: -rewind) }
    }

    public func playVoiceNote(_ location: MediaLocation, title: String) {
        voiceNotes?.enqueue(location, title: title)
    }

    /// `item` starting where it was left (less a step back after a long time away), unless it was
    /// played to its end, asked to start elsewhere, or `--from-start` was given.
    public func resumed(_ item: QueueItem) -> QueueItem {
        var item = item
        if item.loudness == nil, let key = item.positionKey { item.loudness = loudnessCache?.figures(for: key) }
        guard !fromStart, item.start == nil, let key = item.positionKey, let saved = positions?.position(for: key),
              !saved.played, saved.position > 0 else { return item }
        var resumed = item
        let away = PositionStore.now() - saved.updated
        resumed.start = .seconds(max(0, saved.position - PositionStore.rewind(afterPause: away)))
        return resumed
    }

    // MARK: Positions

    /// Call from the front-end's loop (at least once a second): saves the position every
    /// `saveInterval` while playing.
    public func tick() {
        guard positions != nil else { return }
        noteHeard()
        if player.snapshot().state == .playing, Self.monotonicSeconds() - lastSave >= Self.saveInterval {
            savePosition()
        }
    }

    /// Records where the heard item stands and writes every change.
    public func savePosition() {
        guard let positions else { return }
        noteHeard()
        if let heard = lastHeard { positions.record(heard.key, position: heard.position, duration: heard.duration) }
        positions.save()
        lastSave = Self.monotonicSeconds()
    }

    /// `CLOCK_MONOTONIC` in seconds. Not `ContinuousClock`: its code pages (two 64 KiB windows of
    /// the static runtime's _Concurrency) were resident for a 5-second timer, and its `Instant`, whose
    /// layout is only known at run time, made this class's metadata be built at start by demangling
    /// its fields' types (the labelled tuples' through libstdc++'s strings).
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
    }

    /// Keeps `lastHeard` up to date; when another item took over, the last one's place is recorded.
    private func noteHeard() {
        guard let positions else { return }
        let snapshot = player.snapshot()
        guard let entry = snapshot.entry, let key = snapshot.item?.positionKey else { return }
        if let last = lastHeard, last.entry != entry {
            positions.record(last.key, position: last.position, duration: last.duration)
        }
        if snapshot.format != nil {
            lastHeard = (entry, key, snapshot.position, snapshot.duration)
        }
    }

    // MARK: Events

    /// Every notice waiting now, without blocking.
    public func notices() -> [SessionNotice] {
        remote.run(on: self)
        var notices: [SessionNotice] = []
        for event in events.drain() { notices += read(event) }
        if let voiceNotes {
            while let event = voiceNotes.nextEvent(timeout: .zero) { notices.append(.voice(event)) }
        }
        return notices
    }

    /// Waits up to `timeout` for the episode player's next event and returns it read (with any
    /// voice-note events); empty on timeout or `wake()`.
    public func nextNotices(timeout: Duration?) -> [SessionNotice] {
        remote.run(on: self)
        if quitRequested != nil { return notices() }
        var notices: [SessionNotice] = []
        if let event = events.next(timeout: timeout) { notices = read(event) }
        return notices + self.notices()
    }

    /// Done: the queue has ended and no voice note plays or waits, or a remote `quit` came.
    public var isFinished: Bool {
        quitRequested != nil || queueEnded && (voiceNotes?.isIdle ?? true)
    }

    private func read(_ event: PlayerEvent) -> [SessionNotice] {
        let queue = player.queue
        let item = event.entry.flatMap { queue.entry($0)?.item }
        switch event.kind {
        case .entryStarted:
            guard let entry = event.entry, let item else { return [] }
            if positions != nil {
                noteHeard()
                positions?.save()
            }
            return [.started(entry, item)]
        case .formatKnown(let format):
            guard let entry = event.entry, let item else { return [] }
            return [.opened(entry, item, format)]
        case .ended(let wasTruncated):
            guard let entry = event.entry else { return [] }
            if wasTruncated, let item { truncated.append(item) }
            if let key = item?.positionKey, let positions {
                positions.markPlayed(key, duration: lastHeard?.entry == entry ? lastHeard?.duration : nil)
                positions.save()
                if lastHeard?.entry == entry { lastHeard = nil }
            }
            return [.finished(entry, item, truncated: wasTruncated)]
        case .failed(let error):
            failures.append(error)
            return [.failed(event.entry, item, error)]
        case .cueReached(let id):
            if let note = cueNotes[id] { voiceNotes?.enqueue(note.location, title: note.title) }
            return []
        case .queueEnded:
            queueEnded = true
            return [.queueEnded]
        case .stateChanged(.paused):
            pausedAt = Self.monotonicSeconds()
            savePosition()
            return []
        case .stateChanged(.playing):
            // A resume that did not come through `resume()` (the player's own, a voice note's end):
            // the step back owed, if any, from where it stands now.
            stepBackAfterPause()
            return []
        case .sleepTimerEnded:
            asleep = true
            return [.asleep]
        case .seeked:
            savePosition()
            return []
        case .loudnessMeasured(let figures):
            if let key = item?.positionKey { loudnessCache?.store(figures, for: key) }
            return []
        case .outputMoved(let move):
            return [.outputMoved(move)]
        case .stateChanged, .queueChanged, .stopped, .silenceSkipped:
            return []
        }
    }
}

/// Closures other threads hand to a session, run in order on the session's own thread the next
/// time its front-end reads notices (`notices()`, `nextNotices`), which `post` wakes. The session
/// is owned by one thread; this is how the control socket and MPRIS change it without a lock.
public final class RemoteMailbox: Sendable {
    private let pending = Locked<[@Sendable (ListeningSession) -> Void]>([])
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    /// Runs `work` on the session's thread, soon.
    public func post(_ work: @escaping @Sendable (ListeningSession) -> Void) {
        pending.withLock { $0.append(work) }
        wake()
    }

    func run(on session: ListeningSession) {
        while true {
            let batch = pending.withLock { list -> [@Sendable (ListeningSession) -> Void] in
                defer { list.removeAll() }
                return list
            }
            if batch.isEmpty { return }
            for work in batch { work(session) }
        }
    }
}
