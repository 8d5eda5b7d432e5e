/// The media file of an item (`enclosure`, Atom's `link rel="enclosure"`, `media:content`).
public struct FeedEnclosure: Sendable, Equatable {
    /// Absolute, http or https.
    public var url: String
    /// MIME type as the feed says it (`audio/mpeg`).
    public var type: String?
    /// Bytes, as the feed says (often 0 or wrong: a hint, never trusted for a download).
    public var length: Int64?

    public init(url: String, type: String? = nil, length: Int64? = nil) {
        self.url = url
        self.type = type
        self.length = length
    }
}
