#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaControl
import AliciaBackend
import AliciaSession
import AliciaTerminal
import AliciaLocks
import Synchronization

/// The interactive Studio: the library, the now-playing panel, Alicia's words
/// and a composer, driven by keys. Runs on the main thread in a `poll` loop over
/// stdin and the signal watcher's descriptor; players, the chat stream and the
/// proactive refresh run on threads of their own and are read each frame.
final class StudioApp {
    /// What to start with.
    struct Setup {
        var backend: BackendSession?
        /// The backend's name for the header (no token).
        var backendName: String
        /// Play this at once: an entry of the library, or a stream of its own.
        var autoplay: Autoplay?
        var mode: Mode = .browse
        var options: PlayOptions
    }

    enum Mode {
        /// `studio`, `demo`: the Studio stays until the listener quits.
        case browse
        /// `play` on a terminal: the first item is opened before the Studio takes the screen (an
        /// error is said as off a terminal, with its exit status), and the Studio ends with the queue.
        case play
    }

    enum Autoplay {
        case entry(label: String?, index: Int)
        /// Items of their own (paths, URLs, or several episodes), played as the queue.
        case items([QueueItem])
    }

    private let setup: Setup
    private let terminal: Terminal
    private let signals: SignalWatcher
    private var model = StudioModel()
    private var decoder = KeyDecoder()
    private var screen = Screen()
    private let session: ListeningSession
    private var player: Player { session.player }
    private let voiceNotes: VoiceNotes
    private var listRows = 10
    private var running = true
    private var exitStatus = CommandLineTool.Status.success
    /// Written by the chat and proactive threads, read each frame.
    private let inbox = Mailbox()
    /// The chat, show-notes and proactive threads: joined once done, and all of them (cancelled) at exit.
    private var workers: [Worker] = []
    private let quitting = Flag()

