#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaDemoBackend
import AliciaLocks
import AliciaLibrary
import AliciaHost
import AliciaStudio

/// `alicia-player demo`: starts the demo backend on 127.0.0.1 (a free port and a random token,
/// unless `--port`/`--token` say otherwise) and opens the Studio on its library, playing it in
/// order, as a listener would with a real backend. Nothing outside this machine is needed.
/// `demo --serve` runs the backend alone until a signal, for the other commands to be tried on it.
struct DemoCommand {
    let options: PlayOptions
    let demo: DemoOptions

    func run() -> Int32 {
        // Before the server's threads start: they must inherit the blocked signals.
        let signals = SignalWatcher(interactive: !demo.serve && Studio.isInteractive)
        let server: DemoBackend
        do {
            let voicing = demo.voicing.map { DemoBackend.Voicing(chunkDelays: $0.map { Duration.milliseconds(Int64(($0 * 1000).rounded())) }) }
            server = try DemoBackend(token: demo.token ?? DemoBackend.randomToken(), port: demo.port ?? 0, faults: .init(voicing: voicing),
                                     dialect: demo.dialect)
        } catch {
            Console.fail("cannot start the demo backend: \(error.message)")
            return ExitCode.failure
        }
        defer { server.stop() }
        if demo.serve { return serve(server, signals: signals) }
        let backend: BackendSession
        do {
            backend = BackendSession(client: try BackendClient(
                configuration: BackendConfiguration(baseURL: server.baseURL, token: server.token)))
        } catch {
            Console.fail(error.message)
            return ExitCode.failure
        }
        if !Studio.isInteractive {
            Console.error("Alicia's demo backend is on \(server.baseURL) (token ***). Ctrl-C stops.\n")
        }
        let first: StudioApp.Autoplay?
        do {
            first = try backend.library().entries.first(where: \.episode.hasAudio).map { .entry(label: $0.episode.label, index: $0.index) }
        } catch {
            Console.fail(error.message)
            return ExitCode.failure
        }
        return Studio.open(backend: backend, backendName: "demo backend on \(server.baseURL)",
                           autoplay: first, mode: .browse, options: options, signals: signals)
    }

    /// Prints the line that points a shell at the backend (the one place a token is shown: the
    /// demo's is a throwaway) and serves until a signal.
    private func serve(_ server: DemoBackend, signals: SignalWatcher) -> Int32 {
        Console.out(Self.exportLine(baseURL: server.baseURL, token: server.token) + "\n")
        Console.error("# Alicia's demo backend is on \(server.baseURL) until Ctrl-C; in another shell, run the line above, "
            + "then e.g. `alicia-player tracks`.\n")
        while signals.signal == nil {
            var fds = pollfd(fd: signals.wakeDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&fds, 1, -1)
            _ = signals.takePending()
        }
        return 128 + (signals.signal ?? SIGINT)
    }

    /// `export ALICIA_BASE_URL=… ALICIA_TOKEN=…`, each value quoted for a POSIX shell when it needs it.
    static func exportLine(baseURL: String, token: String) -> String {
        "export ALICIA_BASE_URL=\(shellQuoted(baseURL)) ALICIA_TOKEN=\(shellQuoted(token))"
    }

    /// `value` as one word for a POSIX shell: bare when it is only safe characters, else in single
    /// quotes (a quote inside becomes `'\''`).
    static func shellQuoted(_ value: String) -> String {
        let safe = value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return Array("-._~:/@%+=,".utf8).contains(byte)
            }
        }
        if safe && !value.isEmpty { return value }
        return "'" + value.replacing("'", with: "'\\''") + "'"
    }
}
