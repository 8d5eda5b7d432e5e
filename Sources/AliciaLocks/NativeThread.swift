#if canImport(Glibc)
import Glibc
#endif

/// A joinable pthread running one closure: the fetch and feeder threads block
/// on purpose (network, audio device), so they are not Swift tasks.
public final class NativeThread: @unchecked Sendable {
    // @unchecked: `handle` is written once in `init` before any other thread can
    // see `self`, and read only by `join`, which the owner calls once.
    private var handle = pthread_t()
    private var joined = false

    /// Set once the body has returned (the thread is about to end): what `join(within:)` waits for.
    private let finished = ConditionLock(false)

    private final class Box {
        package let body: () -> Void
        package let finished: ConditionLock<Bool>
        package init(_ body: @escaping () -> Void, finished: ConditionLock<Bool>) {
            self.body = body
            self.finished = finished
        }
    }

    /// Starts `body` on a new thread; `name` says what it is for, in failures.
    public init(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body, finished: finished))
        let result = pthread_create(&handle, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            box.finished.update { $0 = true }
            return nil
        }, box.toOpaque())
        precondition(result == 0, "pthread_create failed (\(result)) for thread \(name)")
    }

    /// Waits for the thread to finish. Call once, never from the thread itself.
    public func join() {
        guard !joined else { return }
        joined = true
        pthread_join(handle, nil)
    }

    /// Waits at most `patience` for the thread to finish; false if it is still running then (it is
    /// left running, detached when this object goes). For a thread that may be stuck where no
    /// interruption reaches, such as a decoder spinning inside a C library. (glibc's
    /// `pthread_timedjoin_np` does not import: the body's end is signalled instead.)
    public func join(within patience: Duration) -> Bool {
        guard !joined else { return true }
        guard finished.withLock(waitingUntil: { $0 }, timeout: patience, { $0 }) else { return false }
        join()
        return true
    }

    deinit {
        if !joined { pthread_detach(handle) }
    }
}
