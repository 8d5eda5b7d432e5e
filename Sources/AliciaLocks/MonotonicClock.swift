#if canImport(Glibc)
import Glibc
#endif

/// Readings of `CLOCK_MONOTONIC` (and the one wall-clock reading the cache needs): the one clock of
/// every module. Not `ContinuousClock`: its code pages (two 64 KiB windows of the static runtime's
/// _Concurrency) stayed resident for a 5-second timer, and its `Instant`, whose layout is known only
/// at run time, made the metadata of the types holding one be built at start by demangling.
package enum MonotonicClock {
    package static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now
    }

    package static func nanoseconds() -> Int64 {
        let now = now()
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    package static func seconds() -> Double {
        let now = now()
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
    }

    /// The monotonic time `duration` from now, as a condition variable's deadline.
    package static func deadline(after duration: Duration) -> timespec {
        let (seconds, attoseconds) = duration.components
        let total = nanoseconds() + seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        return timespec(tv_sec: Int(total / 1_000_000_000), tv_nsec: Int(total % 1_000_000_000))
    }

    /// Milliseconds since 1970 (`CLOCK_REALTIME`): for "downloaded at", not for measuring.
    package static func realtimeMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
