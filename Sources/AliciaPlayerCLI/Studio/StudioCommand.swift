#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaControl
import AliciaBackend
import AliciaSession
import AliciaTerminal

/// `alicia-player [studio]`: the interactive Studio over the configured backend.
/// Without a terminal it plays the library in order with plain status lines.
struct StudioCommand {
    let options: PlayOptions
    let implicit: Bool

    func run() -> Int32 {
        let signals = SignalWatcher(interactive: Studio.isInteractive)
        let backend: BackendSession
        do {
            backend = try BackendSession(options.backend)
        } catch .notConfigured(let configPath) where implicit {
            Console.fail("no command given, and no backend configured for the Studio (flags, ALICIA_BASE_URL or \(configPath)); "
                + "`alicia-player demo` runs one of its own")
            Console.error(UsageError("").hint + "\n")
            return CommandLineTool.Status.usage
        } catch {
            Console.fail(error.message)
            return CommandLineTool.Status.failure
        }
        return Studio.open(backend: backend, backendName: backend.client.configuration.hostAndPort,
                           autoplay: nil, mode: .browse, options: options, signals: signals)
    }
}

/// Opening the Studio: interactive on a terminal, plain otherwise.
enum Studio {
    /// Whether the Studio can take the terminal: stdin and stdout both are one.
    static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// `signals` must have been made before any thread started.
    static func open(backend: BackendSession?, backendName: String, autoplay: StudioApp.Autoplay?,
                     mode: StudioApp.Mode, options: PlayOptions, signals: SignalWatcher) -> Int32 {
        guard isInteractive else {
            return PlainStudio(backend: backend, options: options, signals: signals).run(startingAt: autoplay)
        }
        let terminal = Terminal()
        let app = StudioApp(setup: .init(backend: backend, backendName: backendName, autoplay: autoplay, mode: mode, options: options),
                            terminal: terminal, signals: signals)
        return app.run()
    }
}

/// The Studio when stdout is not a terminal (a pipe, a log, systemd): it plays
/// the library in order from where it was asked to start and says what plays in
/// plain, timestamp-free lines, at most one every few seconds (none with --quiet).
struct PlainStudio {
    let backend: BackendSession?
    let options: PlayOptions
    let signals: SignalWatcher

    /// How often a status line is printed while playing.
    static let statusInterval: Duration = .seconds(5)

    func run(startingAt autoplay: StudioApp.Autoplay?) -> Int32 {
        guard let backend else { return CommandLineTool.Status.failure }
        let library: Library
        do {
            library = try backend.library()
        } catch {
            Console.fail(error.message)
            return CommandLineTool.Status.failure
        }
        var items: [QueueItem] = []
        var start = 0
        for entry in library.entries where entry.episode.hasAudio {
            switch backend.item(for: entry.episode) {
            case .success(let item):
                if case .entry(_, let index)? = autoplay, index == entry.index { start = items.count }
                items.append(item)
            case .failure(let problem):
                // Offline, what was not downloaded is left out.
                if backend.offlineSince == nil { Console.fail(problem.message) }
            }
        }
        let durations = Dictionary(library.entries.map { ($0.episode.label ?? $0.episode.title, $0.episode.duration) },
                                   uniquingKeysWith: { first, _ in first })
        let listener: ControlSocket.Listener?
        switch RemoteControl.listen(options) {
        case .success(let bound): listener = bound
        case .failure(let failure): return failure.status
        }
        let session = ListeningSession(PlaybackSession.sessionOptions(options, voiceNotes: !options.noIPC))
        let waker = session.waker
        signals.whenSignalled { waker() }
        defer { session.close() }
        let remote = options.noIPC ? nil : RemoteControl.serve(session, listener: listener, options: options)
        defer { remote?.close() }
        session.play(Array(items[start...]))
        let downloads = AutoDownloader.start(options.autoDownload, player: session.player) { Console.fail("warning: " + $0) }
        defer { downloads?.close() }
        var status = CommandLineTool.Status.success
        var lastStatus = ContinuousClock.now
        while !session.isFinished {
            if let signal = signals.signal { return 128 + signal }
            session.tick()
            downloads?.update()
            // `demo | head -1`: the reader has gone, so has the point of playing on.
            if !options.quiet && Console.stdoutClosed { return CommandLineTool.Status.success }
            for notice in session.nextNotices(timeout: .milliseconds(500)) {
                switch notice {
                case .started(_, let item):
                    say("playing \(item.label ?? "—") \(item.title) (\(TimeSpec.clock(durations[item.label ?? item.title] ?? 0)))")
                    lastStatus = ContinuousClock.now
                case .finished(_, let item?, _):
                    say("finished \(item.label ?? "—") \(item.title)")
                case .failed(_, let item, let error):
                    Console.fail(item.map { "\($0.label ?? $0.title): " }.map { $0 + error.message } ?? error.message)
                    status = CommandLineTool.Status.failure
                default:
                    break
                }
            }
            if ContinuousClock.now - lastStatus >= Self.statusInterval, !session.isFinished {
                let snapshot = session.player.snapshot()
                if let item = snapshot.item {
                    say("\(snapshot.state.rawValue) \(item.label ?? "—") \(TimeSpec.clock(snapshot.position)) / \(TimeSpec.clock(snapshot.duration ?? durations[item.label ?? item.title] ?? 0))")
                }
                lastStatus = ContinuousClock.now
            }
        }
        if let quit = session.quitRequested, quit != 0 { return quit }
        return status
    }

    private func say(_ line: String) {
        if !options.quiet { Console.out(line + "\n") }
    }
}