    /// A background request's thread and whether it has finished.
    private struct Worker {
        let thread: NativeThread
        let done: Flag
    }

    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .releasing) }
        var isSet: Bool { value.load(ordering: .acquiring) }
    }
    private var lastProactiveFetch: ContinuousClock.Instant?
    private var pendingEscapeSince: ContinuousClock.Instant?
    private var statusSetAt: ContinuousClock.Instant?
    /// Notices read before the Studio took the screen, handled with the first frame's.
    private var earlyNotices: [SessionNotice] = []
    /// Lengths of the command line's items, by index, as they open.
    private var itemLengths: [Int: Double] = [:]
    /// Where the volume and speed are remembered, and what was there when the Studio opened.
    private let statePath: String
    private let remembered: ListenerState
    /// The volume and speed the Studio opened with (flags, else remembered): what keys change.
    private let opened: ListenerState

    private struct Inbox: Sendable {
        var reply: StudioModel.ChatPanel?
        var proactive: [ProactiveMessage]?
        var voiceNote: (location: MediaLocation, title: String)?
        var error: String?
        /// Show notes that arrived: the label they are of, the text or why not.
        var notes: (label: String, text: String?, error: String?)?
        /// Offline: whether the backend answered the last attempt to reach it.
        var backendAnswered: Bool?
    }

    /// What the chat and proactive threads leave for the main loop.
    private final class Mailbox: Sendable {
        private let state = Locked(Inbox())

        func withLock<R: Sendable>(_ body: (inout Inbox) -> R) -> R {
            state.withLock { body(&$0) }
        }
    }

    /// Frames while something moves (10 a second), and while idle (one a second).
    static let busyTick: Duration = .milliseconds(100)
    static let idleTick: Duration = .seconds(1)
    static let proactiveInterval: Duration = .seconds(60)
    /// Offline, the backend is asked again after 2 s, then after twice the last wait, at most 30 s:
    /// soon after a blip, and no more than twice a minute for a train ride.
    static let reconnectFirst: Duration = .seconds(2)
    static let reconnectLongest: Duration = .seconds(30)
    /// While the offline library is shown: when to ask the backend next, the wait before that, and
    /// whether an attempt is under way.
    private var reconnect: (at: ContinuousClock.Instant, wait: Duration, trying: Bool)?

    init(setup: Setup, terminal: Terminal, signals: SignalWatcher) {
        self.setup = setup
        self.terminal = terminal
        self.signals = signals
        var environment: [String: String] = [:]
        for key in ["XDG_STATE_HOME", "HOME"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        statePath = ListenerState.path(environment: environment)
        remembered = ListenerState.load(from: statePath)
        // The flags win; else what the Studio was left at last time.
        var options = setup.options
        if options.speedGiven == nil { options.speedGiven = remembered.speed }
        if options.volume == nil { options.volume = remembered.volume }
        session = ListeningSession(PlaybackSession.sessionOptions(options))
        voiceNotes = session.voiceNotes!
        model.backendName = setup.backendName
        model.hasBackend = setup.backend != nil
        model.volumePercent = options.volume ?? 100
        opened = ListenerState(volume: model.volumePercent, speed: options.speed)
    }

    func run() -> Int32 {
        // The socket is taken before anything plays: a second Studio says so and stops here.
        let listener: ControlSocket.Listener?
        switch RemoteControl.listen(setup.options) {
        case .success(let bound): listener = bound
        case .failure(let failure):
            session.close()
            return failure.status
        }
        let remote = setup.options.noIPC ? nil : RemoteControl.serve(session, listener: listener, options: setup.options)
        defer { remote?.close() }
        loadLibrary()
        if let positions = session.positions {
            model.played = Set(positions.all.filter { $0.value.played }.map(\.key))
            for warning in positions.warnings { setStatus(warning, error: true) }
        }
        start(setup.autoplay)
        // Before the Studio takes the screen: a warning about `auto_download` prints as a line.
        let inbox = self.inbox
        let downloads = AutoDownloader.start(setup.options.autoDownload, player: player) { line in inbox.withLock { $0.error = line } }
        defer { downloads?.close() }
        if setup.mode == .play, let status = openFirstItem() {
            session.close()
            return status
        }
        do {
            try terminal.enterRawMode()
        } catch {
            session.close()
            Console.fail("cannot use the terminal: \(error)")
            return CommandLineTool.Status.failure
        }
        terminal.enterFullScreen()
        defer {
            // The chat and proactive requests end at once (their clients are cancelled) and are
            // joined, so nothing of theirs runs while the process exits.
            quitting.set()
            for worker in workers { worker.thread.join() }
            remote?.close()
            session.close()
            terminal.restore()
            rememberVolumeAndSpeed()
        }
        refreshProactive()
        draw()
        while running {
            waitForInput()
            readKeys()
            handleSignals()
            collectEvents()
            session.tick()
            downloads?.update()
            draw()
        }
        return exitStatus
    }

    /// `play`: waits until the first item has opened (or failed) and checks `--start` against its
    /// length, before anything takes the screen, so a missing file, a file that is not audio or a
    /// start past the end is said in one line with the status `play` has off a terminal. Returns
    /// that status, or nil to go on. The probe is the playback itself: nothing is fetched twice.
    private func openFirstItem() -> Int32? {
        let waker = session.waker
        signals.whenSignalled { waker() }
        defer { signals.whenSignalled {} }
        let queueCount = player.queue.count
        var checkStart = true
        while true {
            if let signal = signals.signal { return 128 + signal }
            for notice in session.nextNotices(timeout: nil) {
                earlyNotices.append(notice)
                switch notice {
                case .opened(_, let item, let format):
                    if checkStart, let status = PlaybackSession.checkStart(setup.options, format: format, item: item) {
                        return status
                    }
                    return nil
                case .failed(_, let item, let error):
                    Console.fail(PlaybackSession.failureLine(error, item: item, queueCount: queueCount))
                    exitStatus = CommandLineTool.Status.failure
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

    // MARK: The loop

    private func waitForInput() {
        let busy = player.snapshot().state == .playing || !voiceNotes.isIdle || model.reply.streaming
            || pendingEscapeSince != nil
        let tick = busy ? Self.busyTick : Self.idleTick
        var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: signals.wakeDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: session.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        let milliseconds = Int32(tick.components.seconds * 1000 + tick.components.attoseconds / 1_000_000_000_000_000)
        _ = poll(&fds, nfds_t(fds.count), pendingEscapeSince != nil ? 50 : milliseconds)
    }

    private func readKeys() {
        var buffer = [UInt8](repeating: 0, count: 1024)
        var keys: [Key] = []
        while true {
            var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard poll(&fds, 1, 0) > 0 else { break }
            let n = read(0, &buffer, buffer.count)
            if n <= 0 {
                if n == 0 { running = false }
                break
            }
            keys += decoder.feed(buffer[0..<n])
        }
        if decoder.hasPendingInput {
            let now = ContinuousClock.now
            if let since = pendingEscapeSince, now - since >= .milliseconds(50) {
                keys += decoder.flush()
                pendingEscapeSince = nil
            } else if pendingEscapeSince == nil {
                pendingEscapeSince = now
            }
        } else {
            pendingEscapeSince = nil
        }
        for key in keys { handle(key) }
    }

    private func handleSignals() {
        for signal in signals.takePending() {
            switch signal {
            case SIGWINCH:
                screen.invalidate()
            case SIGTSTP:
                suspend()
            case SIGCONT:
                resumeTerminal()
            default:
                stop(status: 128 + signal)
            }
        }
    }

    /// Ctrl-Z: give the terminal back as it was, stop, and take it again on `fg`.
    private func suspend() {
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

    private func collectEvents() {
        let notices = earlyNotices + session.notices()
        earlyNotices = []
        for notice in notices {
            switch notice {
            case .started(_, let item):
                model.nowPlaying = nowPlaying(item)
            case .finished(_, let item, let truncated):
                if let item { model.played.insert(item.label ?? item.title) }
                if truncated {
                    setStatus("the file is truncated: played what was there", error: true)
                    if setup.mode == .play { exitStatus = CommandLineTool.Status.failure }
                }
            case .failed(_, let item, let error):
                setStatus(item.map { "\($0.title): " }.map { $0 + error.message } ?? error.message, error: true)
                if setup.mode == .play { exitStatus = CommandLineTool.Status.failure }
            case .voice(.failed(let title, let error)):
                setStatus("voice note \(title): \(error.message)", error: true)
            case .opened(_, let item, let format):
                learnLength(of: item, format)
            case .asleep:
                setStatus("asleep: paused, the position saved (space resumes 5 s back)")
            case .outputMoved(let move):
                setStatus(PlaybackSession.movedLine(move))
            case .queueEnded, .voice:
                break
            }
        }
        // `play` ends with what it was asked to play (or what the listener chose since).
        if setup.mode == .play && session.isFinished { running = false }
        // A remote `quit` (the control socket, MPRIS).
        if let quit = session.quitRequested { stop(status: quit) }
        let box = inbox.withLock { box -> Inbox in
            defer { box = Inbox() }
            return box
        }
        let (reply, proactive, error) = (box.reply, box.proactive, box.error)
        if let note = box.voiceNote { model.lastVoiceNote = note }
        if let reply { model.reply = reply }
        if let proactive { model.proactive = proactive }
        if let error { setStatus(error, error: true) }
        if let notes = box.notes, model.notes?.label == notes.label {
            model.notes?.text = notes.text.map(MarkdownText.plain)
            model.notes?.error = notes.error
        }
        if let answered = box.backendAnswered { reconnected(answered) }
        if let due = reconnect, !due.trying, ContinuousClock.now >= due.at { tryBackend() }
        if let since = lastProactiveFetch, ContinuousClock.now - since >= Self.proactiveInterval { refreshProactive() }
        workers.removeAll { worker in
            guard worker.done.isSet else { return false }
            worker.thread.join()
            return true
        }
        if let at = statusSetAt, ContinuousClock.now - at >= .seconds(8), model.status?.isError == false {
            model.status = nil
            statusSetAt = nil
        }
    }

    private func draw() {
        guard let size = terminal.size() else { return }
        if let view = model.queueView { model.queueView = refreshedQueue(view) }
        var voice: (String, PlayerSnapshot)?
        if let title = voiceNotes.nowPlaying.title { voice = (title, voiceNotes.player.snapshot()) }
        let episode = player.snapshot()
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

    // MARK: Keys

    private func handle(_ key: Key) {
        if model.composer != nil { return composing(key) }
        if model.search != nil { return searching(key) }
        if model.showHelp, key == .escape || key == .character("?") || key == .character("q") {
            model.showHelp = false
            return
        }
        if model.notes != nil, notesPane(key) { return }
        if model.queueView != nil, queueKeys(key) { return }
        // Esc or space while a voice note plays skips it (the episode has the focus back at once).
        if key == .escape || key == .character(" "), voiceNotes.nowPlaying.title != nil {
            voiceNotes.skip()
            setStatus("voice note skipped")
            return
        }
        guard let action = StudioAction.forKey(key, pageSize: max(1, listRows - 1)) else { return }
        Log.debug(.cli, "key \(key): \(action), selection \(model.selection) of \(model.visibleEntries.count)")
        perform(action)
    }

    private func perform(_ action: StudioAction) {
        switch action {
        case .togglePause:
            if player.snapshot().state == .idle && player.queue.isEmpty, let entry = model.selectedEntry {
                play(entry)
            } else {
                session.togglePause()
            }
        case .seek(let delta): player.seek(by: delta)
        case .seekToFraction(let fraction): player.seek(toFraction: fraction)
        case .next:
            if !session.next() { setStatus("this is the last in the queue") }
        case .previous:
            if !session.previous() { setStatus("this is the first in the queue") }
        case .volume(let steps):
            model.volumePercent = VolumeScale.stepped(model.volumePercent, by: steps)
            applyVolume()
            setStatus("volume \(VolumeScale.text(model.volumePercent))" + (model.muted ? " (muted: m unmutes)" : ""))
        case .mute:
            model.muted.toggle()
            applyVolume()
            setStatus(model.muted ? "muted (m unmutes)" : "volume \(VolumeScale.text(model.volumePercent))")
        case .speed(let delta):
            // In quarter steps, whatever the speed was set to on the command line.
            let speed = player.setSpeed(((player.snapshot().speed + delta) * 4).rounded() / 4)
            setStatus("speed \(ProgressLine.speedText(speed))")
        case .cycleSkipSilence:
            let level = session.cycleSilenceSkipping()
            setStatus(level == .off ? "skip silence off" : "skip silence: \(level.rawValue)")
        case .cycleSleepTimer:
            setStatus(StudioLayout.sleepText(session.cycleSleepTimer()).map { "sleep " + $0 } ?? "sleep timer off")
        case .replayVoiceNote:
            if let note = model.lastVoiceNote {
                voiceNotes.enqueue(note.location, title: note.title)
            } else {
                setStatus("no voice note yet: press t to talk to Alicia")
            }
        case .talk:
            if setup.backend == nil {
                setStatus("no backend: talking to Alicia needs one (see --help)", error: true)
            } else if model.reply.streaming {
                setStatus("Alicia is still answering")
            } else {
                model.composer = LineEditor()
            }
        case .playSelected:
            if let entry = model.selectedEntry { play(entry) }
        case .enqueueSelected, .playSelectedNext:
            guard let entry = model.selectedEntry else { return }
            var items: [QueueItem] = []
            if let playlist = playlist(for: entry) {
                items = playlistItems(playlist) ?? []
            } else if let item = item(for: entry) {
                items = [item]
            }
            guard !items.isEmpty else {
                setStatus("nothing to add: select an episode with audio")
                return
            }
            if action == .enqueueSelected {
                for item in items { session.append(item) }
            } else {
                for item in items.reversed() { session.playNext(item) }
            }
            setStatus("\(action == .enqueueSelected ? "added" : "plays next"): \(items.count == 1 ? items[0].title : entry.episode.title)")
        case .moveSelection(let delta): model.moveSelection(by: delta)
        case .selectFirst: model.selection = 0
        case .selectLast: model.moveSelection(by: model.visibleEntries.count)
        case .search:
            // A fresh query each time: the last one is not typed onto.
            model.search = LineEditor()
            setFilter("")
        case .showNotes: openNotes()
        case .showQueue:
            model.queueView = model.queueView == nil ? refreshedQueue(StudioModel.QueueView()) : nil
        case .saveQueue: saveQueue()
        case .help: model.showHelp.toggle()
        case .dismiss:
            model.showHelp = false
            model.status = nil
            if !model.filter.isEmpty {
                model.filter = ""
                model.selection = 0
            }
        case .redraw: screen.invalidate()
        case .suspend: suspend()
        case .quit: running = false
        case .interrupt: stop(status: 128 + SIGINT)
        }
    }

    /// Keys of the show notes pane: scrolling and closing; true when `key` was one (the others play,
    /// seek and so on as usual).
    private func notesPane(_ key: Key) -> Bool {
        let page = max(1, listRows - 2)
        switch key {
        case .escape, .character("i"), .character("q"): model.notes = nil
        case .up, .character("k"): model.notes?.scroll -= 1
        case .down, .character("j"): model.notes?.scroll += 1
        case .pageUp: model.notes?.scroll -= page
        case .pageDown: model.notes?.scroll += page
        case .home, .character("g"): model.notes?.scroll = 0
        case .end, .character("G"): model.notes?.scroll = Int.max / 2
        default: return false
        }
        return true
    }

    /// The queue view with the player's queue as it is now, the selection kept on its entry.
    private func refreshedQueue(_ view: StudioModel.QueueView) -> StudioModel.QueueView {
        var view = view
        let queue = player.queue
        let selected = view.entries.indices.contains(view.selection) ? view.entries[view.selection].id : nil
        view.entries = queue.entries
        view.current = player.snapshot().entry ?? queue.currentID
        if let selected, let index = queue.index(of: selected) {
            view.selection = index
        } else if view.entries.isEmpty || selected == nil {
            view.selection = view.current.flatMap { queue.index(of: $0) } ?? 0
        }
        view.selection = min(max(0, view.selection), max(0, view.entries.count - 1))
        let visible = max(1, listRows - 1)
        if view.selection < view.scroll { view.scroll = view.selection }
        if view.selection >= view.scroll + visible { view.scroll = view.selection - visible + 1 }
        return view
    }

    /// Keys of the queue view: select, play, remove (x), move (J down, K up), close.
    private func queueKeys(_ key: Key) -> Bool {
        guard var view = model.queueView else { return false }
        let selected = view.entries.indices.contains(view.selection) ? view.entries[view.selection] : nil
        switch key {
        case .escape, .character("Q"), .character("q"): model.queueView = nil
            return true
        case .up, .character("k"): view.selection -= 1
        case .down, .character("j"): view.selection += 1
        case .home, .character("g"): view.selection = 0
        case .end, .character("G"): view.selection = view.entries.count - 1
        case .enter:
            if let selected { player.jump(to: selected.id) }
        case .character("x"):
            if let selected {
                player.remove(selected.id)
                setStatus("removed from the queue: \(selected.item.title)")
            }
        case .character("J"), .character("K"):
            if let selected {
                let position = view.selection + (key == .character("J") ? 1 : -1)
                if position >= 0 && position < view.entries.count {
                    player.move(selected.id, to: position)
                    view.selection = position
                }
            }
        default:
            return false
        }
        view.selection = min(max(0, view.selection), max(0, view.entries.count - 1))
        model.queueView = refreshedQueue(view)
        // A moved entry stays selected where it went.
        if key == .character("J") || key == .character("K"), let moved = selected, let index = player.queue.index(of: moved.id) {
            model.queueView?.selection = index
        }
        return true
    }

    /// `w`: the queue as M3U8 in the state directory (episodes by label: a saved list holds no token).
    private func saveQueue() {
        let items = player.queue.entries.map(\.item)
        guard !items.isEmpty else {
            setStatus("nothing queued to save")
            return
        }
        guard let directory = PositionStore.defaultDirectory() else {
            setStatus("no state directory to save the queue in (set XDG_STATE_HOME or HOME)", error: true)
            return
        }
        let path = directory + "/queue.m3u8"
        switch PlayCommand.writeM3U8(items, to: path) {
        case nil: setStatus("queue saved: \(path) (alicia-player queue plays it)")
        case let problem?: setStatus(problem, error: true)
        }
    }

    /// `i`: fetches the selected episode's show notes on a thread of its own and opens the pane.
    private func openNotes() {
        guard let backend = setup.backend else {
            setStatus("no backend: show notes come from one")
            return
        }
        guard let entry = model.selectedEntry else { return }
        guard let label = entry.episode.label else {
            setStatus("\(entry.episode.title) has no label, so it has no show notes")
            return
        }
        model.showHelp = false
        model.notes = StudioModel.NotesPane(title: entry.episode.title, label: label)
        let configuration = backend.client.configuration
        let inbox = self.inbox
        let quitting = self.quitting
        let done = Flag()
        let thread = NativeThread(name: "alicia-notes") {
            defer { done.set() }
            do {
                let client = try BackendClient(configuration: configuration)
                client.cancel { quitting.isSet }
                let markdown = try client.showNotes(label: label)
                inbox.withLock { $0.notes = (label, markdown, nil) }
            } catch let error as BackendError {
                inbox.withLock { $0.notes = (label, nil, error.message) }
            } catch {
                inbox.withLock { $0.notes = (label, nil, "\(error)") }
            }
        }
        workers.append(Worker(thread: thread, done: done))
    }

    private func composing(_ key: Key) {
        switch key {
        case .escape:
            model.composer = nil
        case .enter:
            let text = model.composer?.text.trimmingCharacters() ?? ""
            model.composer = nil
            if !text.isEmpty { talk(text) }
        default:
            _ = model.composer?.handle(key)
        }
    }

    /// The search line: what is typed filters the list at once; enter keeps the filter and closes
    /// the line, Esc clears it and closes.
    private func searching(_ key: Key) {
        switch key {
        case .escape:
            model.search = nil
            setFilter("")
        case .enter:
            model.search = nil
        default:
            _ = model.search?.handle(key)
            setFilter(model.search?.text ?? "")
        }
    }

    private func setFilter(_ filter: String) {
        guard filter != model.filter else { return }
        model.filter = filter
        model.selection = 0
        model.scroll = 0
    }

    // MARK: Actions

    private func loadLibrary() {
        guard let backend = setup.backend else {
            model.library = queueLibrary()
            return
        }
        do {
            let library = try backend.library()
            model.libraryError = nil
            // Alicia's playlists, as a shelf of their own after the collections.
            do {
                playlists = try backend.playlists()
            } catch {
                setStatus("playlists: \(error.message)", error: true)
            }
            let shelf = playlists.map { playlist in
                Episode(title: playlist.name,
                        mood: "\(playlist.items.count) item\(playlist.items.count == 1 ? "" : "s")"
                            + (playlist.warming > 0 ? ", \(playlist.warming) warming" : ""),
                        duration: playlist.duration, symbol: "playlist", fileName: Self.playlistPrefix + playlist.id,
                        collection: "playlists", collectionTitle: "Playlists")
            }
            var episodes = library.entries.map(\.episode)
            model.offline = backend.offlineBanner
            if backend.offlineBanner == nil {
                reconnect = nil
            } else if reconnect == nil {
                reconnect = (ContinuousClock.now + Self.reconnectFirst, Self.reconnectFirst, false)
            }
            if let banner = backend.offlineBanner {
                // Offline: what was not downloaded cannot play; say so where its mood is.
                for index in episodes.indices where episodes[index].hasAudio
                    && !OfflineCache.isCached(key: episodes[index].label ?? episodes[index].fileName, mediaPath: episodes[index].fileName) {
                    episodes[index].mood = "unavailable offline"
                    episodes[index].fileName = nil
                }
                setStatus(banner)
            }
            model.library = Library(episodes + shelf)
        } catch {
            model.libraryError = error.message
            setStatus(error.message, error: true)
        }
    }

    /// Alicia's playlists, as the library's last shelf shows them.
    private var playlists: [Playlist] = []
    /// How a playlist's entry in the list is told from an episode's.
    static let playlistPrefix = "playlist:"

    /// The playlist a list entry stands for, if it stands for one.
    private func playlist(for entry: Library.Entry) -> Playlist? {
        guard let fileName = entry.episode.fileName, fileName.hasPrefix(Self.playlistPrefix) else { return nil }
        let id = fileName.dropFirst(Self.playlistPrefix.count)
        return playlists.first { $0.id == id }
    }

    /// The queue items of a playlist; items still warming are skipped (voicing them would hold the
    /// Studio for up to a minute: `play playlist:NAME` waits for them).
    private func playlistItems(_ playlist: Playlist) -> [QueueItem]? {
        guard let backend = setup.backend else { return nil }
        switch PlaylistCommands.items(of: playlist, backend: backend, voiceWarming: false) {
        case .success(let items):
            if playlist.warming > 0 { setStatus("\(playlist.warming) item\(playlist.warming == 1 ? " is" : "s are") still warming: skipped") }
            return items
        case .failure(let problem):
            setStatus(problem.message, error: true)
            return nil
        }
    }

    private func start(_ autoplay: Autoplay?) {
        switch autoplay {
        case .entry(_, let index)?:
            if let entry = model.library.entries.first(where: { $0.index == index }) {
                model.selection = model.visibleEntries.firstIndex(of: entry) ?? 0
                play(entry)
            }
        case .items(let items)?:
            session.play(items, from: setup.options.start, loop: setup.options.loop ? .queue : .off,
                         shuffle: setup.options.shuffle)
            if let first = items.first { model.nowPlaying = nowPlaying(first) }
        case nil:
            break
        }
    }

    /// Without a backend the list is the queue given on the command line, on one shelf, with each
    /// length once its file has opened (no season, label or length is made up).
    private func queueLibrary() -> Library {
        guard case .items(let items)? = setup.autoplay else { return Library([]) }
        return Library(items.enumerated().map { index, item in
            Episode(title: item.title, duration: itemLengths[index] ?? 0, fileName: "stream", label: item.label,
                    collection: "QUEUE", collectionTitle: "Queue")
        })
    }

    /// An item's length, learnt when it opened, for the list of a queue without a backend.
    private func learnLength(of item: QueueItem, _ format: AudioFormat) {
        guard setup.backend == nil, case .items(let items)? = setup.autoplay, let duration = format.duration,
              let index = items.firstIndex(of: item), itemLengths[index] != duration else { return }
        itemLengths[index] = duration
        model.library = queueLibrary()
    }

    /// Plays the library from `entry` on: the queue is every episode with audio, in library order,
    /// so `n` and `p` move through it and it plays on by itself.
    private func play(_ entry: Library.Entry) {
        guard setup.backend != nil else {
            // Items of their own: the list shows the queue; play from the selected one.
            if case .items(let items)? = setup.autoplay, let index = model.library.entries.firstIndex(of: entry) {
                session.play(items, at: index)
                model.nowPlaying = nowPlaying(items[index])
            }
            return
        }
        if let playlist = playlist(for: entry) {
            guard let items = playlistItems(playlist), let first = items.first else {
                if playlist.items.isEmpty { setStatus("\(playlist.name) is empty") }
                return
            }
            session.play(items)
            model.nowPlaying = nowPlaying(first)
            return
        }
        guard item(for: entry) != nil else {
            setStatus("\(entry.episode.label ?? entry.episode.title) has no audio yet")
            return
        }
        let playable = model.library.entries.filter { item(for: $0) != nil }
        let items = playable.compactMap(item(for:))
        guard let index = playable.firstIndex(of: entry) else { return }
        session.play(items, at: index)
        model.nowPlaying = nowPlaying(items[index])
    }

    /// The queue item of a library entry; nil when it has no audio.
    private func item(for entry: Library.Entry) -> QueueItem? {
        let episode = entry.episode
        if episode.fileName?.hasPrefix(Self.playlistPrefix) == true { return nil }
        guard let backend = setup.backend else {
            if case .items(let items)? = setup.autoplay, let index = model.library.entries.firstIndex(of: entry) {
                return items[index]
            }
            return nil
        }
        return try? backend.item(for: episode).get()
    }

    /// The now-playing panel's record of `item`: its library entry when it is one.
    private func nowPlaying(_ item: QueueItem) -> StudioModel.NowPlaying {
        let entry = model.library.entries.first { entry in
            if let label = item.label { return entry.episode.label == label }
            return entry.episode.title == item.title
        }
        return .init(title: item.title, label: item.label, mood: entry?.episode.mood ?? "", entryIndex: entry?.index)
    }

    /// Sends `text` to Alicia with voice replies on; the reply streams into the
    /// panel and its voice note plays through the voice-note player. The chat runs
    /// on a thread of its own with a client of its own (a curl handle is one thread's).
    private func talk(_ text: String) {
        guard let backend = setup.backend else { return }
        model.reply = .init(prompt: text, text: "", streaming: true, messageID: nil)
        let configuration = backend.client.configuration
        let inbox = self.inbox
        let voiceNotes = self.voiceNotes
        let quitting = self.quitting
        let done = Flag()
        let thread = NativeThread(name: "alicia-chat") {
            defer { done.set() }
            var panel = StudioModel.ChatPanel(prompt: text, text: "", streaming: true, messageID: nil)
            do {
                let client = try BackendClient(configuration: configuration)
                client.cancel { quitting.isSet }
                let reply = try client.chat(text, voice: true) { event in
                    switch event {
                    case .token(let piece):
                        panel.text += piece
                    case .voice(let path):
                        do {
                            let location = try MediaLocation(configuration.mediaURL(for: path))
                            let title = PlayCommand.fileName(location)
                            voiceNotes.enqueue(location, title: title)
                            inbox.withLock { $0.voiceNote = (location, title) }
                        } catch {
                            inbox.withLock { $0.error = "the voice note path '\(path)' does not make a URL" }
                        }
                    case .error(let message):
                        inbox.withLock { $0.error = "Alicia: \(message)" }
                    case .done(let id):
                        panel.messageID = id
                    case .unknown:
                        break
                    }
                    let snapshot = panel
                    inbox.withLock { $0.reply = snapshot }
                }
                panel.text = reply.text
            } catch let error as BackendError {
                inbox.withLock { $0.error = error.message }
            } catch {
                inbox.withLock { $0.error = "\(error)" }
            }
            panel.streaming = false
            let final = panel
            inbox.withLock { $0.reply = final }
        }
        workers.append(Worker(thread: thread, done: done))
    }

    /// Offline: asks the backend for the library on a thread of its own (the loop goes on); the
    /// answer comes back through the inbox as `backendAnswered`.
    private func tryBackend() {
        guard let backend = setup.backend, reconnect != nil else { return }
        reconnect?.trying = true
        let configuration = backend.client.configuration
        let inbox = self.inbox
        let quitting = self.quitting
        let done = Flag()
        let thread = NativeThread(name: "alicia-reconnect") {
            defer { done.set() }
            var answered = false
            do throws(BackendError) {
                let client = try BackendClient(configuration: configuration)
                client.cancel { quitting.isSet }
                _ = try client.tracks()
                answered = true
            } catch {
                // A refusal (401, a bad reply) is an answer too: the reload says what it is.
                answered = !error.isUnreachable
            }
            inbox.withLock { $0.backendAnswered = answered }
        }
        workers.append(Worker(thread: thread, done: done))
    }

    /// The backend answered (reload the library, keeping the selection and what plays) or did not
    /// (ask again after twice the wait, at most `reconnectLongest`).
    private func reconnected(_ answered: Bool) {
        guard let due = reconnect, let backend = setup.backend else { return }
        guard answered else {
            let wait = min(due.wait * 2, Self.reconnectLongest)
            reconnect = (ContinuousClock.now + wait, wait, false)
            return
        }
        let selected = model.selectedEntry.map { ($0.episode.label, $0.episode.title) }
        backend.forgetLibrary()
        reconnect = nil
        loadLibrary()
        if let selected, let index = model.visibleEntries.firstIndex(where: { $0.episode.label == selected.0 && $0.episode.title == selected.1 }) {
            model.selection = index
        }
        if model.nowPlaying != nil, let item = player.snapshot().item { model.nowPlaying = nowPlaying(item) }
        if model.offline == nil { setStatus("the backend is back: the library is up to date") }
    }

    private func refreshProactive() {
        lastProactiveFetch = ContinuousClock.now
        guard let backend = setup.backend else { return }
        let configuration = backend.client.configuration
        let inbox = self.inbox
        let quitting = self.quitting
        let done = Flag()
        let thread = NativeThread(name: "alicia-proactive") {
            defer { done.set() }
            do {
                let client = try BackendClient(configuration: configuration)
                client.cancel { quitting.isSet }
                let messages = try client.proactive(limit: 5)
                inbox.withLock { $0.proactive = messages }
            } catch let error as BackendError {
                inbox.withLock { $0.error = "proactive messages: \(error.message)" }
            } catch {
                inbox.withLock { $0.error = "proactive messages: \(error)" }
            }
        }
        workers.append(Worker(thread: thread, done: done))
    }

    /// The model's volume to both players, on the mixer's scale.
    private func applyVolume() {
        session.setVolume(model.muted ? 0 : VolumeScale.linear(percent: model.volumePercent))
    }

    /// Keeps the volume or speed the listener changed with keys (a flag holds for its run only).
    private func rememberVolumeAndSpeed() {
        var now = remembered
        if model.volumePercent != opened.volume { now.volume = model.volumePercent }
        let speed = player.snapshot().speed
        if speed != opened.speed { now.speed = speed }
        guard now != remembered else { return }
        if let failure = now.save(to: statePath) {
            Console.error("alicia-player: warning: cannot remember the volume and speed: \(failure)\n")
        }
    }

    /// Ends the loop with `status` (a signal's, or Ctrl-C's: raw mode turns it into a key).
    private func stop(status: Int32) {
        running = false
        exitStatus = status
    }

    private func setStatus(_ text: String, error: Bool = false) {
        model.status = (text, error)
        statusSetAt = ContinuousClock.now
    }
}
