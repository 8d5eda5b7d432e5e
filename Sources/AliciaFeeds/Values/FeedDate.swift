/// Dates as feeds really write them, to UNIX seconds, and back to text.
///
/// Read: RFC 822 / RFC 1123 / RFC 2822 (`Sat, 07 Sep 2002 09:42:31 GMT`) with what generators and
/// hand-written feeds get wrong, as feedparser forgives it: a missing or wrong weekday (the
/// weekday is never checked), `Sept` and full month names in any case, the day after the month
/// (`Jan 5, 2024`, asctime), two-digit years (00-49 are 2000-2049, 50-99 are 1950-1999, as RFC
/// 2822 reads them), missing seconds or time, `AM`/`PM`, named zones (UT, GMT, Z, the US ones,
/// a few European and Asian ones), military letters, numeric offsets with or without a colon;
/// and ISO 8601 / RFC 3339 (`2024-01-05T10:00:00.123+01:00`, a space for the `T`, `Z`, date
/// alone). A missing zone is UTC. What cannot be read is nil: the item is kept without a date.
public enum FeedDate {
    /// `text` as UNIX seconds; nil when it is not a date this can read.
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8.drop { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) })
        guard bytes.count >= 6, bytes.count <= 100 else { return nil }
        if bytes.prefix(4).allSatisfy(isDigit) && (bytes[4] == UInt8(ascii: "-") || isDigit(bytes[4])) {
            return iso8601(bytes)
        }
        return rfc822(bytes)
    }

    /// `2026-12-07T03:53:46Z`.
    public static func iso8601(_ seconds: Int64) -> String {
        let (year, month, day, time) = civil(seconds)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(time / 3600, 2)):\(pad(time / 60 % 60, 2)):\(pad(time % 60, 2))Z"
    }

    /// `iso8601(seconds)` appended to `bytes` as ASCII, with no `String` made (a list of thousands).
    public static func iso8601(_ seconds: Int64, appendingTo bytes: inout [UInt8]) {
        let (year, month, day, time) = civil(seconds)
        func digits(_ value: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = max(0, value)
            if rest >= divisor * 10 { rest %= divisor * 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(time / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(time / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(time % 60, 2)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// `Mon, 07 Dec 2026 03:53:46 GMT` (RFC 1123: OPML's `dateCreated`).
    public static func rfc822(_ seconds: Int64) -> String {
        let (year, month, day, time) = civil(seconds)
        let days = floorDivide(seconds, 86_400)
        let weekday = weekdays[Int((days % 7 + 10) % 7)]
        return "\(weekday), \(pad(day, 2)) \(monthNames[Int(month) - 1].capitalizedASCII) \(pad(year, 4)) "
            + "\(pad(time / 3600, 2)):\(pad(time / 60 % 60, 2)):\(pad(time % 60, 2)) GMT"
    }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let fullMonthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                                 "october", "november", "december"]

    // MARK: ISO 8601

    /// `YYYY-MM-DD`, then optionally `THH:MM[:SS[.fff]]` and `Z` or `±HH[:MM]`; also the basic
    /// form without separators (`20240105T100000Z`).
    static func iso8601(_ bytes: [UInt8]) -> Int64? {
        var scanner = Scanner(bytes: bytes)
        guard let year = scanner.number(digits: 4) else { return nil }
        let extended = scanner.skip("-")
        guard let month = scanner.number(digits: 2), extended ? scanner.skip("-") : true, let day = scanner.number(digits: 2) else {
            return nil
        }
        var seconds: Int64 = 0
        if scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") {
            guard let hour = scanner.number(digits: 2), extended ? scanner.skip(":") : true, let minute = scanner.number(digits: 2) else {
                return nil
            }
            var second: Int64 = 0
            if (extended && scanner.skip(":")) || (!extended && scanner.peekDigit) {
                guard let value = scanner.number(digits: 2) else { return nil }
                second = value
                if scanner.skip(".") || scanner.skip(",") { scanner.skipDigits() }
            }
            guard let time = timeOfDay(hour, minute, second) else { return nil }
            seconds = time
            while scanner.skip(" ") {}
            guard let offset = isoOffset(&scanner) else { return nil }
            seconds -= offset
        }
        while scanner.skip(" ") {}
        guard scanner.atEnd, let days = days(year: year, month: month, day: day) else { return nil }
        return days * 86_400 + seconds
    }

    /// `Z`, `±HH`, `±HHMM`, `±HH:MM`, or nothing (UTC), in seconds east of UTC.
    private static func isoOffset(_ scanner: inout Scanner) -> Int64? {
        if scanner.skip("Z") || scanner.skip("z") || scanner.atEnd { return 0 }
        let sign: Int64
        if scanner.skip("+") { sign = 1 } else if scanner.skip("-") { sign = -1 } else { return nil }
        guard let hours = scanner.number(digits: 2) else { return nil }
        _ = scanner.skip(":")
        let minutes = scanner.number(digits: 2) ?? 0
        guard hours <= 23, minutes <= 59 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    // MARK: RFC 822 and relatives

    /// Reads the words and numbers in any reasonable order: the month is the word that names one,
    /// a number with `:` the time, a four-digit number (or the second small one) the year, the
    /// first small number the day, a signed number or a zone name the zone.
    static func rfc822(_ bytes: [UInt8]) -> Int64? {
        var parts = DateParts()
        for token in tokens(bytes) {
            guard parts.take(token) else { return nil }
        }
        guard let month = parts.month, let day = parts.day, let rawYear = parts.year,
              let days = days(year: fullYear(rawYear.value, digits: rawYear.digits), month: month, day: day) else { return nil }
        var (hour, minute, second) = parts.time ?? (0, 0, 0)
        if let pm = parts.pm {
            guard hour >= 1 && hour <= 12 else { return nil }
            hour = hour % 12 + (pm ? 12 : 0)
        }
        guard let time = timeOfDay(hour, minute, second) else { return nil }
        return days * 86_400 + time - (parts.offset ?? 0)
    }

    enum Token: Equatable {
        case word(String)
        case number(Int64, digits: Int)
        case time(Int64, Int64, Int64)
        case offset(Int64)
    }

    /// Words, numbers, `H:M[:S[.f]]` times and `±HHMM` offsets; commas, dots, slashes and dashes
    /// between them are separators.
    static func tokens(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var scanner = Scanner(bytes: bytes)
        while !scanner.atEnd {
            let byte = scanner.current
            if isLetter(byte) {
                tokens.append(.word(scanner.letters()))
            } else if isDigit(byte) {
                let start = scanner.position
                let value = scanner.digits()
                if scanner.skip(":") {
                    let minute = scanner.digits()
                    let second = scanner.skip(":") ? scanner.digits() : 0
                    if scanner.skip(".") { scanner.skipDigits() }
                    tokens.append(.time(value, minute, second))
                } else {
                    tokens.append(.number(value, digits: scanner.position - start))
                }
            } else if (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && scanner.nextIsDigit && tokens.contains(where: \.isTime) {
                scanner.advance()
                let start = scanner.position
                let value = scanner.digits()
                let count = scanner.position - start
                let minutes = scanner.skip(":") ? scanner.digits() : (count >= 3 ? value % 100 : 0)
                let hours = count >= 3 ? value / 100 : value
                let offset = hours * 3600 + minutes * 60
                tokens.append(.offset(byte == UInt8(ascii: "-") ? -offset : offset))
            } else {
                scanner.advance()
            }
        }
        return tokens
    }

    // MARK: Arithmetic

    /// Seconds into the day; nil when out of range (a leap second `:60` counts as `:59`).
    static func timeOfDay(_ hour: Int64, _ minute: Int64, _ second: Int64) -> Int64? {
        guard hour >= 0, hour <= 23, minute >= 0, minute <= 59, second >= 0, second <= 60 else { return nil }
        return hour * 3600 + minute * 60 + min(second, 59)
    }

    /// RFC 2822's reading of short years.
    static func fullYear(_ year: Int64, digits: Int) -> Int64 {
        switch digits {
        case 1, 2: year < 50 ? 2000 + year : 1900 + year
        case 3: 1900 + year
        default: year
        }
    }

    /// Days since 1970-01-01 of a valid proleptic Gregorian date (years 1-9999); nil otherwise.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64? {
        guard year >= 1, year <= 9999, month >= 1, month <= 12, day >= 1 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[Int(month) - 1] else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Year, month, day and seconds into the day of UNIX seconds (Hinnant's civil_from_days).
    static func civil(_ seconds: Int64) -> (year: Int64, month: Int64, day: Int64, time: Int64) {
        let days = floorDivide(seconds, 86_400)
        let time = seconds - days * 86_400
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day, time)
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
}

extension FeedDate.Token {
    var isTime: Bool {
        if case .time = self { return true }
        return false
    }
}

extension String {
    /// With its first letter upper-cased (ASCII).
    var capitalizedASCII: String {
        guard let first = utf8.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return self }
        return String(decoding: [first - 32] + utf8.dropFirst(), as: UTF8.self)
    }
}
