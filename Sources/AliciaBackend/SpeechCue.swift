/// One word's timing in a read-aloud chunk (Alicia 2.0): when it is said, and where it is in the text.
public struct SpeechCue: Decodable, Sendable, Equatable {
    /// Seconds, as the backend gives them.
    public var start: Double
    public var end: Double
    public var text: String
    /// Where the word is in the spoken text, as the backend counts (nil when not given).
    public var startChar: Int?
    public var endChar: Int?

    public init(start: Double, end: Double, text: String, startChar: Int? = nil, endChar: Int? = nil) {
        self.start = start
        self.end = end
        self.text = text
        self.startChar = startChar
        self.endChar = endChar
    }

    enum CodingKeys: String, CodingKey {
        case start, end, text
        case startChar = "start_char"
        case endChar = "end_char"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(start: try c.decodeIfPresent(Double.self, forKey: .start) ?? 0,
                  end: try c.decodeIfPresent(Double.self, forKey: .end) ?? 0,
                  text: try c.decodeIfPresent(String.self, forKey: .text) ?? "",
                  startChar: try c.decodeIfPresent(Int.self, forKey: .startChar),
                  endChar: try c.decodeIfPresent(Int.self, forKey: .endChar))
    }
}
