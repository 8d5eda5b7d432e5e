#if canImport(Glibc)
import Glibc
#endif
import AliciaBackend
import AliciaControlClient
import AliciaLibrary
import AliciaLocks
import AliciaStore
import AliciaWatch

/// Options of `alicia-player watch`.
public struct WatchOptions: Equatable, Sendable {
    /// `--once`: one round, for cron.
    public var once = false
    /// `--interval`: seconds between rounds.
    public var interval = 60.0
    public var backend = BackendOptions()

    public init(once: Bool = false, interval: Double = 60) {
        self.once = once
        self.interval = interval
    }
}

/// `alicia-player watch`: the wiring of `Watcher` (backend, library database, the lines on stderr)
/// and its actions: a running player through its control socket, else a new `alicia-player`.
struct WatchCommand {
    let options: WatchOptions

    func run() -> Int32 {
        let session: BackendSession
        do {
            session = try BackendSession(options.backend)
        } catch {
            Console.fail("watch: " + error.message)
            return ExitCode.failure
        }
        var environment: [String: String] = [:]
        for key in ["XDG_DATA_HOME", "XDG_STATE_HOME", "HOME"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        guard let path = LibraryStore.defaultPath(environment: environment) else {
            Console.fail("watch: no library database: neither XDG_DATA_HOME nor HOME is set")
            return ExitCode.failure
        }
        let store: LibraryStore
        do {
            // No import of the old state (DECISIONS.md, "Positions stay in positions.json").
            store = try LibraryStore(path: path)
        } catch {
            Console.fail("watch: " + error.message)
            return ExitCode.failure
        }
        // Players started for an action are nobody's to wait for: the kernel reaps them.
        signal(SIGCHLD, SIG_IGN)
        let configuration = session.client.configuration
        let watcher = Watcher(options: .init(interval: options.interval, once: options.once), client: session.client, store: store,
                              perform: { Self.perform($0, baseURL: configuration.baseURL, token: configuration.token) },
                              say: { Console.fail("watch: " + $0) })
        return watcher.run()
    }

    /// Read aloud: `speak TEXT` to the first running player (its voice-note player holds the
    /// episode, as a note does), else `alicia-player speak TEXT`. Play: `play REF` to it, else
    /// `alicia-player play REF`.
    static func perform(_ action: Watcher.Action, baseURL: String, token: String?) {
        let words: [String]
        switch action {
        case .readAloud(let text): words = ["speak", text]
        case .play(let reference): words = ["play", reference]
        }
        if let socket = CtlCommand.runningSockets().first,
           CtlCommand(options: CtlOptions(ipcPath: socket, words: words)).run() == ExitCode.success {
            return
        }
        spawn(words, baseURL: baseURL, token: token)
    }

    /// This program again, on its own: the backend's address and token by the environment (never
    /// on a command line another user could read).
    private static func spawn(_ words: [String], baseURL: String, token: String?) {
        var variables = environ().filter { !$0.hasPrefix("ALICIA_BASE_URL=") && !$0.hasPrefix("ALICIA_TOKEN=") }
        variables += ["ALICIA_BASE_URL=" + baseURL] + (token.map { ["ALICIA_TOKEN=" + $0] } ?? [])
        let arguments = ["alicia-player"] + words
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let status = posix_spawn(&pid, "/proc/self/exe", nil, nil, argv, envp)
        if status != 0 { Console.fail("watch: cannot start alicia-player \(words[0]): \(String(cString: strerror(status)))") }
    }

    private static func environ() -> [String] {
        var list: [String] = []
        var pointer = Glibc.environ
        while let entry = pointer.pointee {
            list.append(String(cString: entry))
            pointer += 1
        }
        return list
    }
}
