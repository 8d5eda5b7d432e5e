/// JSON text written directly, for lists of many rows where a `JSONValue` tree of the whole would
/// cost its weight in memory and time (`episodes --json` of 50,000: DECISIONS.md, "Feeds").
/// Strings are escaped as RFC 8259 asks: `"` and `\`, and every control character below U+0020.
package enum JSONText {
    /// `text` as a JSON string, quotes included.
    package static func quoted(_ text: String) -> String {
        // Most text needs no escape: one concatenation, no walk by scalar.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20: out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `text` quoted, or `null`.
    package static func quoted(_ text: String?) -> String { text.map { quoted($0) } ?? "null" }

    /// An integer, or `null`.
    package static func number(_ value: Int64?) -> String { value.map { String($0) } ?? "null" }

    /// A number as JSON writes it: integers without a point, finite others in full; `null` for NaN or infinity.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// One object, its members in order, each value already JSON text: `{"a": 1, "b": "x"}`. The keys
    /// are the caller's own names, written as they are (no escapes: they need none).
    package static func object(_ members: KeyValuePairs<String, String>) -> String {
        var out = "{"
        out.reserveCapacity(members.reduce(2) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 })
        for (index, member) in members.enumerated() {
            if index > 0 { out += ", " }
            out += "\"" + member.key + "\": " + member.value
        }
        return out + "}"
    }
}
