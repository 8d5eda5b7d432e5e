#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaLocks
import AliciaBackend
import AliciaSession
import AliciaTerminal
import AliciaLibrary
import AliciaHost

/// `alicia-player [studio]`: the interactive Studio over the configured backend.
/// Without a terminal it plays the library in order with plain status lines.
package struct StudioCommand {
    package let options: PlayOptions
    package let implicit: Bool
    /// `play` without arguments: without a backend, the local queue last left is taken up.
    package let continuing: Bool

    package init(options: PlayOptions, implicit: Bool, continuing: Bool = false) {
        self.options = options
        self.implicit = implicit
        self.continuing = continuing
    }

    package func run() -> Int32 {
        let signals = SignalWatcher(interactive: Studio.isInteractive)
        let backend: BackendSession
        do {
            backend = try BackendSession(options.backend)
        } catch .notConfigured(let configPath) where implicit {
            Console.fail("no command given, and no backend configured for the Studio (flags, ALICIA_BASE_URL or \(configPath)); "
                + "`alicia-player demo` runs one of its own")
            Console.error("Try 'alicia-player --help'.\n")
            return ExitCode.usage
        } catch .notConfigured where continuing {
            return continueLocally(signals)
        } catch {
            Console.fail(error.message)
            return ExitCode.failure
        }
        return Studio.open(backend: backend, backendName: backend.client.configuration.hostAndPort,
                           autoplay: nil, mode: .browse, options: options, signals: signals)
    }

    /// Without a backend: the queue a backend-less Studio left, if there is one.
    private func continueLocally(_ signals: SignalWatcher) -> Int32 {
        let path = ContinueListening.path(besides: ListenerState.path())
        guard let saved = ContinueListening.load(from: path), saved.backend.isEmpty else {
            Console.fail("play needs something to play: a URL, a path, an episode or playlist:NAME (no queue to continue in \(path))")
            Console.error("Try 'alicia-player play --help'.\n")
            return ExitCode.usage
        }
        return Studio.open(backend: nil, backendName: "", autoplay: nil, mode: .browse, options: options, signals: signals)
    }
}

/// Opening the Studio: interactive on a terminal, plain otherwise.
package enum Studio {
    /// Whether the Studio can take the terminal: stdin and stdout both are one.
    package static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// `signals` must have been made before any thread started. `--accessible`: the linear
    /// Studio, on a terminal or not; `voiceCues` (`play --voice-at`) are only taken there.
    package static func open(backend: BackendSession?, backendName: String, autoplay: StudioApp.Autoplay?,
                     mode: StudioApp.Mode, options: PlayOptions, signals: SignalWatcher,
                     voiceCues: [VoiceCue] = []) -> Int32 {
        if options.accessible {
            var setup = StudioApp.Setup(backend: backend, backendName: backendName, autoplay: autoplay, mode: mode, options: options)
            setup.voiceCues = voiceCues
            return LinearStudio.open(setup: setup, signals: signals)
        }
        guard isInteractive else {
            return PlainStudio.run(backend: backend, options: options, signals: signals, startingAt: autoplay)
        }
        let setup = StudioApp.Setup(backend: backend, backendName: backendName, autoplay: autoplay, mode: mode, options: options)
        return StudioApp.open(setup: setup, terminal: Terminal(), signals: signals)
    }
}

/// The Studio when stdout is not a terminal (a pipe, a log, systemd): it plays the library in
/// order from where it was asked to start and says what plays in plain, timestamp-free lines, at
/// most one every few seconds (none with --quiet).
package final class PlainStudio: HostedFrontEnd {
    private let host: SessionHost
    private let options: PlayOptions
    private let durations: [String: Double]
    private var status = ExitCode.success
    private var lastStatus = MonotonicClock.seconds()

    /// How often a status line is printed while playing (seconds).
    package static let statusInterval = 5.0

    private init(host: SessionHost, durations: [String: Double]) {
        self.host = host
        options = host.options
        self.durations = durations
    }

    package static func run(backend: BackendSession?, options: PlayOptions, signals: SignalWatcher,
                    startingAt autoplay: StudioApp.Autoplay?) -> Int32 {
        guard let backend else { return ExitCode.failure }
        let library: Library
        do {
            library = try backend.library()
        } catch {
            Console.fail(error.message)
            return ExitCode.failure
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
        switch SessionHost.open(options, signals: signals, voiceNotes: false) {
        case .failure(let failure): return failure.status
        case .success(let host):
            host.session.perform(.load(LoadPlan(Array(items[start...]))))
            host.reportBackend = backend.client.configuration
            host.start { Console.fail("warning: " + $0) }
            return host.run(PlainStudio(host: host, durations: durations))
        }
    }

    package var descriptors: [Int32] { [] }

    package func deadline() -> Double? { lastStatus + Self.statusInterval }

    package func turn(_ notices: [SessionNotice], readable: Set<Int32>, signals: [Int32]) -> Int32? {
        // `demo | head -1`: the reader has gone, so has the point of playing on.
        if !options.quiet && Console.stdoutClosed { return ExitCode.success }
        for notice in notices {
            switch notice {
            case .started(_, let item):
                say("playing \(item.label ?? "—") \(item.title) (\(TimeSpec.clock(durations[item.label ?? item.title] ?? 0)))")
                lastStatus = MonotonicClock.seconds()
            case .finished(_, let item?, _):
                say("finished \(item.label ?? "—") \(item.title)")
            case .failed(_, let item, let error):
                Console.fail(item.map { "\($0.label ?? $0.title): " }.map { $0 + error.message } ?? error.message)
                status = ExitCode.failure
            default:
                break
            }
        }
        if host.session.isFinished { return status }
        if MonotonicClock.seconds() - lastStatus >= Self.statusInterval {
            let snapshot = host.session.view.snapshot()
            if let item = snapshot.item {
                say("\(snapshot.state.rawValue) \(item.label ?? "—") \(TimeSpec.clock(snapshot.position)) / \(TimeSpec.clock(snapshot.duration ?? durations[item.label ?? item.title] ?? 0))")
            }
            lastStatus = MonotonicClock.seconds()
        }
        return nil
    }

    private func say(_ line: String) {
        if !options.quiet { Console.out(line + "\n") }
    }
}
