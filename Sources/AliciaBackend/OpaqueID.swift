/// An id the backend hands out, kept as opaque text (alicia-api.md, "Alicia 2.0": "treat ids as
/// opaque text"). Decoded from a JSON string or a number (an older backend sends numbers; a number
/// keeps its integer text, `77` → `"77"`), and encoded back as it came, so that an endpoint that
/// took a number (`/api/react`'s `message_id`) gets one again.
///
/// Two ids are equal when their text is: `"77"` and `77` name the same message.
public struct OpaqueID: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral {
    /// The id as text.
    public let text: String
    /// The backend sent it as a JSON number.
    public let isNumber: Bool

    /// An id the backend sent as a string.
    public init(_ text: String) {
        self.init(text: text, isNumber: false)
    }

    /// An id the backend sent as a number.
    public init(_ number: Int) {
        self.init(text: String(number), isNumber: true)
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    public init(integerLiteral number: Int) {
        self.init(number)
    }

    public var description: String { text }

    /// The number the backend sent, for callers still keyed by numbers; nil for a text id.
    public var integer: Int? { isNumber ? Int(text) : nil }

    public static func == (lhs: OpaqueID, rhs: OpaqueID) -> Bool { lhs.text == rhs.text }

    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let text = try? value.decode(String.self) {
            self.init(text)
            return
        }
        let number: Double
        do {
            number = try value.decode(Double.self)
        } catch {
            throw DecodingError.typeMismatch(OpaqueID.self, DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "an id is a string or a number"))
        }
        // Integers (exact up to 2^53, as JSON holds them) keep their integer text; anything else its
        // shortest text, so that it at least reads back the same.
        let text = number == number.rounded() && abs(number) < 0x1p53 ? String(Int64(number)) : String(number)
        self.init(text: text, isNumber: true)
    }

    private init(text: String, isNumber: Bool) {
        self.text = text
        self.isNumber = isNumber
    }

    public func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        if isNumber, let number = Int64(text) {
            try value.encode(number)
        } else {
            try value.encode(text)
        }
    }
}
