#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into a value the main loop reads.
///
/// The signals are blocked in every thread (install before any thread starts:
/// threads inherit the mask), and one thread takes them with `sigwait`, so no
/// code runs in a signal handler.
final class SignalWatcher: Sendable {
    private let received = Atomic<Int32>(0)
    private let onSignal: Mutex<(@Sendable () -> Void)?> = Mutex(nil)

    static let watched: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    init() {
        var set = Self.signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        // Writes to a closed socket must fail with EPIPE, not kill the process.
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        _ = NativeThread(name: "alicia-signals") { [self] in
            var set = Self.signalSet()
            while true {
                var signal: Int32 = 0
                guard sigwait(&set, &signal) == 0 else { continue }
                received.store(signal, ordering: .releasing)
                onSignal.withLock { $0 }?()
            }
        }
    }

    /// Called on the watcher's thread after each signal.
    func whenSignalled(_ action: @escaping @Sendable () -> Void) {
        onSignal.withLock { $0 = action }
    }

    /// The last signal received, if any.
    var signal: Int32? {
        let value = received.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in watched { sigaddset(&set, signal) }
        return set
    }
}
