/// What a feed says of one episode (an item): what a refresh writes.
package struct EpisodeInfo: Equatable, Sendable {
    /// The item's guid (or what the feed code stands in for one): unique within its show.
    package var guid: String
    package var title: String
    /// The enclosure.
    package var url: String?
    package var mime: String?
    package var bytes: Int64?
    /// UNIX seconds; nil when the feed gives no date.
    package var published: Int64?
    /// Seconds.
    package var duration: Int64?
    package var summary: String?
    package var notesHTML: String?
    package var imageURL: String?
    package var chaptersURL: String?
    package var chaptersType: String?
    /// JSON text: `[{"url", "type", "language", "rel"}]`.
    package var transcripts: String?
    package var season: Int64?
    package var episode: Int64?
    /// `full`, `trailer`, `bonus`.
    package var episodeType: String?
    /// JSON text.
    package var persons: String?
    /// JSON text.
    package var funding: String?
    /// The key its position is kept under (`PositionStore.key`); nil for the enclosure's URL, else the guid.
    package var positionKey: String?

    package init(guid: String, title: String, url: String? = nil, mime: String? = nil, bytes: Int64? = nil,
                 published: Int64? = nil, duration: Int64? = nil, summary: String? = nil, notesHTML: String? = nil,
                 imageURL: String? = nil, chaptersURL: String? = nil, chaptersType: String? = nil, transcripts: String? = nil,
                 season: Int64? = nil, episode: Int64? = nil, episodeType: String? = nil, persons: String? = nil,
                 funding: String? = nil, positionKey: String? = nil) {
        self.guid = guid
        self.title = title
        self.url = url
        self.mime = mime
        self.bytes = bytes
        self.published = published
        self.duration = duration
        self.summary = summary
        self.notesHTML = notesHTML
        self.imageURL = imageURL
        self.chaptersURL = chaptersURL
        self.chaptersType = chaptersType
        self.transcripts = transcripts
        self.season = season
        self.episode = episode
        self.episodeType = episodeType
        self.persons = persons
        self.funding = funding
        self.positionKey = positionKey
    }

    /// The key its position is kept under, as stored.
    package var resolvedPositionKey: String { positionKey ?? url ?? guid }
}
