/// What a feed says of its show (the channel): what a refresh writes over the stored show.
package struct ShowMetadata: Equatable, Sendable {
    package var title: String
    package var link: String?
    package var imageURL: String?
    package var description: String?
    package var author: String?
    package var language: String?
    /// Seconds between refreshes the feed asks for (`sy:updatePeriod`, `ttl`).
    package var updateFrequency: Int64?
    /// `itunes:new-feed-url`, when the feed announces a move (the refresh decides to follow it).
    package var newFeedURL: String?

    package init(title: String, link: String? = nil, imageURL: String? = nil, description: String? = nil,
                 author: String? = nil, language: String? = nil, updateFrequency: Int64? = nil, newFeedURL: String? = nil) {
        self.title = title
        self.link = link
        self.imageURL = imageURL
        self.description = description
        self.author = author
        self.language = language
        self.updateFrequency = updateFrequency
        self.newFeedURL = newFeedURL
    }
}
