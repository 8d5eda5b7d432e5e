/// One of her morning or evening reflections, `GET /api/reflections` (Alicia 2.0). Fields it does
/// not know are ignored.
public struct Reflection: Decodable, Sendable, Equatable {
    public var id: OpaqueID?
    /// `morning` or `evening` (open).
    public var kind: String?
    public var date: String?
    public var text: String
    /// Its reading as far as it is made (`status`, `chunks`, `duration`).
    public var speech: SpeechStatus?

    enum CodingKeys: String, CodingKey { case id, kind, date, text, speech }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(OpaqueID.self, forKey: .id)
        kind = try c.decodeIfPresent(String.self, forKey: .kind)
        date = try c.decodeIfPresent(String.self, forKey: .date)
        text = try c.decodeIfPresent(String.self, forKey: .text) ?? ""
        speech = try c.decodeIfPresent(SpeechStatus.self, forKey: .speech)
    }
}

extension BackendClient {
    /// `GET /api/reflections`.
    public func reflections() throws(BackendError) -> [Reflection] {
        try decode([Reflection].self, from: get("/api/reflections"), endpoint: "/api/reflections")
    }
}
