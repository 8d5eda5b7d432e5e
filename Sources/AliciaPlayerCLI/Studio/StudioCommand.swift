#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
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
        } catch .notConfigured where implicit {
            Console.fail("no command given, and no backend configured for the Studio")
            Console.error(Invocation.usage + "\n")
            return CommandLineTool.Status.usage
        } catch {
            Console.fail(error.message)
            return CommandLineTool.Status.failure
        }
        return Studio.open(backend: backend, backendName: backend.client.configuration.hostAndPort,
                           autoplay: nil, options: options, signals: signals)
    }
}

/// Opening the Studio: interactive on a terminal, plain otherwise.
enum Studio {
    /// Whether the Studio can take the terminal: stdin and stdout both are one.
    static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// `signals` must have been made before any thread started.
    static func open(backend: BackendSession?, backendName: String, autoplay: StudioApp.Autoplay?,
                     options: PlayOptions, signals: SignalWatcher) -> Int32 {
        guard isInteractive else {
            return PlainStudio(backend: backend, options: options, signals: signals).run(startingAt: autoplay)
        }
        let terminal = Terminal()
        let app = StudioApp(setup: .init(backend: backend, backendName: backendName, autoplay: autoplay, options: options),
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
        var entries = library.entries.filter(\.episode.hasAudio)
        if case .entry(_, let index)? = autoplay, let first = entries.firstIndex(where: { $0.index == index }) {
            entries = Array(entries[first...])
        }
        var configuration = PlayerConfiguration(device: options.device)
        configuration.readAheadSeconds = options.readAheadSeconds
        let player = Player(configuration: configuration)
        player.setSpeed(options.speed)
        signals.whenSignalled { player.wakeEventWaiters() }
        defer { player.stop() }
        var status = CommandLineTool.Status.success
        for entry in entries {
            let episode = entry.episode
            guard let fileName = episode.fileName else { continue }
            let location: MediaLocation
            do {
                location = try MediaLocation(backend.client.mediaURL(for: fileName))
                try player.play(location)
            } catch {
                Console.fail("\(episode.label ?? episode.title): \(error)")
                status = CommandLineTool.Status.failure
                continue
            }
            say("playing \(episode.label ?? "—") \(episode.title) (\(TimeSpec.clock(episode.duration)))")
            var lastStatus = ContinuousClock.now
            playing: while true {
                if let signal = signals.signal { return 128 + signal }
                switch player.nextEvent(timeout: .milliseconds(500)) {
                case .ended:
                    say("finished \(episode.label ?? "—") \(episode.title)")
                    break playing
                case .failed(let error):
                    Console.fail(error.message)
                    status = CommandLineTool.Status.failure
                    break playing
                default:
                    if ContinuousClock.now - lastStatus >= Self.statusInterval {
                        let snapshot = player.snapshot()
                        say("\(snapshot.state.rawValue) \(episode.label ?? "—") \(TimeSpec.clock(snapshot.position)) / \(TimeSpec.clock(snapshot.duration ?? episode.duration))")
                        lastStatus = ContinuousClock.now
                    }
                }
            }
        }
        return status
    }

    private func say(_ line: String) {
        if !options.quiet { Console.out(line + "\n") }
    }
}
