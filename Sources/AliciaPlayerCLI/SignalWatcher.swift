#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaLocks
import Synchronization

/// Turns signals into values the main loop reads: SIGINT, SIGTERM and SIGHUP
/// (stop), and for the interactive UI SIGWINCH, SIGTSTP and SIGCONT.
///
/// The signals are blocked in every thread (install before any thread starts:
/// threads inherit the mask), and one thread takes them with `sigwait`, so no
/// code runs in a signal handler. Each signal also makes `wakeDescriptor`
/// readable, for a loop that waits in `poll`.
final class SignalWatcher: Sendable {
    private let received = Atomic<Int32>(0)
    private let pending = Locked<[Int32]>([])
    private let onSignal: Locked<(@Sendable () -> Void)?> = Locked(nil)
    /// Readable after a signal; `takePending` drains it.
    let wakeDescriptor: Int32
    private let wakeWriter: Int32

    static let stopping: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    static let interactive: [Int32] = [SIGWINCH, SIGTSTP, SIGCONT]

    init(interactive: Bool = false) {
        let watched = Self.stopping + (interactive ? Self.interactive : [])
        var set = Self.signalSet(watched)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        // Writes to a closed socket must fail with EPIPE, not kill the process.
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        }
        wakeDescriptor = ends[0]
        wakeWriter = ends[1]
        _ = NativeThread(name: "alicia-signals") { [self] in
            var set = Self.signalSet(watched)
            while true {
                var signal: Int32 = 0
                guard sigwait(&set, &signal) == 0 else { continue }
                if Self.stopping.contains(signal) { received.store(signal, ordering: .releasing) }
                pending.withLock { $0.append(signal) }
                var byte: UInt8 = 1
                _ = write(wakeWriter, &byte, 1)
                onSignal.withLock { $0 }?()
            }
        }
    }

    /// Called on the watcher's thread after each signal.
    func whenSignalled(_ action: @escaping @Sendable () -> Void) {
        onSignal.withLock { $0 = action }
    }

    /// The last stopping signal received, if any.
    var signal: Int32? {
        let value = received.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    /// Every signal since the last call, oldest first.
    func takePending() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeDescriptor, &buffer, buffer.count) > 0 {}
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
