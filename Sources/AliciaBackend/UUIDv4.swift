/// A random (version 4) UUID in its lower-case text form, `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`:
/// the `request_id` of a chat message and the `event_id` of listening evidence.
///
/// The 122 random bits come from the standard library's system generator, which on Linux is the
/// kernel's `getrandom(2)` (Glibc's Swift module does not carry `<sys/random.h>`, and a C shim for
/// one call would be a target of its own): never a seeded generator, so two players cannot collide.
public struct UUIDv4: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 36-character text form.
    public let text: String

    /// A new random UUID.
    public init() {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        self.init(randomBytes: bytes)
    }

    /// The UUID of 16 random bytes, with the version (4) and variant (RFC 9562) bits set.
    init(randomBytes: [UInt8]) {
        precondition(randomBytes.count == 16, "UUIDv4.init(randomBytes:) takes 16 bytes, not \(randomBytes.count)")
        var bytes = randomBytes
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text += [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
        }
        self.text = String(decoding: text, as: UTF8.self)
    }

    /// A UUID read back (an outbox kept on disk): any version, either case; nil for anything that is
    /// not 8-4-4-4-12 hexadecimal digits.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            let isHex = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
            guard [8, 13, 18, 23].contains(index) ? byte == UInt8(ascii: "-") : isHex else { return nil }
        }
        self.text = text.lowercased()
    }

    public var description: String { text }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let uuid = UUIDv4(text) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not a UUID"))
        }
        self = uuid
    }

    public func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        try value.encode(text)
    }
}
