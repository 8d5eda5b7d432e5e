#if canImport(Glibc)
import Glibc
#endif

/// The backend's "stopping" flag, and the one place that sleeps: body producers wait here (a rate
/// limit, a delay between chat tokens), and ``stop()`` wakes every such wait at once, so shutdown
/// never waits out a delay. `Synchronization.Mutex` has no condition variable, hence the pthread
/// mutex and a `CLOCK_MONOTONIC` condition.
final class StopSignal: @unchecked Sendable {
    // @unchecked: `stopped` is read and written only while `mutex` is held; `mutex` and `condition`
    // are allocated in init, never move, and are destroyed in deinit.
    private var stopped = false
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    var isStopped: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return stopped
    }

    /// Sets the flag and wakes every waiter. Idempotent.
    func stop() {
        pthread_mutex_lock(mutex)
        stopped = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits out `duration` (a chat delay, a rate limit); false if the backend stopped before or during it.
    func wait(for duration: Duration) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard duration > .zero else { return !stopped }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = duration.components
        var nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        nanoseconds %= 1_000_000_000
        deadline.tv_nsec = nanoseconds
        while !stopped {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        return !stopped
    }
}
