/// `podcast:transcript`: one transcript of an item. A feed may give several (languages, forms);
/// all are kept, and `preferred(language:feedLanguage:)` picks the one to use.
public struct FeedTranscript: Sendable, Equatable {
    /// The forms in the order a player prefers them: WebVTT carries speakers and exact times, SRT
    /// times, Podcasting 2.0's JSON times and speakers but is rarer; HTML and plain text have no
    /// times at all.
    public enum Format: Int, Sendable, Comparable {
        case webVTT, subRip, json, other

        public static func < (lhs: Format, rhs: Format) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Absolute, http or https.
    public var url: String
    /// MIME type (`text/vtt`, `application/x-subrip`, `application/json`, `text/html`).
    public var type: String
    /// As the feed says it; nil means the feed's language (the namespace's default).
    public var language: String?
    /// `captions` when the transcript is timed for captions.
    public var rel: String?

    public init(url: String, type: String, language: String? = nil, rel: String? = nil) {
        self.url = url
        self.type = type
        self.language = language
        self.rel = rel
    }

    /// From the MIME type, else from the URL's extension.
    public var format: Format {
        let mime = type.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
        let path = url.split(separator: "?").first.map { $0.lowercased() } ?? ""
        if mime == "text/vtt" || path.hasSuffix(".vtt") { return .webVTT }
        if mime == "application/x-subrip" || mime == "application/srt" || mime == "text/srt" || path.hasSuffix(".srt") { return .subRip }
        if mime == "application/json" || path.hasSuffix(".json") { return .json }
        return .other
    }

    /// Whether two language tags name the same language (`en-US` and `en`): their primary
    /// subtags, case-insensitively.
    static func sameLanguage(_ lhs: String, _ rhs: String) -> Bool {
        func primary(_ tag: String) -> String {
            String(tag.trimmingSpaces.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
        }
        let (left, right) = (primary(lhs), primary(rhs))
        return !left.isEmpty && left == right
    }
}

extension Array where Element == FeedTranscript {
    /// The transcript to use for a listener whose language is `language`: one in that language
    /// first, then one in the feed's language (a transcript that names no language is in the
    /// feed's), then any; among those equal in language WebVTT, then SRT, then JSON, then the
    /// rest; among those equal in both, the feed's order. Nil when there are none.
    public func preferred(language: String?, feedLanguage: String? = nil) -> FeedTranscript? {
        func rank(_ transcript: FeedTranscript) -> Int {
            let own = transcript.language ?? feedLanguage
            if let language, let own, FeedTranscript.sameLanguage(language, own) { return 0 }
            if let feedLanguage, let own, FeedTranscript.sameLanguage(feedLanguage, own) { return 1 }
            return 2
        }
        return enumerated().min { lhs, rhs in
            (rank(lhs.element), lhs.element.format.rawValue, lhs.offset) < (rank(rhs.element), rhs.element.format.rawValue, rhs.offset)
        }?.element
    }
}
