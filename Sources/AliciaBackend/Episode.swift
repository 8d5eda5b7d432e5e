/// One entry of `/api/tracks`, with the contract's defaults filled in.
public struct Episode: Sendable, Equatable, Codable {
    public var title: String
    public var mood: String
    /// Seconds.
    public var duration: Double
    public var symbol: String
    /// A path on the backend; nil when the episode has no audio yet.
    public var fileName: String?
    public var season: Int
    public var episode: Int?
    /// The stable key of an episode (resume positions, show notes); may be missing.
    public var label: String?
    public var series: String?
    /// The shelf: `S11`, or a named run such as `NIGHTS`.
    public var collection: String
    public var collectionTitle: String

    public var hasAudio: Bool { fileName.map { !$0.isEmpty } ?? false }

    /// The one length rule: an episode's length is its stated duration when it has audio; one
    /// with no audio yet has none (its stated duration is what it will be, not what plays).
    public var knownLength: Double? { hasAudio && duration > 0 && duration.isFinite ? duration : nil }

    public init(title: String, mood: String = "", duration: Double = 0, symbol: String = "waveform",
                fileName: String? = nil, season: Int = 0, episode: Int? = nil, label: String? = nil,
                series: String? = nil, collection: String? = nil, collectionTitle: String? = nil) {
        self.title = title
        self.mood = mood
        self.duration = duration
        self.symbol = symbol
        self.fileName = fileName
        self.season = season
        self.episode = episode
        self.label = label
        self.series = series
        self.collection = collection ?? "S\(season)"
        self.collectionTitle = collectionTitle ?? "Season \(season)"
    }

    private enum CodingKeys: String, CodingKey {
        case title, mood, duration, symbol, fileName, season, episode, label, series, collection, collectionTitle
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let season = try c.decodeIfPresent(Int.self, forKey: .season) ?? 0
        self.init(
            title: try c.decode(String.self, forKey: .title),
            mood: try c.decodeIfPresent(String.self, forKey: .mood) ?? "",
            duration: try c.decodeIfPresent(Double.self, forKey: .duration) ?? 0,
            symbol: try c.decodeIfPresent(String.self, forKey: .symbol) ?? "waveform",
            fileName: try c.decodeIfPresent(String.self, forKey: .fileName),
            season: season,
            episode: try c.decodeIfPresent(Int.self, forKey: .episode),
            label: try c.decodeIfPresent(String.self, forKey: .label),
            series: try c.decodeIfPresent(String.self, forKey: .series),
            collection: try c.decodeIfPresent(String.self, forKey: .collection),
            collectionTitle: try c.decodeIfPresent(String.self, forKey: .collectionTitle)
        )
    }
}
