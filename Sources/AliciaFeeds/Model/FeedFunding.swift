/// `podcast:funding`: where listeners can support the show.
public struct FeedFunding: Sendable, Equatable {
    public var url: String
    /// What the link says (`Support the show!`), plain text; may be empty.
    public var text: String

    public init(url: String, text: String = "") {
        self.url = url
        self.text = text
    }
}
