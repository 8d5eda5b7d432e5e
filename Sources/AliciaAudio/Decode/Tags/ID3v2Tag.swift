import AliciaLocks
/// An ID3v2 tag (versions 2.2, 2.3 and 2.4, as podcasts carry them): the text fields the player
/// shows, the front cover, and the chapters (the ID3 chapter addendum's CHAP frames, in the order a
/// top-level CTOC lists them). Parsed from the tag's bytes; anything malformed is skipped, never
/// trusted: sizes are checked against what is there.
struct ID3v2Tag: Equatable, Sendable {
    var tags = MediaTags()
    /// The picture to use as cover art: the front cover (type 3) if there is one, else the first.
    var picture: Picture?
    var chapters: [Chapter] = []

    struct Picture: Equatable, Sendable {
        var mimeType: String
        var data: [UInt8]
    }

    /// Tags larger than this (a cover art of many MiB) are skipped unread.
    static let byteLimit = 16 << 20

    /// The size of the whole tag that `header` (its first 10 bytes) starts, footer included; nil
    /// when it is not an ID3v2 header.
    static func totalSize(header: [UInt8]) -> Int? {
        guard header.count >= 10, header[0] == 0x49, header[1] == 0x44, header[2] == 0x33,
              header[3] < 0xFF, header[4] < 0xFF, let size = syncsafe(header, at: 6) else { return nil }
        return 10 + size + (header[5] & 0x10 != 0 ? 10 : 0)
    }

    /// Parses a whole tag, its header first; nil when it is not one.
    init?(_ bytes: [UInt8]) {
        guard Self.totalSize(header: bytes) != nil else { return nil }
        let version = bytes[3], flags = bytes[5]
        guard (2...4).contains(version) else { return nil }
        let end = min(bytes.count, 10 + (Self.syncsafe(bytes, at: 6) ?? 0))
        var body = Array(bytes[10..<end])
        // 2.2 and 2.3 unsynchronise the whole tag (a 0x00 after every 0xFF); 2.4 does it per frame.
        if flags & 0x80 != 0 && version < 4 { body = Self.resynchronised(body) }
        var start = 0
        if flags & 0x40 != 0 && version >= 3, let extended = body.bigEndian32(at: 0) {
            start = version == 4 ? Int(Self.syncsafe(body, at: 0) ?? 0) : Int(extended) + 4
        }
        var pictures: [(UInt8, Picture)] = []
        var chapterFrames: [String: Chapter] = [:]
        var order: [String] = []
        Self.forEachFrame(in: body, from: start, version: version) { id, data in
            switch id {
            case "TIT2", "TT2": tags.title = tags.title ?? Self.text(data)
            case "TPE1", "TP1": tags.artist = tags.artist ?? Self.text(data)
            case "TPE2", "TP2": if tags.artist == nil { tags.artist = Self.text(data) }
            case "TALB", "TAL": tags.album = tags.album ?? Self.text(data)
            case "TDRC", "TYER", "TYE": tags.year = tags.year ?? Self.text(data)
            case "COMM", "COM": tags.comment = Self.comment(data, skip: 4) ?? tags.comment
            // FFmpeg writes a comment as a user text frame named "comment".
            case "TXXX", "TXX": if tags.comment == nil { tags.comment = Self.comment(data, skip: 1) }
            case "APIC", "PIC":
                if let made = Self.picture(data, legacy: id == "PIC") { pictures.append(made) }
            case "CHAP":
                if let (element, chapter) = Self.chapter(data, version: version) { chapterFrames[element] = chapter }
            case "CTOC":
                if let (topLevel, children) = Self.tableOfContents(data), topLevel || order.isEmpty { order = children }
            default: break
            }
        }
        picture = (pictures.first { $0.0 == 3 } ?? pictures.first)?.1
        let listed = order.compactMap { chapterFrames.removeValue(forKey: $0) }
        chapters = listed + Chapter.ordered(Array(chapterFrames.values))
        if !listed.isEmpty { chapters = Chapter.ordered(chapters) }
        for index in chapters.indices where chapters[index].title.isEmpty { chapters[index].title = "Chapter \(index + 1)" }
    }

    /// Calls `body` with each frame's id and contents (decompressed frames and encrypted ones are
    /// skipped; 2.4's per-frame unsynchronisation is undone).
    private static func forEachFrame(in tag: [UInt8], from start: Int, version: UInt8, _ body: (String, [UInt8]) -> Void) {
        let idBytes = version == 2 ? 3 : 4, headerBytes = version == 2 ? 6 : 10
        var at = start
        while at + headerBytes <= tag.count, tag[at] != 0 {
            let id = String(decoding: tag[at..<(at + idBytes)], as: UTF8.self)
            let size: Int
            if version == 2 {
                size = Int(tag[at + 3]) << 16 | Int(tag[at + 4]) << 8 | Int(tag[at + 5])
            } else if version == 4 {
                guard let syncsafe = syncsafe(tag, at: at + 4) else { return }
                size = syncsafe
            } else {
                size = Int(tag.bigEndian32(at: at + 4) ?? 0)
            }
            let dataStart = at + headerBytes
            guard size > 0, size <= tag.count - dataStart else { return }
            let formatFlags = version >= 3 ? tag[at + 9] : 0
            // Compressed (2.3: 0x80, 2.4: 0x08) or encrypted (0x40 / 0x04): not for us.
            let skipped = version == 3 ? formatFlags & 0xC0 != 0 : formatFlags & 0x0C != 0
            if !skipped {
                var data = Array(tag[dataStart..<(dataStart + size)])
                if version == 4 && formatFlags & 0x02 != 0 { data = resynchronised(data) }
                // 2.4's data length indicator (0x01) comes first: four syncsafe bytes.
                if version == 4 && formatFlags & 0x01 != 0 { data = Array(data.dropFirst(4)) }
                body(id, data)
            }
            at = dataStart + size
        }
    }

