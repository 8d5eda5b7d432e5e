/// `GET /api/morning_briefing` (Alicia 2.0): today's spoken briefing, as far as it is made. Every
/// field may be absent; fields it does not know are ignored.
public struct MorningBriefing: Decodable, Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        case ready
        case preparing
        case unavailable
        /// A word this client does not know (or none).
        case other(String)

        init(_ word: String) {
            switch word {
            case "ready": self = .ready
            case "preparing": self = .preparing
            case "unavailable": self = .unavailable
            default: self = .other(word)
            }
        }
    }

    /// What the briefing drew on.
    public struct Source: Decodable, Sendable, Equatable {
        public var id: OpaqueID?
        public var title: String?
        public var path: String?
        public var excerpt: String?
    }

    public var id: OpaqueID?
    /// `YYYY-MM-DD`.
    public var day: String?
    public var title: String?
    public var text: String?
    public var status: Status
    /// A media path (Range requests work): `mediaURLs(for:)` turns it into URLs to play.
    public var audioURL: String?
    /// Seconds.
    public var duration: Double?
    public var playlistID: OpaqueID?
    /// Why it is not there, in the backend's words.
    public var error: String?
    public var sources: [Source]
    /// Its reading: the spoken text, word timing, chunks.
    public var speech: SpeechStatus?

    enum CodingKeys: String, CodingKey {
        case id, day, title, text, status, duration, error, sources, speech
        case audioURL = "audio_url"
        case playlistID = "playlist_id"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(OpaqueID.self, forKey: .id)
        day = try c.decodeIfPresent(String.self, forKey: .day)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        text = try c.decodeIfPresent(String.self, forKey: .text)
        status = Status(try c.decodeIfPresent(String.self, forKey: .status) ?? "")
        audioURL = try c.decodeIfPresent(String.self, forKey: .audioURL)
        duration = try c.decodeIfPresent(Double.self, forKey: .duration)
        playlistID = try c.decodeIfPresent(OpaqueID.self, forKey: .playlistID)
        error = try c.decodeIfPresent(String.self, forKey: .error)
        sources = try c.decodeIfPresent([Source].self, forKey: .sources) ?? []
        speech = try c.decodeIfPresent(SpeechStatus.self, forKey: .speech)
    }

    /// It can be played now, as the app decides it: `ready`, with an id, a usable audio URL (a
    /// path on the backend or an http(s) URL) and a duration above zero.
    public var isPlayable: Bool {
        guard status == .ready, let id, !id.text.isEmpty, let duration, duration > 0, duration.isFinite,
              let audioURL = audioURL?.trimmingSpaces(), !audioURL.isEmpty else { return false }
        let lower = audioURL.lowercased()
        return audioURL.hasPrefix("/") || lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }
}

extension BackendClient {
    /// `GET /api/morning_briefing`.
    public func morningBriefing() throws(BackendError) -> MorningBriefing {
        try decode(MorningBriefing.self, from: get("/api/morning_briefing"), endpoint: "/api/morning_briefing")
    }
}
