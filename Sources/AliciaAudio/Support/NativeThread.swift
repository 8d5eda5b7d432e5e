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

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new thread; `name` says what it is for, in failures.
    public init(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body))
        let result = pthread_create(&handle, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
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

    deinit {
        if !joined { pthread_detach(handle) }
    }
}
