#if canImport(Glibc)
import Glibc
#endif

/// A mutex with a condition variable, guarding a value of type `State`.
///
/// `Synchronization.Mutex` has no condition variable, and the audio path needs
/// blocking waits that another thread can end (new data, a seek, a shutdown).
/// This is the one place that pairs them: a heap-allocated pthread mutex and a
/// `CLOCK_MONOTONIC` condition.
package final class ConditionLock<State: ~Copyable>: @unchecked Sendable {
    // @unchecked: `state` is read and written only while `mutex` is held.
    private var state: State
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init(_ initial: consuming State) {
        state = initial
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

    /// Runs `body` with the lock held.
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Waits until `ready` holds (or the timeout passes), then runs `body`,
    /// all with the lock held. `ready` is re-checked after every wake-up.
    package func withLock<R>(
        waitingUntil ready: (inout State) -> Bool,
        timeout: Duration? = nil,
        _ body: (inout State) throws -> R
    ) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let timeout {
            let deadline = MonotonicClock.deadline(after: timeout)
            var remaining = deadline
            while !ready(&state) {
                if pthread_cond_timedwait(condition, mutex, &remaining) == ETIMEDOUT { break }
                remaining = deadline
            }
        } else {
            while !ready(&state) { pthread_cond_wait(condition, mutex) }
        }
        return try body(&state)
    }

    /// Wakes every thread waiting in `withLock(waitingUntil:)`.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Changes the state and wakes the waiters.
    package func update<R>(_ body: (inout State) throws -> R) rethrows -> R {
        let result = try withLock(body)
        broadcast()
        return result
    }
}
