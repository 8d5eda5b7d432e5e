#if canImport(Glibc)
import Glibc
#endif

/// HTTP dates in the IMF-fixdate form (`Wed, 01 Jan 2025 00:00:00 GMT`), the one servers send.
package enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    package static func format(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// Seconds since 1970 of an IMF-fixdate; nil for anything else (fields out of their ranges too:
    /// a year of -2147483648 once overflowed `year - 1900` and ended the server).
    package static func parse(_ text: String) -> Int? {
        let words = text.split(separator: " ")
        guard words.count == 6, words[5] == "GMT", let day = Int32(words[1]), (1...31).contains(day),
              let month = months.firstIndex(of: String(words[2])), let year = Int32(words[3]), (1...9999).contains(year) else { return nil }
        let clock = words[4].split(separator: ":")
        guard clock.count == 3, let hour = Int32(clock[0]), let minute = Int32(clock[1]), let second = Int32(clock[2]),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = Int32(month)
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Int(timegm(&parts))
    }
}
