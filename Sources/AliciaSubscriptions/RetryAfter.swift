#if canImport(Glibc)
import Glibc
#endif
import AliciaFeeds

/// `Retry-After` (RFC 9110 §10.2.3): seconds, or an HTTP date.
enum RetryAfter {
    /// At most a day: a server that asks for more is asked again tomorrow.
    static let longest: Int64 = 86_400

    /// How many seconds from now `text` asks to wait, within 0 and a day; nil when it says nothing readable.
    static func seconds(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: " \t")
        if let seconds = Int64(trimmed) { return min(max(0, seconds), longest) }
        guard let date = FeedDate.parse(trimmed) else { return nil }
        return min(max(0, date - now()), longest)
    }

    /// UNIX seconds now.
    static func now() -> Int64 { Int64(time(nil)) }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        let scalars = Set(set.unicodeScalars)
        var text = Substring(self)
        while let first = text.unicodeScalars.first, scalars.contains(first) { text = text.dropFirst() }
        while let last = text.unicodeScalars.last, scalars.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
