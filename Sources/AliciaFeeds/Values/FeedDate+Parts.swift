extension FeedDate {
    /// What the tokens of an RFC 822-like date have said so far.
    struct DateParts {
        var month: Int64?
        var day: Int64?
        var year: (value: Int64, digits: Int)?
        var time: (Int64, Int64, Int64)?
        var pm: Bool?
        var namedOffset: Int64?
        var numericOffset: Int64?

        /// Seconds east of UTC: a numeric offset wins over a name (`GMT+0100`, `+0000 (UTC)`).
        var offset: Int64? { numericOffset ?? namedOffset }

        /// Takes one token; false when it contradicts what came before.
        mutating func take(_ token: Token) -> Bool {
            switch token {
            case .word(let word): return take(word: word)
            case .number(let value, let digits):
                if digits == 4 || value > 31 {
                    guard year == nil else { return false }
                    year = (value, digits)
                } else if day == nil {
                    day = value
                } else if year == nil {
                    year = (value, digits)
                } else {
                    return false
                }
            case .time(let hour, let minute, let second):
                guard time == nil else { return false }
                time = (hour, minute, second)
            case .offset(let seconds):
                guard numericOffset == nil else { return false }
                numericOffset = seconds
            }
            return true
        }

        /// Month names (three letters or more of one, or `Sept`), AM/PM and zone names count;
        /// weekdays and other words (`at`, `th`) are passed over.
        private mutating func take(word: String) -> Bool {
            if word.count >= 3, let index = FeedDate.fullMonthNames.firstIndex(where: { $0.hasPrefix(word) }) ?? (word == "sept" ? 8 : nil) {
                guard month == nil else { return false }
                month = Int64(index) + 1
            } else if word == "am" || word == "pm" {
                pm = word == "pm"
            } else if let offset = FeedDate.zones[word] {
                namedOffset = offset
            }
            return true
        }
    }

    /// Zone names in seconds east of UTC. The military letters are RFC 822's (A-I, K-M behind
    /// UTC, N-Y ahead of it, Z UTC), as feedparser reads them: RFC 1123 notes that 822 got their
    /// signs backwards, but a feed that writes one took it from 822.
    static let zones: [String: Int64] = {
        var zones: [String: Int64] = [
            "ut": 0, "utc": 0, "gmt": 0, "z": 0, "wet": 0,
            "est": -5 * 3600, "edt": -4 * 3600, "cst": -6 * 3600, "cdt": -5 * 3600,
            "mst": -7 * 3600, "mdt": -6 * 3600, "pst": -8 * 3600, "pdt": -7 * 3600,
            "ast": -4 * 3600, "adt": -3 * 3600, "akst": -9 * 3600, "akdt": -8 * 3600, "hst": -10 * 3600,
            "nst": -12_600, "ndt": -9000,
            "bst": 3600, "west": 3600, "cet": 3600, "met": 3600, "cest": 7200, "mest": 7200,
            "eet": 7200, "eest": 3 * 3600, "msk": 3 * 3600,
            "hkt": 8 * 3600, "sgt": 8 * 3600, "awst": 8 * 3600, "jst": 9 * 3600, "kst": 9 * 3600,
            "acst": 34_200, "acdt": 37_800, "aest": 10 * 3600, "aedt": 11 * 3600, "nzst": 12 * 3600, "nzdt": 13 * 3600,
        ]
        for (index, letter) in "abcdefghiklm".enumerated() { zones[String(letter)] = -Int64(index + 1) * 3600 }
        for (index, letter) in "nopqrstuvwxy".enumerated() { zones[String(letter)] = Int64(index + 1) * 3600 }
        return zones
    }()

    /// A cursor over the bytes of a date.
    struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        var atEnd: Bool { position >= bytes.count }
        var current: UInt8 { bytes[position] }
        var peekDigit: Bool { !atEnd && FeedDate.isDigit(current) }
        var nextIsDigit: Bool { position + 1 < bytes.count && FeedDate.isDigit(bytes[position + 1]) }

        mutating func advance() {
            position += 1
        }

        /// Skips `character` (ASCII) when it is next.
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard !atEnd, current == UInt8(character.value) else { return false }
            position += 1
            return true
        }

        /// Exactly `digits` digits as a number.
        mutating func number(digits: Int) -> Int64? {
            guard position + digits <= bytes.count, bytes[position..<(position + digits)].allSatisfy(FeedDate.isDigit) else { return nil }
            let value = bytes[position..<(position + digits)].reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
            position += digits
            return value
        }

        /// A run of digits as a number (at most 9 of them are counted; more cannot be a date's).
        mutating func digits() -> Int64 {
            var value: Int64 = 0
            var count = 0
            while peekDigit {
                if count < 9 { value = value * 10 + Int64(current - UInt8(ascii: "0")) } else { value = Int64.max / 2 }
                count += 1
                position += 1
            }
            return value
        }

        mutating func skipDigits() {
            while peekDigit { position += 1 }
        }

        /// A run of letters, lower-cased.
        mutating func letters() -> String {
            var word: [UInt8] = []
            while !atEnd, FeedDate.isLetter(current) {
                word.append(current | 0x20)
                position += 1
            }
            return String(decoding: word, as: UTF8.self)
        }
    }
}
