#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaLocks
import Synchronization
import AliciaLibrary
import AliciaSession

/// Turns signals into values the main loop reads: SIGINT, SIGTERM and SIGHUP
/// (stop), and for the interactive UI SIGWINCH, SIGTSTP and SIGCONT.
///
/// The signals are blocked in every thread (install before any thread starts:
/// threads inherit the mask), and one thread takes them with `sigwait`, so no
/// code runs in a signal handler. Each signal also makes `wakeDescriptor`
/// readable, for a loop that waits in `poll`.
package final class SignalWatcher: Sendable {
    private let received = Atomic<Int32>(0)
    private let pending = Locked<[Int32]>([])
    private let onSignal: Locked<(@Sendable () -> Void)?> = Locked(nil)
    /// Readable after a signal; `takePending` drains it.
    private let pipe = WakePipe()
    package var wakeDescriptor: Int32 { pipe.readDescriptor }

    package static let stopping: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    package static let interactive: [Int32] = [SIGWINCH, SIGTSTP, SIGCONT]

    package init(interactive: Bool = false) {
        let watched = Self.stopping + (interactive ? Self.interactive : [])
        var set = Self.signalSet(watched)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        // Writes to a closed socket must fail with EPIPE, not kill the process.
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        _ = NativeThread(name: "alicia-signals") { [self] in
            var set = Self.signalSet(watched)
            while true {
                var signal: Int32 = 0
                guard sigwait(&set, &signal) == 0 else { continue }
                Log.info(.cli, "signal \(signal) received")
                if Self.stopping.contains(signal) { received.store(signal, ordering: .releasing) }
                pending.withLock { $0.append(signal) }
                pipe.wake()
                onSignal.withLock { $0 }?()
            }
        }
    }

    /// Called on the watcher's thread after each signal.
    package func whenSignalled(_ action: @escaping @Sendable () -> Void) {
        onSignal.withLock { $0 = action }
    }

    /// The last stopping signal received, if any.
    package var signal: Int32? {
        let value = received.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    /// Every signal since the last call, oldest first.
    package func takePending() -> [Int32] {
        pipe.drain()
        return pending.withLock { signals in
            defer { signals.removeAll() }
            return signals
        }
    }

    private static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
