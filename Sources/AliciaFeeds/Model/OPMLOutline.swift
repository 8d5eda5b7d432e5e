/// One subscription of an OPML list: a feed, with the categories (outer outlines) it was filed
/// under.
public struct OPMLOutline: Sendable, Equatable {
    /// `title`, else `text`, else the feed URL.
    public var title: String
    /// `xmlUrl`: absolute, http or https.
    public var feedURL: String
    /// `htmlUrl`.
    public var siteURL: String?
    /// The titles of the outlines around it, outermost first (`["Tech", "News"]`).
    public var categories: [String]

    public init(title: String, feedURL: String, siteURL: String? = nil, categories: [String] = []) {
        self.title = title
        self.feedURL = feedURL
        self.siteURL = siteURL
        self.categories = categories
    }
}
