#if canImport(Glibc)
import Glibc
#endif

/// Times as the backend writes them: ISO 8601 in UTC, to the second (`2026-12-07T03:53:46Z`).
public enum ISO8601UTC {
    /// `seconds` since 1970 as `YYYY-MM-DDThh:mm:ssZ`. Wraps `gmtime_r`.
    public static func format(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return "\(digits(Int(parts.tm_year) + 1900, 4))-\(digits(Int(parts.tm_mon) + 1, 2))-\(digits(Int(parts.tm_mday), 2))"
            + "T\(digits(Int(parts.tm_hour), 2)):\(digits(Int(parts.tm_min), 2)):\(digits(Int(parts.tm_sec), 2))Z"
    }

    /// The day of `seconds` since 1970, `YYYY-MM-DD` (UTC).
    public static func day(_ seconds: Int) -> String {
        String(format(seconds).prefix(10))
    }

    /// Now, in whole seconds since 1970. Wraps `clock_gettime(CLOCK_REALTIME)`.
    public static func now() -> Int {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        return Int(clock.tv_sec)
    }

    /// Seconds since 1970 of `YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm|±hhmm)` (a space for the `T` too;
    /// no zone is read as UTC); nil for anything else or a field out of its range. Wraps `timegm`.
    public static func parse(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, let year = number(bytes, 0, 4), bytes[4] == UInt8(ascii: "-"),
              let month = number(bytes, 5, 2), bytes[7] == UInt8(ascii: "-"), let day = number(bytes, 8, 2),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") || bytes[10] == UInt8(ascii: " "),
              let hour = number(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(bytes, 14, 2),
              bytes[16] == UInt8(ascii: ":"), let second = number(bytes, 17, 2),
              (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second),
              let (fraction, offset) = fractionAndZone(bytes[19...]) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Double(timegm(&parts)) + fraction - Double(offset)
    }

    /// What follows the seconds: an optional fraction, then the zone as seconds east of UTC.
    private static func fractionAndZone(_ rest: ArraySlice<UInt8>) -> (Double, Int)? {
        var rest = rest
        var fraction = 0.0
        if rest.first == UInt8(ascii: ".") || rest.first == UInt8(ascii: ",") {
            rest = rest.dropFirst()
            var scale = 0.1
            let fractionDigits = rest.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard !fractionDigits.isEmpty else { return nil }
            for digit in fractionDigits {
                fraction += Double(digit - UInt8(ascii: "0")) * scale
                scale /= 10
            }
            rest = rest.dropFirst(fractionDigits.count)
        }
        guard let sign = rest.first else { return (fraction, 0) }
        if (sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z")) && rest.count == 1 { return (fraction, 0) }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let zone = Array(rest.dropFirst()).filter { $0 != UInt8(ascii: ":") }
        guard zone.count == 4, rest.count == (rest.contains(UInt8(ascii: ":")) ? 6 : 5),
              let hours = number(zone, 0, 2), let minutes = number(zone, 2, 2), hours < 24, minutes < 60 else { return nil }
        let offset = hours * 3600 + minutes * 60
        return (fraction, sign == UInt8(ascii: "+") ? offset : -offset)
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
