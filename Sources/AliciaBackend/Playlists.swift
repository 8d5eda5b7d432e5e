internal import AliciaJSON

/// One of Alicia's playlists (alicia-api.md, "Playlists and read-aloud").
public struct Playlist: Decodable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var duration: Double
    /// Items that have their chunks (the others are still being voiced).
    public var ready: Int
    public var items: [PlaylistItem]

    enum CodingKeys: String, CodingKey { case id, name, duration, ready, items }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? "Untitled"
        duration = try c.decodeIfPresent(Double.self, forKey: .duration) ?? 0
        items = try c.decodeIfPresent([PlaylistItem].self, forKey: .items) ?? []
        ready = try c.decodeIfPresent(Int.self, forKey: .ready) ?? items.filter(\.isReady).count
    }

    /// Items still being voiced.
    public var warming: Int { items.count - items.filter(\.isReady).count }
}

public struct PlaylistItem: Decodable, Sendable, Equatable {
    /// One read-aloud chunk: its own media file, played back to back with the next.
    public struct Chunk: Decodable, Sendable, Equatable {
        /// A media path: join it to the base URL with the token (Alicia 2.0: may be an absolute
        /// URL that carries a token of its own; see `BackendConfiguration.mediaURLs(for:)`).
        public var url: String
        public var duration: Double?
        /// The words this chunk says (Alicia 2.0).
        public var text: String?
        /// Word timings within it (Alicia 2.0); empty when there are none yet.
        public var cues: [SpeechCue]
        /// Whether its word timing is done (`ready`, `pending`, …), as the backend says it.
        public var timingStatus: String?

        public init(url: String, duration: Double? = nil, text: String? = nil, cues: [SpeechCue] = [], timingStatus: String? = nil) {
            self.url = url
            self.duration = duration
            self.text = text
            self.cues = cues
            self.timingStatus = timingStatus
        }

        enum CodingKeys: String, CodingKey {
            case url, duration, text, cues
            case timingStatus = "timing_status"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(url: try c.decode(String.self, forKey: .url),
                      duration: try c.decodeIfPresent(Double.self, forKey: .duration),
                      text: try c.decodeIfPresent(String.self, forKey: .text),
                      cues: try c.decodeIfPresent([SpeechCue].self, forKey: .cues) ?? [],
                      timingStatus: try c.decodeIfPresent(String.self, forKey: .timingStatus))
        }
    }

    public var id: String
    /// `episode` or `synthesis`.
    public var kind: String
    public var title: String
    /// A synthesis's text (what `/api/speak` voices).
    public var body: String?
    /// An episode's label.
    public var source: String?
    public var duration: Double
    public var chunks: [Chunk]

    enum CodingKeys: String, CodingKey { case id, kind, title, body, source, duration, speech }
    struct Speech: Decodable { var chunks: [Chunk]? }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        kind = try c.decodeIfPresent(String.self, forKey: .kind) ?? "synthesis"
        title = try c.decodeIfPresent(String.self, forKey: .title) ?? "Untitled"
        body = try c.decodeIfPresent(String.self, forKey: .body)
        source = try c.decodeIfPresent(String.self, forKey: .source)
        duration = try c.decodeIfPresent(Double.self, forKey: .duration) ?? 0
        chunks = try c.decodeIfPresent(Speech.self, forKey: .speech)?.chunks ?? []
    }

    public var isEpisode: Bool { kind == "episode" }
    /// It has its chunks: it can play now.
    public var isReady: Bool { !chunks.isEmpty }
}

/// An action of `POST /api/playlist`.
public enum PlaylistAction: Sendable, Equatable {
    case create(name: String)
    case rename(playlistID: String, name: String)
    case delete(playlistID: String)
    case addEpisode(playlistID: String, label: String, title: String, duration: Double, audioURL: String)
    /// A text read aloud, as the app adds one: a synthesis item with its `body`, voiced by the backend.
    case addText(playlistID: String, title: String, body: String)
    case remove(playlistID: String, itemID: String)
    case reorder(playlistID: String, order: [String])

    /// The body of `POST /api/playlist`, in the contract's field names.
    var body: JSONValue {
        func fields(_ action: String, _ members: [(String, JSONValue)]) -> JSONValue {
            .object([JSONValue.Member("action", .string(action))] + members.map { JSONValue.Member($0.0, $0.1) })
        }
        switch self {
        case .create(let name): return fields("create", [("name", .string(name))])
        case .rename(let id, let name): return fields("rename", [("playlist_id", .string(id)), ("name", .string(name))])
        case .delete(let id): return fields("delete", [("playlist_id", .string(id))])
        case .addEpisode(let id, let label, let title, let duration, let url):
            return fields("add", [("playlist_id", .string(id)), ("id", .string(label)), ("kind", .string("episode")), ("title", .string(title)),
                                  ("source", .string(label)), ("duration", .number(duration)), ("audio_url", .string(url))])
        case .addText(let id, let title, let text):
            return fields("add", [("playlist_id", .string(id)), ("kind", .string("synthesis")), ("title", .string(title)), ("body", .string(text))])
        case .remove(let id, let item): return fields("remove", [("playlist_id", .string(id)), ("id", .string(item))])
        case .reorder(let id, let order): return fields("reorder", [("playlist_id", .string(id)), ("order", .array(order.map(JSONValue.string)))])
        }
    }
}

extension BackendClient {
    /// `GET /api/playlists`.
    public func playlists() throws(BackendError) -> [Playlist] {
        try libraryList("/api/playlists", decode: Self.decodePlaylists)
    }

    /// A body of `/api/playlists` (as kept for offline use).
    public static func decodePlaylists(_ body: [UInt8]) throws(BackendError) -> [Playlist] {
        try decode([Playlist].self, from: body, endpoint: "/api/playlists")
    }

    /// `POST /api/playlist`: the refreshed shelf, or the backend's own error.
    public func perform(_ action: PlaylistAction) throws(BackendError) -> [Playlist] {
        struct Reply: Decodable {
            var ok: Bool
            var playlists: [Playlist]?
            var error: String?
        }
        guard let body = action.body.text() else { throw .badReply(endpoint: "/api/playlist", detail: "cannot encode the request") }
        let reply = try decode(Reply.self, from: post("/api/playlist", body: body), endpoint: "/api/playlist")
        guard reply.ok else { throw .backend(endpoint: "/api/playlist", message: reply.error ?? "the backend refused it") }
        return reply.playlists ?? []
    }
}
