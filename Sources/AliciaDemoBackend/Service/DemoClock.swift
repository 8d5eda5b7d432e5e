#if canImport(Glibc)
import Glibc
#endif

/// The wall clock, for what the demo dates now (a proactive message added while it runs).
enum DemoClock {
    /// Seconds since 1970. Wraps `clock_gettime(CLOCK_REALTIME)`.
    static func now() -> Int {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        return Int(clock.tv_sec)
    }

    /// `YYYY-MM-DDThh:mm:ssZ`. Wraps `gmtime_r`.
    static func iso8601(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
