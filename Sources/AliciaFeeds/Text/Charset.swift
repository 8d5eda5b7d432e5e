/// The character set of a document's bytes, chosen as newsboat's rsspp and feedparser choose it:
/// a byte order mark wins, then the XML declaration's `encoding`, then the HTTP `Content-Type`'s
/// `charset`, and without any of them UTF-8, read lossily (a wrong byte becomes U+FFFD; the feed
/// is never refused for it).
enum Charset: Equatable {
    case utf8
    case utf16LE
    case utf16BE
    /// Also what `ISO-8859-1`, `latin1` and `US-ASCII` labels are read as, as every browser does
    /// (WHATWG's Encoding Standard): feeds labelled Latin-1 are written by Windows tools far more
    /// often than not, and 0x80-0x9F are control characters in Latin-1 but `€ ‚ „ … ’ “ ” – —`
    /// in windows-1252.
    case windows1252
    /// Any other label, converted by glibc's iconv.
    case other(String)

    /// What the bytes are in, and how many bytes of byte order mark they start with.
    static func detect(_ bytes: [UInt8], contentType: String?) -> (charset: Charset, bomLength: Int, label: String?) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3, nil) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2, nil) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2, nil) }
        // `<?` in UTF-16 without a mark (XML 1.0, appendix F).
        if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return (.utf16LE, 0, nil) }
        if bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return (.utf16BE, 0, nil) }
        if let label = declaredEncoding(bytes) {
            // A declaration read as ASCII means the bytes are 8-bit: a "UTF-16" label on them is
            // wrong (libxml2 says so too) and UTF-8 is what was meant.
            let charset = named(label) ?? .other(label)
            if charset == .utf16LE || charset == .utf16BE { return (.utf8, 0, label) }
            return (charset, 0, label)
        }
        if let label = contentType.flatMap(contentTypeCharset) {
            let charset = named(label) ?? .other(label)
            return (charset == .utf16LE || charset == .utf16BE ? .utf8 : charset, 0, label)
        }
        return (.utf8, 0, nil)
    }

    /// The charset a label names, for the labels read without iconv; nil for the others.
    static func named(_ label: String) -> Charset? {
        switch label.lowercased() {
        case "utf-8", "utf8", "unicode-1-1-utf-8", "x-unicode20utf8": .utf8
        case "utf-16le": .utf16LE
        case "utf-16be", "utf-16", "ucs-2", "unicode", "iso-10646-ucs-2": .utf16BE
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "iso_8859-1:1987", "latin1", "latin-1", "l1", "cp819", "ibm819",
             "iso-ir-100", "csisolatin1", "windows-1252", "cp1252", "x-cp1252", "us-ascii", "ascii", "ansi_x3.4-1968":
            .windows1252
        default: nil
        }
    }

    /// The `encoding` of an XML declaration at the start of `bytes` (ASCII-compatible bytes).
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        let head = bytes.prefix(512)
        guard let start = head.firstIndex(where: { !isSpace($0) }), head[start...].starts(with: Array("<?xml".utf8)),
              let end = find(Array("?>".utf8), in: head[start...]) else { return nil }
        let declaration = head[start..<end]
        guard let key = find(Array("encoding".utf8), in: declaration) else { return nil }
        var at = key + 8
        while at < end, isSpace(head[at]) { at += 1 }
        guard at < end, head[at] == UInt8(ascii: "=") else { return nil }
        at += 1
        while at < end, isSpace(head[at]) { at += 1 }
        guard at < end, head[at] == UInt8(ascii: "\"") || head[at] == UInt8(ascii: "'") else { return nil }
        let quote = head[at]
        guard let close = head[(at + 1)..<end].firstIndex(of: quote), close > at + 1 else { return nil }
        return String(decoding: head[(at + 1)..<close], as: UTF8.self)
    }

    /// The `charset` parameter of a `Content-Type` header value (`text/xml; charset="ISO-8859-1"`).
    static func contentTypeCharset(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "charset" else { continue }
            let value = pair[1].trimmingSpaces.filter { $0 != "\"" && $0 != "'" }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Where `needle` first starts in `haystack`, as an index of the underlying array.
    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var at = haystack.startIndex
        while at + needle.count <= haystack.endIndex {
            if haystack[at..<(at + needle.count)].elementsEqual(needle) { return at }
            at += 1
        }
        return nil
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
