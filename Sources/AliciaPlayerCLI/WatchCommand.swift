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
        guard let store = PodcastCommand.openLibrary(prefix: "watch: ") else { return ExitCode.failure }
        // Players started for an action are nobody's to wait for: the kernel reaps them.
        signal(SIGCHLD, SIG_IGN)
        let client = session.client
        let watcher = Watcher(options: .init(interval: options.interval, once: options.once), client: client, store: store,
                              perform: { Self.perform($0, client: client) },
                              say: { Console.fail("watch: " + $0) })
        return watcher.run()
    }

    /// Read aloud: with a player running, the text voiced here (`/api/speak`, asked again as the app
    /// does until every chunk is there) and its chunks sent as `voice URL` lines, which its
    /// voice-note player plays back to back over the episode, held as for any note; with none,
    /// `alicia-player speak TEXT`. Play: `play REF` to the running player, else `alicia-player play REF`.
    static func perform(_ action: Watcher.Action, client: BackendClient) {
        let configuration = client.configuration
        let socket = CtlCommand.runningSockets().first
        switch action {
        case .readAloud(let text):
            if let socket, let chunks = voiced(text, client: client) {
                for chunk in chunks where send(["voice", chunk], to: socket) != ExitCode.success { break }
                return
            }
            if socket == nil { spawn(["speak", text], baseURL: configuration.baseURL, token: configuration.token) }
        case .play(let reference):
            if let socket, send(["play", reference], to: socket) == ExitCode.success { return }
            spawn(["play", reference], baseURL: configuration.baseURL, token: configuration.token)
        }
    }

    private static func send(_ words: [String], to socket: String) -> Int32 {
        CtlCommand(options: CtlOptions(ipcPath: socket, words: words)).run()
    }

    /// The URLs of a text's chunks once `/api/speak` has them all; nil (after saying why)
    /// when it cannot be voiced, or is still not after the app's asks for about two minutes.
    static func voiced(_ text: String, client: BackendClient, policy: SpeechPollPolicy = .app) -> [String]? {
        for ask in 1...40 {
            do {
                let status = try client.speak(text)
                switch status.state {
                // Whole URLs, token included: a player of local files has no backend to join a
                // media path to. They go over the player's own socket (mode 0600), never shown.
                case .ready where !status.chunks.isEmpty: return status.chunks.map { client.mediaURL(for: $0.url) }
                case .failed, .empty:
                    Console.fail("watch: her message could not be voiced (\(status.status))")
                    return nil
                default: break
                }
            } catch {
                Console.fail("watch: read aloud: " + error.message)
                return nil
            }
            policy.wait(afterAsks: ask)
        }
        Console.fail("watch: her message was still being voiced after two minutes")
        return nil
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
