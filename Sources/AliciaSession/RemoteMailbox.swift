import AliciaAudio
import AliciaLocks

/// Commands other threads (the control socket, MPRIS, a chat in flight) hand to a session, carried
/// out in order on the session's own thread the next time its front end reads notices
/// (`ListeningSession.notices()`), which `post` wakes. The session is owned by one thread; this is
/// how everyone else changes it, in the one vocabulary, without a lock around it.
public final class RemoteMailbox: Sendable {
    enum Letter: Sendable {
        case command(TransportCommand, reply: @Sendable (TransportReply) -> Void)
        /// What a chat started by `say` has heard so far (from its worker thread).
        case said(Int, SayEvent)
    }

    private let pending = Locked<[Letter]>([])
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    /// Carries out `command` on the session's thread, soon; `reply` is called there, once (for
    /// `say`, when Alicia has answered).
    public func post(_ command: TransportCommand, reply: @escaping @Sendable (TransportReply) -> Void = { _ in }) {
        deliver(.command(command, reply: reply))
    }

    func deliver(_ letter: Letter) {
        pending.withLock { $0.append(letter) }
        wake()
    }

    /// Every letter waiting now, oldest first.
    func take() -> [Letter] {
        pending.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
