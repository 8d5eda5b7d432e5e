/// An ID3v2.4 tag for a rendered MP3: title, album, artist, the cover (`APIC`), and the chapters as
/// the ID3 chapter addendum has them (a top-level, ordered `CTOC` naming every `CHAP`, each with its
/// start and end in milliseconds and a `TIT2` of its own). Text is UTF-8.
enum ID3Chapters {
    static func tag(_ tags: RenderTags, padding: Int = 1024) -> [UInt8] {
        var frames = text("TIT2", tags.title) + text("TALB", tags.album)
        if let artist = tags.artist { frames += text("TPE1", artist) }
        if let (bytes, mime) = tags.cover() {
            frames += frame("APIC", [3] + Array(mime.utf8) + [0, 3, 0] + bytes)
        }
        // CTOC counts its entries in one byte.
        let chapters = Array(tags.chapters.prefix(255))
        if !chapters.isEmpty {
            var toc: [UInt8] = Array("toc".utf8) + [0, 0x03, UInt8(chapters.count)]
            for index in chapters.indices { toc += Array("chp\(index)".utf8) + [0] }
            frames += frame("CTOC", toc)
            for (index, chapter) in chapters.enumerated() {
                var body: [UInt8] = Array("chp\(index)".utf8) + [0]
                body += u32(Int((chapter.start * 1000).rounded())) + u32(Int((chapter.end * 1000).rounded()))
                body += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]  // no byte offsets
                body += text("TIT2", chapter.title)
                frames += frame("CHAP", body)
            }
        }
        let size = frames.count + padding
        return Array("ID3".utf8) + [4, 0, 0] + synchsafe(size) + frames + [UInt8](repeating: 0, count: padding)
    }

    /// The bytes an ID3v2 tag at the start of `head` takes (header, body, footer), or 0.
    static func size(atStartOf head: [UInt8]) -> Int {
        guard head.count >= 10, head[0] == 0x49, head[1] == 0x44, head[2] == 0x33 else { return 0 }
        let body = Int(head[6] & 0x7F) << 21 | Int(head[7] & 0x7F) << 14 | Int(head[8] & 0x7F) << 7 | Int(head[9] & 0x7F)
        return 10 + body + (head[5] & 0x10 != 0 ? 10 : 0)
    }

    private static func text(_ id: String, _ value: String) -> [UInt8] { frame(id, [3] + Array(value.utf8)) }

    private static func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + synchsafe(body.count) + [0, 0] + body
    }

    private static func u32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func synchsafe(_ value: Int) -> [UInt8] {
        [UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)]
    }
}
