/// `GET /api/episode_day[?day=YYYY-MM-DD]` (Alicia 2.0): the day's frame, of which the player reads
/// the last episode heard; the other fields are ignored.
public struct EpisodeDayFrame: Decodable, Sendable, Equatable {
    public struct Playback: Decodable, Sendable, Equatable {
        public var episodeID: String
        /// As the backend wrote it (ISO 8601); `observedSeconds` reads it.
        public var observedAt: String?

        enum CodingKeys: String, CodingKey {
            case episodeID = "episode_id"
            case observedAt = "observed_at"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            episodeID = try c.decode(OpaqueID.self, forKey: .episodeID).text
            observedAt = try c.decodeIfPresent(String.self, forKey: .observedAt)
        }

        /// `observedAt` in seconds since 1970, when it reads as ISO 8601.
        public var observedSeconds: Double? { observedAt.flatMap(ISO8601UTC.parse) }
    }

    public var day: String?
    /// The last episode played, as the backend knows it (from any device).
    public var latestPlayback: Playback?

    enum CodingKeys: String, CodingKey {
        case day
        case latestPlayback = "latest_playback"
    }
}

extension BackendClient {
    /// `POST /api/episode_day`: sends one event and says what the outbox should do with it. Never
    /// throws: every failure is an outcome (`keep` when the event may yet be taken).
    public func episodeDay(_ event: EpisodeDayEvent) -> EpisodeDayOutcome {
        let endpoint = "/api/episode_day"
        let body: [UInt8]
        do {
            body = try Self.requestBody(event, endpoint: endpoint)
        } catch {
            return .dropped(error.message)
        }
        do {
            return EpisodeDayOutcome.of(.success(try exchange(endpoint, body: body)), endpoint: endpoint)
        } catch {
            return EpisodeDayOutcome.of(.failure(error), endpoint: endpoint)
        }
    }

    /// `GET /api/episode_day[?day=YYYY-MM-DD]`: today's frame, or `day`'s.
    public func episodeDay(day: String? = nil) throws(BackendError) -> EpisodeDayFrame {
        let endpoint = "/api/episode_day" + (day.map { "?day=" + BackendConfiguration.percentEncodedQueryValue($0) } ?? "")
        return try decode(EpisodeDayFrame.self, from: get(endpoint), endpoint: "/api/episode_day")
    }
}
