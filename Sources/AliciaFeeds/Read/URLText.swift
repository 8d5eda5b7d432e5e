/// URL strings as feeds write them, before and after libxml2 resolves them.
enum URLText {
    /// Whether `url` is absolute http or https.
    static func isHTTP(_ url: String) -> Bool {
        var scheme = url.utf8.makeIterator()
        for expected in "http".utf8 {
            guard let byte = scheme.next(), byte | 0x20 == expected else { return false }
        }
        var next = scheme.next()
        if next.map({ $0 | 0x20 }) == UInt8(ascii: "s") { next = scheme.next() }
        return next == UInt8(ascii: ":") && scheme.next() == UInt8(ascii: "/") && scheme.next() == UInt8(ascii: "/")
    }

    /// Spaces, controls and non-ASCII bytes percent-encoded (feeds write `my episode.mp3` and
    /// IRIs), which `xmlBuildURI` would otherwise refuse; what is already encoded stays.
    static func escapingUnsafe(_ url: String) -> String {
        guard url.utf8.contains(where: needsEscape) else { return url }
        var out: [UInt8] = []
        for byte in url.utf8 {
            if needsEscape(byte) {
                let hex = Array("0123456789ABCDEF".utf8)
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "^") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "{")
            || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "}")
    }

    /// At most 120 characters of `text`, on one line, for a warning.
    static func shortened(_ text: String) -> String {
        text.count <= 120 ? text.oneLine : String(text.prefix(117)).oneLine + "..."
    }
}
