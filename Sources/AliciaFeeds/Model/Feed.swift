/// A podcast feed as read: the show and its items. Everything a feed may leave out is optional or
/// empty; what went wrong while reading it is in `warnings` (feedparser's "bozo": a problem with
/// a feed or an item is a warning, never a failed feed).
public struct Feed: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// RSS 2.0, and 0.91-0.94 read the same way.
        case rss
        /// RSS 1.0 (and 0.90): RDF, items beside the channel.
        case rdf
        case atom
    }

    public var kind: Kind
    /// Plain text (tags stripped, entities decoded, white space collapsed).
    public var title = ""
    /// The show's web page.
    public var link: String?
    /// Plain text.
    public var description = ""
    public var author: String?
    /// As the feed writes it (`en-us`).
    public var language: String?
    public var imageURL: String?
    /// `itunes:new-feed-url`: where the show has moved (a subscription follows it).
    public var newFeedURL: String?
    /// `podcast:guid`: the show's identity across hosts.
    public var podcastGUID: String?
    /// Seconds between updates, as the feed says (`podcast:updateFrequency`, else `sy:` or `ttl`).
    public var updateFrequency: Int64?
    /// `itunes:complete`: no more items will come.
    public var complete = false
    /// `itunes:block`: the show asks not to be listed.
    public var block = false
    public var funding: [FeedFunding] = []
    public var persons: [FeedPerson] = []
    /// In the feed's order.
    public var items: [FeedItem] = []
    public var warnings: [String] = []
}
