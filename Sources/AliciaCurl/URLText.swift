/// URLs as people give them.
package enum URLText {
    /// A URL as people paste it (a raw space, letters beyond ASCII), encoded as browsers, curl and
    /// mpv send it: every byte that may not stand in a URL as `%XX`; what is already encoded, and
    /// the URL's own marks (`/ ? # & = : @ %`), as they are. libcurl refuses the raw form ("URL
    /// using bad/illegal format").
    package static func encodedAsPasted(_ url: String) -> String {
        guard url.utf8.contains(where: needsEncoding) else { return url }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(url.utf8.count + 16)
        for byte in url.utf8 {
            if needsEncoding(byte) {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Controls, space, bytes beyond ASCII, and the printable ASCII RFC 3986 leaves out of URLs.
    private static func needsEncoding(_ byte: UInt8) -> Bool {
        switch byte {
        case 0...0x20, 0x7F...0xFF: return true
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
             UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"): return true
        default: return false
        }
    }
}
