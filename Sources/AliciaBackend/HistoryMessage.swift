/// One turn of the shared conversation, `GET /api/history` (Alicia 2.0): the last 120, from every
/// surface she talks on. Fields it does not know are ignored.
public struct HistoryMessage: Decodable, Sendable, Equatable {
    public var id: OpaqueID?
    /// When it was said, as the backend wrote it (ISO 8601 text, or a number's text).
    public var timestamp: String?
    /// `user` or `assistant` (open).
    public var role: String?
    public var content: String
    /// Which surface it came from.
    public var source: String?
    /// The saved reply it belongs to.
    public var replyID: OpaqueID?

    enum CodingKeys: String, CodingKey {
        case id, role, content, source
        case timestamp = "ts"
        case replyID = "reply_id"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(OpaqueID.self, forKey: .id)
        // A time as text or as a number (seconds): kept as the text either way.
        timestamp = try c.decodeIfPresent(OpaqueID.self, forKey: .timestamp)?.text
        role = try c.decodeIfPresent(String.self, forKey: .role)
        content = try c.decodeIfPresent(String.self, forKey: .content) ?? ""
        source = try c.decodeIfPresent(String.self, forKey: .source)
        replyID = try c.decodeIfPresent(OpaqueID.self, forKey: .replyID)
    }
}

extension BackendClient {
    /// `GET /api/history`: the shared conversation, oldest first as the backend lists it.
    public func history() throws(BackendError) -> [HistoryMessage] {
        struct Reply: Decodable { var messages: [HistoryMessage]? }
        return try decode(Reply.self, from: get("/api/history"), endpoint: "/api/history").messages ?? []
    }
}
