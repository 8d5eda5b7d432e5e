#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaLocks
import AliciaSession
import AliciaTerminal
import Synchronization
import AliciaLibrary
import AliciaHost

/// The interactive Studio: the library, the now-playing panel, Alicia's words and a composer,
/// driven by keys. A front end of a `SessionHost`: the host's poll loop reads stdin for it and
/// wakes it on the session's notices; it draws, and turns keys into the vocabulary
/// (`StudioKeys`). The show notes, the proactive refresh and the reconnect run on threads of their
/// own and leave their answers in an inbox that wakes the loop.
package final class StudioApp: HostedFrontEnd {
    /// What to start with.
    package struct Setup {
        package var backend: BackendSession?
        /// The backend's name for the header (no token).
        package var backendName: String
        /// Play this at once: an entry of the library, or a stream of its own.
        package var autoplay: Autoplay?
        package var mode: Mode = .browse
        package var options: PlayOptions
        /// `play --voice-at` in the accessible Studio: voice notes at positions of the first item.
        package var voiceCues: [VoiceCue] = []
    }

    package enum Mode {
        /// `studio`, `demo`: the Studio stays until the listener quits.
        case browse
        /// `play` on a terminal: the first item is opened before the Studio takes the screen (an
        /// error is said as off a terminal, with its exit status), and the Studio ends with the queue.
        case play
    }

    package enum Autoplay {
        case entry(label: String?, index: Int)
        /// Items of their own (paths, URLs, or several episodes), played as the queue.
        case items([QueueItem])
    }

    package let setup: Setup
    package let terminal: Terminal
    package let host: SessionHost
    package var session: ListeningSession { host.session }
    package var view: SessionView { host.session.view }
    package var model = StudioModel()
    /// The keys in effect: the defaults with the configuration file's `bind` lines over them.
    package var keys = StudioKeys.defaults
    package var decoder = KeyDecoder()
    package var screen = Screen()
    package var listRows = 10
    package var running = true
    package var exitStatus = ExitCode.success
    /// Written by the notes, proactive and reconnect threads; wakes the host's loop.
    package let inbox: Mailbox
    /// Those threads: joined once done, and all of them (cancelled) at exit.
    package var workers: [Worker] = []
    package let quitting = Flag()
    package var lastProactiveFetch: Double?
    package var statusSetAt: Double?
    /// Notices read before the Studio took the screen, handled with the first frame's.
    package var earlyNotices: [SessionNotice] = []
    /// Lengths of the command line's items, by index, as they open.
    package var itemLengths: [Int: Double] = [:]
    /// Where the volume and speed are remembered, and what was there when the Studio opened.
    package let statePath: String
    package let remembered: ListenerState
    /// The volume and speed the Studio opened with (flags, else remembered): what keys change.
    package let opened: ListenerState
    /// Alicia's playlists, as the library's last shelf shows them.
    package var playlists: [Playlist] = []
    /// While the offline library is shown: when to ask the backend next, the wait before that, and
    /// whether an attempt is under way.
    package var reconnect: (at: Double, wait: Double, trying: Bool)?
    /// Continue listening: where the queue is kept, and what was last written there.
    package let continuePath: String
    package var continued: ContinueListening?
    /// The position key of the entry `continued` names as heard (to read back what the store saved).
    package var continuedKey: String?
    /// The queue continued without a backend: what the list shows then.
    package var restoredItems: [QueueItem] = []
    /// What the backend has to read, as last asked (`refreshReadings`).
    package var readingShelf: ReadingShelf?

    /// A background request's thread and whether it has finished.
    package struct Worker {
        package let thread: NativeThread
        package let done: Flag
    }

    package final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        package func set() { value.store(true, ordering: .releasing) }
        package var isSet: Bool { value.load(ordering: .acquiring) }
    }

    package struct Inbox: Sendable {
        package var proactive: [ProactiveMessage]?
        package var error: String?
        /// Show notes that arrived: the label they are of, the text or why not.
        package var notes: (label: String, text: String?, error: String?)?
        /// Offline: whether the backend answered the last attempt to reach it.
        package var backendAnswered: Bool?
        /// A playlist's warming items, voiced far enough to play, in order.
        package var voiced: [QueueItem] = []
        /// An answer sent to what she asked, and what she said back (nil: it did not go).
        package var answered: (text: String, response: String?)?
        /// What the backend has to read (the briefing, syntheses, reflections), as asked.
        package var readings: ReadingShelf?
        /// A reading made ready to play.
        package var readingItems: [QueueItem]?
    }

    /// What the background threads leave for the loop; each write wakes it.
    package final class Mailbox: Sendable {
        private let state = Locked(Inbox())
        private let wake: @Sendable () -> Void

        package init(wake: @escaping @Sendable () -> Void) {
            self.wake = wake
        }

        /// Leaves something for the loop, and wakes it.
        package func withLock(_ body: (inout Inbox) -> Void) {
            state.withLock { body(&$0) }
            wake()
        }

        /// Everything left so far, taken (without waking anyone).
        package func take() -> Inbox {
            state.withLock { box in
                defer { box = Inbox() }
                return box
            }
        }
    }

    /// Frames while something moves are drawn when what is shown changes: the clock's next second,
    /// at least this often while buffering (its progress moves).
    package static let bufferingFrame = 0.25
    package static let proactiveInterval = 60.0
    /// A status line that is not an error goes after this many seconds.
    package static let statusSeconds = 8.0
    /// Offline, the backend is asked again after 2 s, then after twice the last wait, at most 30 s:
    /// soon after a blip, and no more than twice a minute for a train ride.
    package static let reconnectFirst = 2.0
    package static let reconnectLongest = 30.0

    package init(setup: Setup, terminal: Terminal, host: SessionHost, remembered: ListenerState, statePath: String) {
        self.setup = setup
        self.terminal = terminal
        self.host = host
        self.remembered = remembered
        self.statePath = statePath
        continuePath = ContinueListening.path(besides: statePath)
        inbox = Mailbox(wake: host.session.waker)
        model.backendName = setup.backendName
        model.hasBackend = setup.backend != nil
        opened = ListenerState(volume: host.session.view.levels.volumePercent, speed: host.options.speed)
        var warnings: [String] = []
        keys = StudioKeys.configured { warnings.append($0) }
        model.keyHelp = keys.helpRows
        if let warning = warnings.first { model.status = (warning, true) }
    }

    /// Opens the Studio's session (the remembered volume and speed unless flags say otherwise).
    package static func open(setup: Setup, terminal: Terminal, signals: SignalWatcher) -> Int32 {
        switch make(setup: setup, terminal: terminal, signals: signals) {
        case .failure(let failure): return failure.status
        case .success(let app): return app.run()
        }
    }

    /// The Studio on its session, not yet shown (the accessible Studio narrates one it never draws).
    package static func make(setup: Setup, terminal: Terminal, signals: SignalWatcher) -> Result<StudioApp, SessionHost.HostFailure> {
        let statePath = ListenerState.path()
        let remembered = ListenerState.load(from: statePath)
        var options = setup.options
        if options.speedGiven == nil { options.speedGiven = remembered.speed }
        if options.volume == nil { options.volume = remembered.volume }
        let opened = SessionHost.open(options, signals: signals) { session in
            if let backend = setup.backend { session.chat = SessionSetup.chatLink(backend.client.configuration) }
        }
        return opened.map { host in
            // Reports go where the Studio plays from (the demo's backend is no configured one).
            host.reportBackend = setup.backend?.client.configuration
            return StudioApp(setup: setup, terminal: terminal, host: host, remembered: remembered, statePath: statePath)
        }
    }

    package func run() -> Int32 {
        defer { host.close() }
        loadLibrary()
        if let positions = session.positions {
            model.played = Set(positions.all.filter { $0.value.played }.map(\.key))
            for warning in positions.warnings { setStatus(warning, error: true) }
        }
        if setup.autoplay == nil { restoreQueue() }
        start(setup.autoplay)
        // Before the Studio takes the screen: a warning about `auto_download` prints as a line.
        let inbox = self.inbox
        host.start { line in inbox.withLock { $0.error = line } }
        if setup.mode == .play, let status = openFirstItem() { return status }
        do {
            try terminal.enterRawMode()
        } catch {
            Console.fail("cannot use the terminal: \(error)")
            return ExitCode.failure
        }
        terminal.enterFullScreen()
        defer {
            // The notes and proactive requests end at once (their clients are cancelled) and are
            // joined, so nothing of theirs runs while the process exits.
            quitting.set()
            for worker in workers { worker.thread.join() }
            host.close()
            settleQueuePosition()
            terminal.restore()
            rememberVolumeAndSpeed()
        }
        refreshProactive()
        refreshReadings()
        draw()
        return host.run(self)
    }

    /// `play`: waits until the first item has opened (or failed) and checks `--start` against its
    /// length, before anything takes the screen, so a missing file, a file that is not audio or a
    /// start past the end is said in one line with the status `play` has off a terminal. Returns
    /// that status, or nil to go on. The probe is the playback itself: nothing is fetched twice.
    private func openFirstItem() -> Int32? {
        let queueCount = view.queue.count
        var checkStart = true
        while true {
            if let signal = host.signals.signal { return 128 + signal }
            for notice in session.nextNotices(timeout: nil) {
                earlyNotices.append(notice)
                switch notice {
                case .opened(_, let item, let format):
                    if checkStart, let status = PlaybackFrontEnd.checkStart(setup.options, format: format, item: item) {
                        return status
                    }
                    return nil
                case .failed(_, let item, let error):
                    Console.fail(PlaybackFrontEnd.failureLine(error, item: item, queueCount: queueCount))
                    exitStatus = ExitCode.failure
                    // What follows plays from its own start.
                    checkStart = false
                case .queueEnded:
                    return exitStatus
                default:
                    break
                }
            }
        }
    }

    // MARK: The host's turns

    package var descriptors: [Int32] { [0] }

    /// The next moment what is shown changes by itself: an escape key's wait, the clock's next
    /// second, a status line going, the backend's next try, the proactive refresh.
    package func deadline() -> Double? {
        let now = MonotonicClock.seconds()
        var times: [Double] = []
        if let escape = decoder.pendingDeadline { times.append(escape) }
        let episode = view.snapshot()
        switch episode.state {
        case .playing:
            let speed = max(0.1, episode.speed)
            let untilNextSecond = (1 - episode.position.truncatingRemainder(dividingBy: 1)) / speed
            times.append(now + min(1, max(0.02, untilNextSecond)))
        case .loading, .buffering, .reconnecting, .voicing:
            times.append(now + Self.bufferingFrame)
        default:
            break
        }
        if !view.voiceIsIdle { times.append(now + Self.bufferingFrame) }
        if let at = statusSetAt, model.status?.isError == false { times.append(at + Self.statusSeconds) }
        if let due = reconnect, !due.trying { times.append(due.at) }
        if let since = lastProactiveFetch { times.append(since + Self.proactiveInterval) }
        return times.min()
    }

    package func turn(_ notices: [SessionNotice], readable: Set<Int32>, signals: [Int32]) -> Int32? {
        if readable.contains(0) || decoder.pendingSince != nil { readKeys() }
        handleSignals(signals)
        collectEvents(notices)
        // Ending (q, quit, SIGHUP, SIGTERM): the place exactly as heard now, while the player still
        // has it; once the host has stopped it there is none, and the last step's is up to 5 s old.
        let ending = !running || session.quitRequested != nil
        rememberQueue(exact: ending || view.snapshot().state != .playing)
        guard running else { return exitStatus }
        // `quit` (q) ends with what the Studio has to say (a failed item), `quit N` with N.
        if let quit = session.quitRequested { return quit == 0 ? exitStatus : quit }
        draw()
        return nil
    }

    private func readKeys() {
        var keys: [Key] = []
        if !StandardInput.readAvailable({ keys += decoder.feed($0) }) { running = false }
        keys += decoder.flush(at: MonotonicClock.seconds())
        for key in keys { handle(key) }
    }

    private func handleSignals(_ signals: [Int32]) {
        for signal in signals {
            switch signal {
            case SIGWINCH: screen.invalidate()
            case SIGTSTP: suspend()
            case SIGCONT: resumeTerminal()
            default: stop(status: 128 + signal)
            }
        }
    }

    /// Ctrl-Z: give the terminal back as it was, stop, and take it again on `fg`.
    package func suspend() {
        terminal.suspend()
        kill(getpid(), SIGSTOP)
        resumeTerminal()
    }

    private func resumeTerminal() {
        do {
            try terminal.resume()
        } catch {
            setStatus("cannot take the terminal back: \(error)", error: true)
        }
        screen.invalidate()
    }

    package func draw() {
        guard let size = terminal.size() else { return }
        if let view = model.queueView { model.queueView = refreshedQueue(view) }
        let levels = view.levels
        model.volumePercent = levels.volumePercent
        model.muted = levels.muted
        var voice: (String, PlayerSnapshot)?
        if let title = view.voice.title, let snapshot = view.voiceSnapshot() { voice = (title, snapshot) }
        let episode = view.snapshot()
        var frame = StudioLayout(model: model, episode: episode, voice: voice, columns: size.columns, rows: size.rows).frame()
        // Scrolled for this frame's list height: the selection stays in view as the window shrinks,
        // and the list fills the window again as it grows.
        let scroll = model.scroll
        model.scrollToSelection(rows: frame.listRows)
        if model.scroll != scroll {
            frame = StudioLayout(model: model, episode: episode, voice: voice, columns: size.columns, rows: size.rows).frame()
        }
        listRows = frame.listRows
        model.notes?.scroll = frame.notesScroll
        let output = screen.render(frame.lines, columns: size.columns, rows: size.rows)
        if !output.isEmpty { terminal.write(output) }
    }

    /// Keeps the volume or speed the listener changed with keys (a flag holds for its run only).
    package func rememberVolumeAndSpeed() {
        var now = remembered
        let volume = view.levels.volumePercent
        if volume != opened.volume { now.volume = volume }
        let speed = view.snapshot().speed
        if speed != opened.speed { now.speed = speed }
        guard now != remembered else { return }
        if let failure = now.save(to: statePath) {
            Console.error("alicia-player: warning: cannot remember the volume and speed: \(failure)\n")
        }
    }

    /// Ends the loop with `status` (a signal's, or Ctrl-C's: raw mode turns it into a key).
    package func stop(status: Int32) {
        running = false
        exitStatus = status
    }

    package func setStatus(_ text: String, error: Bool = false) {
        model.status = (text, error)
        statusSetAt = MonotonicClock.seconds()
    }
}
