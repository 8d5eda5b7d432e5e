#if canImport(Glibc)
import Glibc
#endif

/// What a rendered file says of itself: a title (the playlist's name or the first item's), an
/// album, an artist, the first item's cover, and the chapters.
public struct RenderTags: Sendable, Equatable {
    public var title: String
    public var album: String
    public var artist: String?
    /// A picture file (JPEG or PNG) to embed as the front cover.
    public var coverPath: String?
    public var chapters: [RenderedChapter] = []

    public init(title: String, album: String, artist: String? = nil, coverPath: String? = nil) {
        self.title = title
        self.album = album
        self.artist = artist
        self.coverPath = coverPath
    }

    /// The cover: its bytes and MIME type, when the file is a JPEG or a PNG of at most 16 MiB.
    func cover() -> (bytes: [UInt8], mime: String)? {
        guard let path = coverPath, let bytes = Self.read(path, limit: 16 << 20), bytes.count > 8 else { return nil }
        if bytes[0] == 0xFF && bytes[1] == 0xD8 { return (bytes, "image/jpeg") }
        if bytes[0] == 0x89 && bytes[1] == 0x50 && bytes[2] == 0x4E && bytes[3] == 0x47 { return (bytes, "image/png") }
        return nil
    }

    /// Vorbis comments (Ogg and FLAC): the tags, and `CHAPTERnnn` / `CHAPTERnnnNAME` pairs as
    /// players and ffmpeg read them.
    func vorbisComments() -> [String] {
        var comments = ["TITLE=" + title, "ALBUM=" + album]
        if let artist { comments.append("ARTIST=" + artist) }
        for (index, chapter) in chapters.enumerated() {
            let key = "CHAPTER" + Self.padded(index + 1, to: 3)
            comments.append(key + "=" + Self.clock(chapter.start))
            comments.append(key + "NAME=" + chapter.title)
        }
        return comments
    }

    /// `HH:MM:SS.mmm`.
    static func clock(_ seconds: Double) -> String {
        let millis = Int((max(0, seconds) * 1000).rounded())
        return padded(millis / 3_600_000, to: 2) + ":" + padded(millis / 60_000 % 60, to: 2) + ":"
            + padded(millis / 1000 % 60, to: 2) + "." + padded(millis % 1000, to: 3)
    }

    static func padded(_ value: Int, to width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// A FLAC picture block's body (what Ogg's `METADATA_BLOCK_PICTURE` holds, in base64).
    static func pictureBlock(_ bytes: [UInt8], mime: String) -> [UInt8] {
        var block: [UInt8] = []
        func u32(_ value: Int) { block += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        u32(3)  // the front cover
        u32(mime.utf8.count)
        block += Array(mime.utf8)
        u32(0)  // no description
        for _ in 0..<4 { u32(0) }  // width, height, depth, colours: unknown
        u32(bytes.count)
        return block + bytes
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let a = Int(bytes[index]), b = index + 1 < bytes.count ? Int(bytes[index + 1]) : 0
            let c = index + 2 < bytes.count ? Int(bytes[index + 2]) : 0
            out.append(alphabet[a >> 2])
            out.append(alphabet[(a & 3) << 4 | b >> 4])
            out.append(index + 1 < bytes.count ? alphabet[(b & 15) << 2 | c >> 6] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[c & 63] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A whole small file, or nil (missing, unreadable, larger than `limit`).
    static func read(_ path: String, limit: Int) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 65_536, file) }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > limit { return nil }
        }
        return bytes
    }
}
