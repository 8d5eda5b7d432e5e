#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaLocks

/// What a listening session tells its front end (the `play` loop, the Studio, a script…), already
/// read against the queue: which item it is about, in the listener's terms.
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
    /// The sleep timer ended: the episode faded out and paused, its position saved (5 s back).
    case asleep
    case voice(VoiceEvent)
    /// The episode's output moved to another sink (the one it played on went away).
    case outputMoved(SinkMove)
    /// What a `say` brought back.
    case alicia(AliciaNotice)
}

/// What Alicia's answer to a `say` brings, as it comes.
public enum AliciaNotice: Equatable, Sendable {
    /// Her reply so far (Markdown), growing with each piece.
    case replying(prompt: String, text: String)
    /// Her voice note, queued on the voice-note player.
    case voiceNote(QueueItem)
    /// A problem on her side; the reply goes on.
    case problem(String)
    /// Her whole reply, and its message id (opaque text).
    case replied(prompt: String, text: String, messageID: String?)
    /// The message could not be sent, or her reply stopped before its end (`text`: her words so
    /// far, kept).
    case failed(prompt: String, text: String, message: String)
}

/// One listener's playback: the episode player and its queue, the voice-note player beside it,
/// the `--voice-at` cues between them, resume positions and one volume. Every change goes through
/// `perform(_:)` (ListeningSession+Perform.swift), in the one vocabulary every front end parses
/// into; front ends read through `view`. Owned by one thread (the front end's host loop); the
/// players run on threads of their own, and other threads reach it through `remote`.
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
        /// The listener's volume in percent of the mixer's scale, for the episode and the notes alike.
        public var volumePercent = 100.0
        public var voiceFocus: VoiceFocus = .pause
        /// Seconds the episode steps back when a voice note gives the focus back (`--note-rewind`).
        public var noteRewind = 0.0
        /// Whether there is a voice-note player at all.
        public var voiceNotes = true
        /// Where resume positions are kept (nil: nowhere).
        public var positions: PositionStore?
        /// Where measured loudness is kept per episode (nil: nowhere).
        public var loudnessCache: LoudnessCache?
        /// Start every item from its beginning, not where it was left (`--from-start`).
        public var fromStart = false
        /// Alicia's chat, for `say` (nil: no backend).
        public var chat: ChatLink?
        /// Where the episode and the voice notes sound (nil: PulseAudio, as the configuration says);
        /// recording outputs make a session in-process, with no sound server (the tests').
        package var outputs: (episode: OutputDevice, voice: OutputDevice)?

        public init() {}
    }

    let player: Player
    let voiceNotes: VoiceNotes?
    private let events: PlayerSubscription
    /// Where other threads (the control socket, MPRIS, a chat in flight) leave commands.
    public let remote: RemoteMailbox
    /// What front ends and other threads read.
    public let view: SessionView
    let levels: Locked<ListenerLevels>
    let chat: ChatLink?
    /// Chats in flight: their threads, their prompts and who waits for the reply.
    var chats: [Int: (thread: NativeThread, prompt: String, text: String, reply: @Sendable (TransportReply) -> Void)] = [:]
    var nextChat = 1
    let closing = Locked(ChatCancel())

    /// A remote `quit` asked the front end to end, with this exit status.
    public internal(set) var quitRequested: Int32?
    /// Voice notes to queue when the episode reaches their cue, by cue id.
    private var cueNotes: [Int: QueueItem] = [:]
    /// Everything that failed, in order.
    public private(set) var failures: [PlaybackError] = []
    /// Items heard to a truncated end.
    public private(set) var truncated: [QueueItem] = []
    /// The queue has ended (or failed) since the last `play`.
    public internal(set) var queueEnded = false
    public let positions: PositionStore?
    public let loudnessCache: LoudnessCache?
    private let fromStart: Bool
    /// The item heard last and where, for saving its position when another takes over.
    private var lastHeard: (entry: QueueEntryID, key: String, position: Double, duration: Double?)?
    /// When positions were last saved and when the listener paused, in `MonotonicClock` seconds.
    private var lastSave = MonotonicClock.seconds()
    /// When the session was made (monotonic seconds), for the log.
    private let sessionMade = MonotonicClock.seconds()
    var pausedAt: Double?
    /// The sleep timer ended and no resume has come since: positions are saved 5 s back.
    public internal(set) var asleep = false

    /// Positions are saved this often while playing (seconds): a crash loses at most this much.
    public static let saveInterval = 5.0
    /// Within this many seconds of an item's start, "previous" goes to the item before; later it
    /// starts the item again (as podcast apps do).
    public static let restartThreshold = 3.0
    /// What a resume after the sleep timer steps back (seconds), to pick up the thread: also what
    /// the saved position steps back, so the next `play` in any process starts there too.
    public static let sleepRewind = 5.0

    public init(_ options: Options) {
        positions = options.positions
        loudnessCache = options.loudnessCache
        fromStart = options.fromStart
        chat = options.chat
        player = options.outputs.map { Player(configuration: options.configuration, output: $0.episode) }
            ?? Player(configuration: options.configuration)
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
            let notes = VoiceNotes(episode: player, configuration: noteConfiguration, output: options.outputs?.voice,
                                   focus: options.voiceFocus, resumeRewind: options.noteRewind)
            // Its events wake the front end's loop as the episode's do: no timer waits for them.
            notes.whenEvent { waking.wake() }
            voiceNotes = notes
        } else {
            voiceNotes = nil
        }
        voiceNotes?.player.setLoudness(options.loudness)
        var initial = ListenerLevels()
        initial.volumePercent = min(max(options.volumePercent, VolumeScale.percentRange.lowerBound), VolumeScale.percentRange.upperBound)
        levels = Locked(initial)
        view = SessionView(player: player, voiceNotes: voiceNotes, levelLock: levels)
        applyVolume()
    }

    /// Holds both players where they are, at once: what closes before the session (the control
    /// server, a hook's last run, a download) can take seconds, and Ctrl-C must silence the output
    /// now, not after them. ``close()`` saves the position from there.
    public func hold() {
        _ = player.setHeld(true)
        _ = voiceNotes?.player.setHeld(true)
    }

    /// Saves where the listener is, then stops both players and any chat. Idempotent.
    public func close() {
        // Held first: corked, the sink's read index is exactly the frame heard, and nothing plays on
        // while the position is saved and the players stop. (Saved from the running estimate, a
        // slowed player's stop went on 116 ms past it: a resume then played those again.)
        player.setHeld(true)
        savePosition()
        closing.withLock { $0.closed = true }
        for chat in chats.values { chat.thread.join() }
        chats.removeAll()
        voiceNotes?.stop()
        player.stop()
    }

    /// Readable while the session has something for its front end (an event of either player, a
    /// command from another thread): for the host's `poll`.
    public var fileDescriptor: Int32 { events.fileDescriptor }

    /// Ends one `nextNotices` wait (a signal arrived); callable from any thread.
    public var waker: @Sendable () -> Void {
        let events = self.events
        return { events.wake() }
    }

    /// Plays the plan's items as the queue, from the one at its index (from its start, else where
    /// each was left), with its loop, shuffle and voice cues: `perform(.load(plan))` with `replace`.
    func play(_ plan: LoadPlan) {
        savePosition()
        queueEnded = false
        let (items, index, start) = (plan.items, plan.index, plan.start)
        if let loop = plan.loop { player.setLoop(loop) }
        var ordered = items.indices.map { i in i == index && start != nil ? items[i] : resumed(items[i]) }
        levels.withLock { $0.shuffled = plan.shuffle }
        if plan.shuffle {
            var generator = SystemRandomNumberGenerator()
            let first = ordered.indices.contains(index) ? ordered.remove(at: index) : nil
            ordered.shuffle(using: &generator)
            if let first { ordered.insert(first, at: 0) }
            player.play(ordered, at: 0, from: start)
        } else {
            player.play(ordered, at: index, from: start)
        }
        setVoiceCues(plan.voiceCues)
    }

    /// Plays the cued notes when the first entry of the queue reaches each position (`--voice-at`).
    private func setVoiceCues(_ cues: [VoiceCue]) {
        cueNotes = [:]
        guard let first = player.queue.entries.first?.id, !cues.isEmpty else { return }
        var made: [PositionCue] = []
        for (index, cue) in cues.enumerated() {
            cueNotes[index] = cue.note
            made.append(PositionCue(id: index, entry: first, at: cue.at))
        }
        player.setCues(made)
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

    /// Call from the host's loop: saves the position every `saveInterval` while playing.
    public func tick() {
        guard positions != nil else { return }
        noteHeard()
        if player.snapshot().state == .playing, MonotonicClock.seconds() - lastSave >= Self.saveInterval {
            savePosition()
        }
    }

    /// When `tick` has something to do next (monotonic seconds), for the host's poll timeout; nil
    /// while nothing plays.
    public var nextDeadline: Double? {
        guard positions != nil, player.snapshot().state == .playing else { return nil }
        return lastSave + Self.saveInterval
    }

    /// Records where the heard item stands and writes every change. Asleep, the place kept is the
    /// one a resume would go on from: 5 s before the fade's end.
    public func savePosition() {
        guard let positions else { return }
        let began = MonotonicClock.seconds()
        noteHeard()
        if let heard = lastHeard {
            let position = asleep ? max(0, heard.position - Self.sleepRewind) : heard.position
            positions.record(heard.key, position: position, duration: heard.duration)
        }
        let written = positions.save()
        lastSave = MonotonicClock.seconds()
        Log.debug(.engine, "positions \(written ? "saved" : "not saved") ("
            + (lastHeard.map { "at \(($0.position * 100).rounded() / 100) s" } ?? "nothing heard yet")
            + ") in \(Int((lastSave - began) * 1000)) ms, \(Int((began - sessionMade) * 1000)) ms after the session was made")
    }

    /// Keeps `lastHeard` up to date; when another item took over, the last one's place is recorded.
    private func noteHeard() {
        guard let positions else { return }
        let snapshot = player.snapshot()
        // A live stream has no place to keep.
        guard let entry = snapshot.entry, let key = snapshot.item?.positionKey, snapshot.format?.isLive != true else { return }
        if let last = lastHeard, last.entry != entry {
            positions.record(last.key, position: last.position, duration: last.duration)
        }
        if snapshot.format != nil {
            lastHeard = (entry, key, snapshot.position, snapshot.duration)
        }
    }

    // MARK: Events

    /// Every notice waiting now, without blocking (commands from other threads are carried out first).
    public func notices() -> [SessionNotice] {
        // The events (and the wake-ups with them) are taken before the mail: a letter posted after
        // the mail was read wakes the descriptor again, so none waits for an unrelated wake.
        let taken = events.drain()
        var notices = takeMail()
        for event in taken { notices += read(event) }
        if let voiceNotes {
            while let event = voiceNotes.nextEvent(timeout: .zero) { notices.append(.voice(event)) }
        }
        return notices
    }

    /// Waits up to `timeout` for something to happen and returns what did; empty on timeout or
    /// `wake()` with nothing to say.
    public func nextNotices(timeout: Duration?) -> [SessionNotice] {
        let now = notices()
        if quitRequested != nil || !now.isEmpty { return now }
        if let event = events.next(timeout: timeout) { return read(event) + notices() }
        return notices()
    }

    /// Done: the queue has ended, no voice note plays or waits and no chat is in flight, or a
    /// remote `quit` came.
    public var isFinished: Bool {
        quitRequested != nil || queueEnded && (voiceNotes?.isIdle ?? true) && chats.isEmpty
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
            pausedAt = MonotonicClock.seconds()
            savePosition()
            return []
        case .stateChanged(.playing):
            // A resume that did not come through `resume` (the player's own, a voice note's end):
            // the step back owed, if any, from where it stands now.
            stepBackAfterPause()
            return []
        case .sleepTimerEnded:
            asleep = true
            savePosition()
            return [.asleep]
        case .seeked:
            savePosition()
            return []
        case .loudnessMeasured(let figures):
            if let key = item?.positionKey { loudnessCache?.store(figures, for: key) }
            return []
        case .outputMoved(let move):
            return [.outputMoved(move)]
        case .stateChanged, .queueChanged, .stopped, .silenceSkipped, .ownerChanged, .metadataChanged:
            return []
        }
    }

    /// The step back owed for the pause that is ending, once. (The sleep timer's pause may not have
    /// been read yet when the listener resumes; its own notice, read first, is enough.)
    func stepBackAfterPause() {
        guard pausedAt != nil || asleep else { return }
        var rewind = pausedAt.map { PositionStore.rewind(afterPause: MonotonicClock.seconds() - $0) } ?? 0
        if asleep { rewind = max(rewind, Self.sleepRewind) }
        pausedAt = nil
        asleep = false
        if rewind > 0 { player.seek(by: -rewind) }
    }
}

/// Whether the session has closed: chats in flight stop reading their replies.
struct ChatCancel {
    var closed = false
}
