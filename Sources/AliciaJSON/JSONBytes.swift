/// JSON written byte by byte into one growing buffer, for lists of many rows (`episodes --json` of
/// 50,000): no `String` per value, no interpolation. Strings are escaped as RFC 8259 asks, as
/// `JSONText.quoted` does. Members are written in the order the caller writes them.
package struct JSONBytes {
    package private(set) var bytes: [UInt8] = []
    /// Whether the object being written has a member yet (for the comma before the next).
    private var hasMember = false

    package init(capacity: Int = 1 << 16) {
        bytes.reserveCapacity(capacity)
    }

    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        hasMember = false
    }

    package mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
    }

    /// `"key": ` (with the comma before it after the first member); the key needs no escape.
    package mutating func key(_ name: StaticString) {
        if hasMember { raw(", ") }
        hasMember = true
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\": ")
    }

    /// `"…"` around what `write` appends: ASCII the caller knows needs no escape (a date).
    package mutating func member(_ name: StaticString, quotedASCII write: (inout [UInt8]) -> Void) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        write(&bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func string(_ text: String?) {
        guard var text else { return raw("null") }
        bytes.append(UInt8(ascii: "\""))
        // Most text needs no escape: appended in one copy.
        let plain = text.withUTF8 { utf8 -> Bool in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain { return bytes.append(UInt8(ascii: "\"")) }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\t"): raw("\\t")
            case UInt8(ascii: "\r"): raw("\\r")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func integer(_ value: Int64?) {
        guard var value else { return raw("null") }
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            if value == .min { return raw("9223372036854775808") }
            value = -value
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                count += 1
            } while value > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// A number as `JSONText.number` writes it: an integer without a point, others in full.
    package mutating func number(_ value: Double) {
        guard value.isFinite else { return raw("null") }
        if value == value.rounded() && abs(value) < 1e15 { return integer(Int64(value)) }
        bytes.append(contentsOf: "\(value)".utf8)
    }

    package mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    package mutating func member(_ name: StaticString, string value: String?) {
        key(name)
        string(value)
    }

    package mutating func member(_ name: StaticString, integer value: Int64?) {
        key(name)
        integer(value)
    }

    package mutating func member(_ name: StaticString, number value: Double) {
        key(name)
        number(value)
    }

    package mutating func member(_ name: StaticString, bool value: Bool) {
        key(name)
        bool(value)
    }

    /// Hands what is written to `write` and starts again (a chunk of a long list).
    package mutating func flush(to write: (String) -> Void) {
        write(String(decoding: bytes, as: UTF8.self))
        bytes.removeAll(keepingCapacity: true)
    }

    private static let hex = Array("0123456789abcdef".utf8)
}
