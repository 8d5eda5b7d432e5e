/// `podcast:person`: someone who made the show or an item.
public struct FeedPerson: Sendable, Equatable {
    public var name: String
    /// Podcast Taxonomy role, lower-cased; `host` when the feed says none (the namespace's default).
    public var role: String
    /// Lower-cased; `cast` when the feed says none.
    public var group: String
    public var imageURL: String?
    /// Their page.
    public var href: String?

    public init(name: String, role: String = "host", group: String = "cast", imageURL: String? = nil, href: String? = nil) {
        self.name = name
        self.role = role
        self.group = group
        self.imageURL = imageURL
        self.href = href
    }
}
