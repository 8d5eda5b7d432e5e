/// One piece of listening evidence for `POST /api/episode_day` (Alicia 2.0): what was done with an
/// episode, when, and how much of it was heard. Codable as the wire's JSON, so that an outbox can
/// keep it on disk as it will be sent.
public struct EpisodeDayEvent: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable {
        /// Chosen explicitly by the listener (never by auto-advance).
        case selected
        /// The first tick of playback.
        case playing
        /// After every 15 s actually played, and on pause, seek, skip and item change.
        case progress
        /// The natural end.
        case finished
    }

    public var action: Action
    /// The episode's id, as `/api/episode_day` and the playlists name it.
    public var episodeID: String
    /// Unique per event: a resend of the same event is the same event.
    public var eventID: UUIDv4
    /// When it happened, seconds since 1970 (sent as ISO 8601 UTC, to the second).
    public var observedAt: Int
    /// The position in the episode, milliseconds.
    public var positionMS: Int
    /// Milliseconds actually heard since the previous event.
    public var playedMS: Int
    public var title: String?

    public init(action: Action, episodeID: String, positionMS: Int, playedMS: Int, title: String? = nil,
                observedAt: Int = ISO8601UTC.now(), eventID: UUIDv4 = UUIDv4()) {
        self.action = action
        self.episodeID = episodeID
        self.eventID = eventID
        self.observedAt = observedAt
        self.positionMS = positionMS
        self.playedMS = playedMS
        self.title = title
    }

    enum CodingKeys: String, CodingKey {
        case action, title
        case episodeID = "episode_id"
        case eventID = "event_id"
        case observedAt = "observed_at"
        case positionMS = "position_ms"
        case playedMS = "played_ms"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let observed = try c.decode(String.self, forKey: .observedAt)
        guard let seconds = ISO8601UTC.parse(observed) else {
            throw DecodingError.dataCorruptedError(forKey: .observedAt, in: c, debugDescription: "not an ISO 8601 time")
        }
        self.init(action: try c.decode(Action.self, forKey: .action),
                  episodeID: try c.decode(String.self, forKey: .episodeID),
                  positionMS: try c.decode(Int.self, forKey: .positionMS),
                  playedMS: try c.decode(Int.self, forKey: .playedMS),
                  title: try c.decodeIfPresent(String.self, forKey: .title),
                  observedAt: Int(seconds.rounded(.down)),
                  eventID: try c.decode(UUIDv4.self, forKey: .eventID))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(action, forKey: .action)
        try c.encode(episodeID, forKey: .episodeID)
        try c.encode(eventID, forKey: .eventID)
        try c.encode(ISO8601UTC.format(observedAt), forKey: .observedAt)
        try c.encode(positionMS, forKey: .positionMS)
        try c.encode(playedMS, forKey: .playedMS)
        try c.encodeIfPresent(title, forKey: .title)
    }
}

extension EpisodeDayEvent {
    /// The `episode_id` of the episode labelled `label`: `episode:<label>`, the id Alicia 2.0's
    /// playlists give an episode (alicia-api.md, "Alicia 2.0"), so that the backend's day, its
    /// playlists and the phone's "Next episode" name it alike (DECISIONS.md, "Listening reports").
    public static func episodeID(label: String) -> String {
        episodePrefix + label
    }

    /// The label an `episode_id` names, in either form a backend may hold (`episode:S1E01` as this
    /// player sends it, or a bare `S1E01`).
    public static func label(ofEpisodeID id: String) -> String {
        id.hasPrefix(episodePrefix) ? String(id.dropFirst(episodePrefix.count)) : id
    }

    private static let episodePrefix = "episode:"
}
