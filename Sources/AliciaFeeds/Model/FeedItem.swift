/// One item (episode) of a feed.
public struct FeedItem: Sendable, Equatable {
    public enum EpisodeType: String, Sendable, Equatable {
        case full, trailer, bonus
    }

    /// What identifies the item across refreshes: its GUID, else its link, else its enclosure's
    /// URL (each trimmed; URLs resolved). An item with none of those is kept only when it has a
    /// title, and is then identified by `title:` and that title: stable while the title is, and a
    /// retitled item is a new one (there is nothing better to go by).
    public var id: String
    /// As the feed writes it (`guid`, Atom `id`, RSS 1.0 `rdf:about`), trimmed.
    public var guid: String?
    /// Plain text.
    public var title = ""
    public var link: String?
    /// UNIX seconds; nil when the feed gives none, or none that can be read or trusted.
    public var published: Int64?
    /// Seconds (`itunes:duration`).
    public var duration: Double?
    public var enclosure: FeedEnclosure?
    /// `podcast:alternateEnclosure`: other forms of the same episode.
    public var alternateEnclosures: [AlternateEnclosure] = []
    /// Plain text.
    public var summary = ""
    /// The show notes as the feed writes them (HTML): `content:encoded`, else the description.
    public var notesHTML: String?
    public var imageURL: String?
    /// `podcast:chapters`: a chapters file and its MIME type.
    public var chaptersURL: String?
    public var chaptersType: String?
    /// `podcast:transcript`, every one of them (`preferred(language:feedLanguage:)` picks one).
    public var transcripts: [FeedTranscript] = []
    public var season: Int?
    /// `itunes:episode` (a whole number) or `podcast:episode` (which may be `315.5`).
    public var episode: Double?
    public var episodeType: EpisodeType?
    /// `itunes:block`.
    public var block = false
    public var persons: [FeedPerson] = []
    public var funding: [FeedFunding] = []
    /// What could not be taken from the item (a refused URL, an untrusted date).
    public var warnings: [String] = []
}
