import AliciaAudio
import AliciaBackend
import AliciaDemoBackend

/// `alicia-player demo`: starts the demo backend on 127.0.0.1 (random port,
/// random token) and opens the Studio on its library, playing it in order, as
/// a listener would with a real backend. Nothing outside this machine is needed.
struct DemoCommand {
    let options: PlayOptions

    func run() -> Int32 {
        // Before the server's threads start: they must inherit the blocked signals.
        let signals = SignalWatcher(interactive: Studio.isInteractive)
        let server: DemoBackend
        let backend: BackendSession
        do {
            server = try DemoBackend(token: DemoBackend.randomToken())
            backend = BackendSession(client: try BackendClient(
                configuration: BackendConfiguration(baseURL: server.baseURL, token: server.token)))
        } catch let error as BackendError {
            Console.fail(error.message)
            return CommandLineTool.Status.failure
        } catch {
            Console.fail("cannot start the demo backend: \(error)")
            return CommandLineTool.Status.failure
        }
        defer { server.stop() }
        if !Studio.isInteractive {
            Console.error("Alicia's demo backend is on \(server.baseURL) (token ***). Ctrl-C stops.\n")
        }
        let first: StudioApp.Autoplay?
        do {
            first = try backend.library().entries.first(where: \.episode.hasAudio).map { .entry(label: $0.episode.label, index: $0.index) }
        } catch {
            Console.fail(error.message)
            return CommandLineTool.Status.failure
        }
        return Studio.open(backend: backend, backendName: "demo backend on \(server.baseURL)",
                           autoplay: first, options: options, signals: signals)
    }
}
