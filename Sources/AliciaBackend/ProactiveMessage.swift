/// One of `/api/proactive`'s messages, in either form: an older backend's number ids, Alicia 2.0's
/// text ids (`"pm-77"`) and `is_ask`. Fields it does not know are ignored.
public struct ProactiveMessage: Sendable, Equatable, Codable {
    public var id: OpaqueID
    /// ISO 8601, as the backend wrote it ("" when it gave none).
    public var date: String
    public var text: String
    public var kind: String?
    public var archetype: String?
    /// She is asking: the answer goes to `/api/reply` (`reply(to:text:)`).
    public var isAsk: Bool

    public init(id: OpaqueID, date: String = "", text: String, kind: String? = nil, archetype: String? = nil, isAsk: Bool = false) {
        self.id = id
        self.date = date
        self.text = text
        self.kind = kind
        self.archetype = archetype
        self.isAsk = isAsk
    }

    private enum CodingKeys: String, CodingKey {
        case id, date, text, kind, archetype
        case isAsk = "is_ask"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(OpaqueID.self, forKey: .id),
            date: try c.decodeIfPresent(String.self, forKey: .date) ?? "",
            text: try c.decodeIfPresent(String.self, forKey: .text) ?? "",
            kind: try c.decodeIfPresent(String.self, forKey: .kind),
            archetype: try c.decodeIfPresent(String.self, forKey: .archetype),
            isAsk: try c.decodeIfPresent(Bool.self, forKey: .isAsk) ?? false
        )
    }
}

extension BackendClient {
    /// `GET /api/proactive?limit=N`: her recent proactive messages, newest first.
    public func proactive(limit: Int = 20) throws(BackendError) -> [ProactiveMessage] {
        let endpoint = "/api/proactive?limit=\(limit)"
        return try decode([ProactiveMessage].self, from: get(endpoint), endpoint: "/api/proactive")
    }

    /// `POST /api/reply` `{proactive_id, text}`: answers one of her proactive messages (one that
    /// asks, `isAsk`); returns her response (plain JSON, not a stream). `{"ok": false, "error": …}`
    /// is thrown as the backend's refusal.
    public func reply(to proactiveID: OpaqueID, text: String) throws(BackendError) -> String {
        struct Request: Encodable { var proactive_id: String; var text: String }
        struct Reply: Decodable { var ok: Bool?; var response: String?; var error: String? }
        let endpoint = "/api/reply"
        let reply = try decode(Reply.self, from: submit(endpoint, json: Request(proactive_id: proactiveID.text, text: text)), endpoint: endpoint)
        guard reply.ok != false else { throw .backend(endpoint: endpoint, message: reply.error ?? "the backend refused the reply") }
        return reply.response ?? ""
    }
}
