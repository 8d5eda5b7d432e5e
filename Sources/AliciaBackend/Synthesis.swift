/// One of her written pieces, `GET /api/syntheses` (Alicia 2.0). Its `speech`, when there, is a
/// complete reading made beforehand; otherwise voice it with
/// `speak(title:body:kind:requiredBackend:)`. Fields it does not know are ignored.
public struct Synthesis: Decodable, Sendable, Equatable {
    public var title: String
    public var date: String?
    public var excerpt: String?
    public var body: String
    public var speech: SpeechStatus?

    enum CodingKeys: String, CodingKey { case title, date, excerpt, body, speech }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(String.self, forKey: .title) ?? "Untitled"
        date = try c.decodeIfPresent(String.self, forKey: .date)
        excerpt = try c.decodeIfPresent(String.self, forKey: .excerpt)
        body = try c.decodeIfPresent(String.self, forKey: .body) ?? ""
        speech = try c.decodeIfPresent(SpeechStatus.self, forKey: .speech)
    }

    /// Its reading is there to play as it is.
    public var hasReading: Bool { speech.map { $0.state == .ready && !$0.chunks.isEmpty } ?? false }
}

extension BackendClient {
    /// `GET /api/syntheses`.
    public func syntheses() throws(BackendError) -> [Synthesis] {
        try decode([Synthesis].self, from: get("/api/syntheses"), endpoint: "/api/syntheses")
    }
}
