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
    public struct Chunk: Decodable, Sendable, Equatable {
        /// A media path: join it to the base URL with the token.
        public var url: String
        public var duration: Double?
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

/// What `/api/speak` says of a text being voiced.
public struct SpeechStatus: Decodable, Sendable, Equatable {
    /// `ready`, `streaming`, `rendering`, `failed` or `empty`.
    public var status: String
    public var chunks: [PlaylistItem.Chunk]
    public var duration: Double?

    enum CodingKeys: String, CodingKey { case status, chunks, duration }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.decode(String.self, forKey: .status)
        chunks = try c.decodeIfPresent([PlaylistItem.Chunk].self, forKey: .chunks) ?? []
        duration = try c.decodeIfPresent(Double.self, forKey: .duration)
    }
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
        struct Body: Encodable {
            var action: String
            var name: String?
            var playlist_id: String?
            var id: String?
            var kind: String?
            var title: String?
            var source: String?
            var duration: Double?
            var audio_url: String?
            var order: [String]?
            var body: String?
        }
        var body = Body(action: "")
        switch action {
        case .create(let name): body = Body(action: "create", name: name)
        case .rename(let id, let name): body = Body(action: "rename", name: name, playlist_id: id)
        case .delete(let id): body = Body(action: "delete", playlist_id: id)
        case .addEpisode(let id, let label, let title, let duration, let url):
            body = Body(action: "add", playlist_id: id, id: label, kind: "episode", title: title, source: label, duration: duration, audio_url: url)
        case .addText(let id, let title, let text):
            body = Body(action: "add", playlist_id: id, kind: "synthesis", title: title, body: text)
        case .remove(let id, let item): body = Body(action: "remove", playlist_id: id, id: item)
        case .reorder(let id, let order): body = Body(action: "reorder", playlist_id: id, order: order)
        }
        struct Reply: Decodable {
            var ok: Bool
            var playlists: [Playlist]?
            var error: String?
        }
        let reply = try decode(Reply.self, from: post("/api/playlist", json: body), endpoint: "/api/playlist")
        guard reply.ok else { throw .backend(endpoint: "/api/playlist", message: reply.error ?? "the backend refused it") }
        return reply.playlists ?? []
    }

    /// `POST /api/speak`: voices `text` on demand (ask again while `rendering` or `streaming`).
    public func speak(_ text: String) throws(BackendError) -> SpeechStatus {
        struct Body: Encodable { var text: String; var kind: String }
        return try decode(SpeechStatus.self, from: post("/api/speak", json: Body(text: text, kind: "synthesis")), endpoint: "/api/speak")
    }
}
