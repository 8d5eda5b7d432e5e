/// `%XX` escapes read back into bytes (RFC 3986 §2.1): one reading for the engine's `file:` paths,
/// the redaction of secrets and the backend's token check. A `%` not followed by two hex digits
/// stays as it is, and so do the bytes after it.
package enum PercentDecoding {
    /// `bytes` with every escape replaced by the byte it stands for, as UTF-8 text (bytes that are
    /// not UTF-8 become U+FFFD).
    package static func decoded<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let all = Array(bytes)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(all.count)
        var index = 0
        while index < all.count {
            if let byte = byte(in: all, at: index) {
                decoded.append(byte)
                index += 3
            } else {
                decoded.append(all[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The byte the escape `%XX` at `index` stands for, if one starts there.
    package static func byte(in bytes: [UInt8], at index: Int) -> UInt8? {
        guard bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
              let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
        return high << 4 | low
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
