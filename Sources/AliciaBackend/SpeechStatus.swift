/// What `/api/speak` says of a text being voiced, and a reading that comes ready-made (a
/// synthesis's `speech`, a reflection's, the morning briefing's): alicia-api.md, "Playlists and
/// read-aloud" and "Alicia 2.0". Every field but the chunks may be absent; fields it does not know
/// are ignored.
public struct SpeechStatus: Decodable, Sendable, Equatable {
    /// `ready`, `streaming`, `rendering`, `failed` or `empty` (see `state`). A reading without one
    /// is `ready` when it has chunks, else `empty`.
    public var status: String
    public var chunks: [PlaylistItem.Chunk]
    /// Seconds, all chunks together.
    public var duration: Double?
    /// The text as it is said (Alicia 2.0).
    public var spokenText: String?
    /// `pending` while the audio is complete and the word timing is not yet, `ready` once it is.
    public var timingStatus: String?
    /// Which voice rendered it.
    public var speechBackend: String?

    /// `status` as a value to switch on.
    public enum State: Sendable, Equatable {
        /// Every chunk is listed.
        case ready
        /// The chunks so far: ask again for more.
        case streaming
        /// None yet: ask again.
        case rendering
        /// It cannot be voiced: skip it and say so.
        case failed
        case empty
        /// A word this client does not know.
        case other(String)
    }

    public var state: State {
        switch status {
        case "ready": .ready
        case "streaming": .streaming
        case "rendering": .rendering
        case "failed": .failed
        case "empty": .empty
        default: .other(status)
        }
    }

    public init(status: String, chunks: [PlaylistItem.Chunk] = [], duration: Double? = nil, spokenText: String? = nil,
                timingStatus: String? = nil, speechBackend: String? = nil) {
        self.status = status
        self.chunks = chunks
        self.duration = duration
        self.spokenText = spokenText
        self.timingStatus = timingStatus
        self.speechBackend = speechBackend
    }

    enum CodingKeys: String, CodingKey {
        case status, chunks, duration
        case spokenText = "spoken_text"
        case timingStatus = "timing_status"
        case speechBackend = "speech_backend"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let chunks = try c.decodeIfPresent([PlaylistItem.Chunk].self, forKey: .chunks) ?? []
        self.init(status: try c.decodeIfPresent(String.self, forKey: .status) ?? (chunks.isEmpty ? "empty" : "ready"),
                  chunks: chunks,
                  duration: try c.decodeIfPresent(Double.self, forKey: .duration),
                  spokenText: try c.decodeIfPresent(String.self, forKey: .spokenText),
                  timingStatus: try c.decodeIfPresent(String.self, forKey: .timingStatus),
                  speechBackend: try c.decodeIfPresent(String.self, forKey: .speechBackend))
    }
}

extension BackendClient {
    /// `POST /api/speak` `{text, kind: "synthesis"}`: voices `text` on demand (ask again while
    /// `rendering` or `streaming`). The older form; `speak(title:body:kind:requiredBackend:)` is
    /// the app's.
    public func speak(_ text: String) throws(BackendError) -> SpeechStatus {
        struct Body: Encodable { var text: String; var kind: SpeechKind }
        return try decode(SpeechStatus.self, from: post("/api/speak", json: Body(text: text, kind: .synthesis)), endpoint: "/api/speak")
    }

    /// `POST /api/speak` `{text, kind, required_backend}` as the app sends it: `text` is
    /// `speechText(title:body:)`, the backend's cache key (the body alone renders the piece again).
    /// `requiredBackend` nil leaves the field out.
    public func speak(title: String?, body: String, kind: SpeechKind = .synthesis, requiredBackend: String? = nil) throws(BackendError) -> SpeechStatus {
        struct Body: Encodable {
            var text: String
            var kind: SpeechKind
            var required_backend: String?
        }
        let request = Body(text: Self.speechText(title: title, body: body), kind: kind, required_backend: requiredBackend)
        return try decode(SpeechStatus.self, from: post("/api/speak", json: request), endpoint: "/api/speak")
    }

    /// What `/api/speak` is asked to say for a titled piece: `"<title>.\n\n<body>"`, as the app
    /// writes it; the body alone when there is no title (nil, empty or only spaces).
    public static func speechText(title: String?, body: String) -> String {
        guard let title, !title.allSatisfy(\.isWhitespace) else { return body }
        return title + ".\n\n" + body
    }
}
