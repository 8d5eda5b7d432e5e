#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaControl
import AliciaSession
import AliciaLocks

/// The control socket and MPRIS of a playing command (`play`, `queue`, `script`, the Studio):
/// the socket bound before anything plays, so a second instance says so and stops at once.
enum RemoteControl {
    /// The socket `options` ask for, listening: nil with `--no-ipc`; an exit status (after saying
    /// why) when it cannot be had.
    static func listen(_ options: PlayOptions) -> Result<ControlSocket.Listener?, ExitStatus> {
        guard !options.noIPC else { return .success(nil) }
        let path = options.ipcPath ?? ControlSocket.defaultPath()
        do {
            return .success(try ControlSocket.listen(at: path, makeDirectory: options.ipcPath == nil))
        } catch {
            Console.fail(error.message)
            return .failure(ExitStatus(error.inUse ? CommandLineTool.Status.failure : CommandLineTool.Status.usage))
        }
    }

    struct ExitStatus: Error {
        let status: Int32
        init(_ status: Int32) { self.status = status }
    }

    /// Serves `session` on `listener` and on the session bus (MPRIS) when one answers.
    static func serve(_ session: ListeningSession, listener: ControlSocket.Listener?, options: PlayOptions) -> ControlServer {
        let resolver = SharedResolver(QueueResolver(backend: options.backend))
        let hooks = ControlServer.Hooks(version: CommandLineTool.version) { reference in
            resolver.lock.withLock { resolver in
                resolver.items(reference).mapError { ControlProblem($0.message) }
            }
        }
        return ControlServer(session: session, listener: listener, mpris: true, hooks: hooks)
    }
}

/// One resolver for the socket's requests (it keeps the backend and its library), one at a time.
private final class SharedResolver: Sendable {
    let lock: Locked<QueueResolver>
    init(_ resolver: sending QueueResolver) { lock = Locked(resolver) }
}
