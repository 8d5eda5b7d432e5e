#if canImport(Glibc)
import Glibc
#endif

/// A value behind a pthread mutex, used where `Synchronization.Mutex` would be.
///
/// On Linux the standard library's `Mutex` hands a contended lock from one thread to the next
/// through the kernel (priority-inheriting futexes), where ThreadSanitizer cannot see it: every
/// contended `withLock` is reported as a race on the value it guards (four threads appending under
/// one `Mutex` are reported at once). ThreadSanitizer intercepts pthread mutexes, so with this lock
/// the sanitizer pass reports only real races. The cost is a heap-allocated mutex and a call; the
/// locks here are taken a few hundred times a second at most.
///
/// Give it a value that takes space: ThreadSanitizer places a zero-sized one (`Locked(())`) at the
/// object's own address and reports a race with the reads of its header.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only while `mutex` is held.
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init(_ initial: Value) {
        value = initial
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
