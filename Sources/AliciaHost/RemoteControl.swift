#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaControl
import AliciaSession
import AliciaLocks
import AliciaLibrary

/// The control socket and MPRIS of a playing command (`play`, `queue`, `script`, the Studio):
/// the socket bound before anything plays, so a second instance says so and stops at once.
package enum RemoteControl {
    /// The socket `options` ask for, listening: nil with `--no-ipc`; an exit status (after saying
    /// why) when it cannot be had.
    package static func listen(_ options: PlayOptions) -> Result<ControlSocket.Listener?, ExitStatus> {
        guard !options.noIPC else { return .success(nil) }
        let path = options.ipcPath ?? options.ipcName.map(ControlSocket.path(named:)) ?? ControlSocket.defaultPath()
        do {
            return .success(try ControlSocket.listen(at: path, makeDirectory: options.ipcPath == nil))
        } catch {
            Console.fail(error.message)
            return .failure(ExitStatus(error.inUse ? ExitCode.failure : ExitCode.usage))
        }
    }

    package struct ExitStatus: Error {
        package let status: Int32
        package init(_ status: Int32) { self.status = status }
    }

    /// Serves `session` on `listener` and on the session bus (MPRIS) when one answers.
    package static func serve(_ session: ListeningSession, listener: ControlSocket.Listener?, options: PlayOptions) -> ControlServer {
        let resolver = SharedResolver(QueueResolver(backend: options.backend))
        let hooks = ControlServer.Hooks(version: Product.version) { reference in
            resolver.lock.withLock { resolver in
                resolver.items(reference).mapError { ControlProblem($0.message) }
            }
        }
        return ControlServer(session: session, listener: listener, mpris: true, hooks: hooks)
    }
}

/// One resolver for the socket's requests (it keeps the backend and its library), one at a time.
private final class SharedResolver: Sendable {
    package let lock: Locked<QueueResolver>
    package init(_ resolver: sending QueueResolver) { lock = Locked(resolver) }
}
