#if canImport(Glibc)
import Glibc
#endif

/// An advisory lock on a file (`flock`), held from `lock`/`tryLock` until `unlock` or `deinit`.
///
/// The lock files are never removed (they are empty): removing one while another process waits on
/// it would let a third process lock a new file of the same name, and both would think they held it.
///
/// `@unchecked Sendable`: a lock is made on one thread and may be kept by another (a list of
/// leases held for the process's life); `held` is only read and written by the owner that locks it.
package final class FileLock: @unchecked Sendable {
    package let path: String
    private let fd: Int32
    private var held = false

    /// Opens (creating) the lock file; nil with `errno` set when it cannot.
    package init?(path: String) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        self.path = path
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    /// Takes the lock without waiting; false when another descriptor holds it in a conflicting way.
    /// Wraps `flock(LOCK_NB)`.
    package func tryLock(shared: Bool = false) -> Bool {
        while true {
            if flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 {
                held = true
                return true
            }
            if errno != EINTR { return false }
        }
    }

    /// Waits for the lock. Wraps `flock`.
    package func lock(shared: Bool = false) {
        while flock(fd, shared ? LOCK_SH : LOCK_EX) != 0 && errno == EINTR {}
        held = true
    }

    package func unlock() {
        guard held else { return }
        flock(fd, LOCK_UN)
        held = false
    }
}
