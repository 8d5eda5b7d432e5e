/// JSON for Alicia's API: `Codable` values in and out, parsed and printed by cJSON.
///
/// Errors are the standard library's `DecodingError` and `EncodingError`, with the coding path
/// of the offending value, as Foundation's `JSONDecoder` and `JSONEncoder` report them; the
/// output has its keys sorted and slashes unescaped (media paths read as they are).
public enum JSON {
    /// How encoded JSON is spaced.
    public enum Layout: Sendable {
        /// One line, no spaces: for the wire.
        case compact
        /// A line per member, indented with tabs: for people.
        case indented
    }

    /// Decodes `type` from one JSON document.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws(DecodingError) -> T {
        guard let value = JSONValue(parsing: bytes) else {
            throw .dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "not JSON"))
        }
        do {
            return try JSONValueDecoder(value: value, codingPath: []).decode(type)
        } catch let error as DecodingError {
            throw error
        } catch {
            // A type's own `init(from:)` threw something else: report it where it happened.
            throw .dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "\(error)", underlyingError: error))
        }
    }

    /// Encodes `value` as UTF-8 JSON text.
    public static func encode(_ value: some Encodable, layout: Layout = .compact) throws(EncodingError) -> [UInt8] {
        let tree: JSONValue
        do {
            tree = try JSONValueEncoder.encode(value)
        } catch let error as EncodingError {
            throw error
        } catch {
            throw .invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "\(error)", underlyingError: error))
        }
        guard let text = tree.text(layout: layout) else {
            throw .invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "out of memory printing JSON"))
        }
        return text
    }
}