    /// A text frame's first value.
    static func text(_ data: [UInt8]) -> String? {
        guard let encoding = data.first else { return nil }
        return decode(Array(data.dropFirst()), encoding: encoding).split(separator: "\0", omittingEmptySubsequences: true)
            .first.map(String.init)?.tagValue
    }

    /// A comment: encoding, language (`skip` 4; a user text frame has none: 1), a description
    /// (iTunes keeps its own data under named ones, which are left out), then the text.
    private static func comment(_ data: [UInt8], skip: Int) -> String? {
        guard data.count > skip else { return nil }
        let encoding = data[0]
        let (description, rest) = terminated(Array(data[skip...]), encoding: encoding)
        if skip == 1 && description.isEmpty { return nil }
        guard description.isEmpty || description.lowercased() == "comment" || description.lowercased() == "description" else { return nil }
        return decode(rest, encoding: encoding).tagValue
    }

    private static func picture(_ data: [UInt8], legacy: Bool) -> (UInt8, Picture)? {
        guard data.count > 5 else { return nil }
        let encoding = data[0]
        var rest: [UInt8]
        var mime: String
        if legacy {
            // 2.2: a three-letter image format.
            mime = String(decoding: data[1..<4], as: UTF8.self).uppercased() == "PNG" ? "image/png" : "image/jpeg"
            rest = Array(data[4...])
        } else {
            let (type, after) = terminated(Array(data[1...]), encoding: 0)
            mime = type.isEmpty ? "image/jpeg" : type.lowercased()
            if !mime.contains("/") { mime = "image/" + mime }
            rest = after
        }
        guard let pictureType = rest.first else { return nil }
        let (_, image) = terminated(Array(rest.dropFirst()), encoding: encoding)
        guard !image.isEmpty else { return nil }
        return (pictureType, Picture(mimeType: mime, data: image))
    }

    /// A CHAP frame: its element id, then start and end times (ms), byte offsets, and sub-frames
    /// (TIT2 for its title).
    private static func chapter(_ data: [UInt8], version: UInt8) -> (String, Chapter)? {
        let (element, rest) = terminated(data, encoding: 0)
        guard rest.count >= 16, let startMs = rest.bigEndian32(at: 0), let endMs = rest.bigEndian32(at: 4) else { return nil }
        var title = ""
        forEachFrame(in: Array(rest[16...]), from: 0, version: version) { id, frame in
            if id == "TIT2", title.isEmpty { title = text(frame) ?? "" }
        }
        let end = endMs == UInt32.max || endMs <= startMs ? nil : Double(endMs) / 1000
        return (element, Chapter(title: title, start: Double(startMs) / 1000, end: end))
    }

    /// A CTOC frame: whether it is the top level, and the element ids it lists.
    private static func tableOfContents(_ data: [UInt8]) -> (Bool, [String])? {
        let (_, rest) = terminated(data, encoding: 0)
        guard rest.count >= 2 else { return nil }
        let topLevel = rest[0] & 0x02 != 0
        var children: [String] = []
        var remaining = Array(rest[2...])
        for _ in 0..<Int(rest[1]) {
            let (child, after) = terminated(remaining, encoding: 0)
            guard !child.isEmpty else { break }
            children.append(child)
            remaining = after
        }
        return (topLevel, children)
    }

    /// Text up to its terminator (one NUL, or two aligned ones in UTF-16), and the bytes after it.
    private static func terminated(_ data: [UInt8], encoding: UInt8) -> (String, [UInt8]) {
        let wide = encoding == 1 || encoding == 2
        var index = 0
        while index < data.count {
            if wide {
                if index + 1 < data.count && data[index] == 0 && data[index + 1] == 0 {
                    return (decode(Array(data[..<index]), encoding: encoding), Array(data[(index + 2)...]))
                }
                index += 2
            } else {
                if data[index] == 0 { return (decode(Array(data[..<index]), encoding: encoding), Array(data[(index + 1)...])) }
                index += 1
            }
        }
        return (decode(data, encoding: encoding), [])
    }

    /// Text in one of ID3's encodings: 0 ISO-8859-1, 1 UTF-16 with a byte order mark, 2 UTF-16BE, 3 UTF-8.
    static func decode(_ bytes: [UInt8], encoding: UInt8) -> String {
        switch encoding {
        case 1, 2:
            var bigEndian = encoding == 2
            var body = bytes[...]
            if body.count >= 2 && body[body.startIndex] == 0xFF && body[body.startIndex + 1] == 0xFE {
                bigEndian = false
                body = body.dropFirst(2)
            } else if body.count >= 2 && body[body.startIndex] == 0xFE && body[body.startIndex + 1] == 0xFF {
                bigEndian = true
                body = body.dropFirst(2)
            }
            return String(decoding: UTF16Units.of(body, bigEndian: bigEndian), as: UTF16.self)
        case 3:
            return String(decoding: bytes, as: UTF8.self)
        default:
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        }
    }

    /// Four 7-bit bytes at `offset` as one 28-bit size; nil if a byte has its top bit set.
    static func syncsafe(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard offset + 4 <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[offset..<(offset + 4)] {
            guard byte & 0x80 == 0 else { return nil }
            value = value << 7 | Int(byte)
        }
        return value
    }

    /// Undoes unsynchronisation: every `FF 00` becomes `FF`.
    private static func resynchronised(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if previous == 0xFF && byte == 0 {
                previous = 0
                continue
            }
            out.append(byte)
            previous = byte
        }
        return out
    }
}
