/// An MP4/M4A file's tags (iTunes `ilst`), cover (`covr`) and chapters: Nero's `chpl` list, or a
/// QuickTime chapter text track (`tref/chap`), whose titles are samples read from the file when
/// asked (`chapters(from:)`).
struct MP4Metadata: Sendable {
    var tags = MediaTags()
    var picture: ID3v2Tag.Picture?
    /// From `chpl`, in seconds.
    var listedChapters: [Chapter] = []
    /// The chapter text track's table and time scale, when there is one and no `chpl`.
    var chapterTrack: (table: MP4SampleTable, timescale: Int64)?
    /// iTunes's gapless information (`iTunSMPB`): priming and length in samples.
    var iTunesGapless: (priming: Int64, length: Int64)?

    init(_ bytes: [UInt8], moov: Range<Int>, tracks: [MP4TrackBoxes], audio: MP4TrackBoxes) {
        let ilst = MP4Box.find(["udta", "meta", "ilst"], in: bytes, moov) ?? MP4Box.find(["meta", "ilst"], in: bytes, moov)
        if let ilst { readItems(bytes, ilst.body) }
        if let chpl = MP4Box.find(["udta", "chpl"], in: bytes, moov) { listedChapters = Self.nero(bytes, chpl.body) }
        if listedChapters.isEmpty, let id = audio.chapterTracks.first,
           let text = tracks.first(where: { $0.id == id && $0.timescale > 0 }),
           let table = MP4SampleTable(bytes, stbl: text.stbl) {
            chapterTrack = (table, text.timescale)
        }
    }

    private mutating func readItems(_ bytes: [UInt8], _ ilst: Range<Int>) {
        var tags = MediaTags()
        var comment: String?
        var albumArtist: String?
        for item in MP4Box.children(of: bytes, in: ilst) {
            if item.type == MP4Box.code("----") {
                readCustom(bytes, item.body)
                continue
            }
            guard let (kind, payload) = Self.data(bytes, item.body) else { continue }
            if item.type == MP4Box.code("covr") {
                if picture == nil, !payload.isEmpty {
                    let png = kind == 14 || payload.starts(with: [0x89, 0x50, 0x4E, 0x47])
                    picture = ID3v2Tag.Picture(mimeType: png ? "image/png" : "image/jpeg", data: Array(payload))
                }
                continue
            }
            guard kind == 1, let text = String(validating: payload, as: UTF8.self)?.tagValue else { continue }
            switch item.type {
            case MP4Box.code("nam", first: 0xA9): tags.title = text
            case MP4Box.code("ART", first: 0xA9): tags.artist = text
            case MP4Box.code("aART"): albumArtist = text
            case MP4Box.code("alb", first: 0xA9): tags.album = text
            case MP4Box.code("day", first: 0xA9): tags.year = text
            case MP4Box.code("cmt", first: 0xA9): tags.comment = text
            case MP4Box.code("desc"): comment = text
            default: break
            }
        }
        tags.artist = tags.artist ?? albumArtist
        tags.comment = tags.comment ?? comment
        self.tags = tags
    }

    /// An item's `data` box: its type (1 UTF-8, 13 JPEG, 14 PNG) and payload.
    private static func data(_ bytes: [UInt8], _ item: Range<Int>) -> (UInt32, ArraySlice<UInt8>)? {
        guard let data = MP4Box.child(MP4Box.code("data"), of: bytes, in: item) else { return nil }
        var reader = MP4Reader(bytes, data.body)
        guard let kind = reader.u32(), reader.skip(4), let payload = reader.take(reader.remaining) else { return nil }
        return (kind & 0xFF_FFFF, payload)
    }

    /// A `----` item: iTunes's `iTunSMPB` (" 00000000 PRIMING PADDING LENGTH …" in hex).
    private mutating func readCustom(_ bytes: [UInt8], _ item: Range<Int>) {
        guard let name = MP4Box.child(MP4Box.code("name"), of: bytes, in: item) else { return }
        var reader = MP4Reader(bytes, name.body)
        guard reader.skip(4), let key = reader.take(reader.remaining), String(decoding: key, as: UTF8.self) == "iTunSMPB",
              let (_, payload) = Self.data(bytes, item) else { return }
        let fields = String(decoding: payload, as: UTF8.self).split(separator: " ").compactMap { Int64($0, radix: 16) }
        guard fields.count >= 4, fields[1] >= 0, fields[3] > 0 else { return }
        iTunesGapless = (fields[1], fields[3])
    }

    /// Nero's chapter list: start times in 100 ns and titles.
    private static func nero(_ bytes: [UInt8], _ body: Range<Int>) -> [Chapter] {
        var reader = MP4Reader(bytes, body)
        guard let version = reader.version(), reader.skip(version == 0 ? 0 : 4), let count = reader.u8() else { return [] }
        var chapters: [Chapter] = []
        for index in 0..<Int(count) {
            guard let start = reader.u64(), let length = reader.u8(), let title = reader.take(Int(length)) else { break }
            let text = String(decoding: title, as: UTF8.self).tagValue ?? "Chapter \(index + 1)"
            chapters.append(Chapter(title: text, start: Double(start) / 10_000_000))
        }
        return Chapter.ordered(chapters)
    }

    /// The chapters: the listed ones, or the chapter track's samples read from `source` (each a
    /// 16-bit length and its text); nil when a read was interrupted or failed.
    func chapters(from source: ByteSource) -> [Chapter]? {
        guard let (table, timescale) = chapterTrack else { return listedChapters }
        var chapters: [Chapter] = []
        for sample in 0..<min(table.count, 1_000) {
            let size = min(table.size(of: sample), 1_024)
            guard size >= 2 else { continue }
            guard let bytes = source.bytes(at: table.offset(of: sample), count: size) else { return nil }
            var reader = MP4Reader(bytes, 0..<bytes.count)
            guard let length = reader.u16(), let text = reader.take(min(Int(length), reader.remaining)) else { continue }
            let title = Self.text(text) ?? "Chapter \(sample + 1)"
            chapters.append(Chapter(title: title, start: Double(table.time(of: sample)) / Double(timescale)))
        }
        return Chapter.ordered(chapters)
    }

    /// A chapter sample's text: UTF-16 after a byte-order mark, else UTF-8.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        if bytes.starts(with: [0xFE, 0xFF]) {
            let units = stride(from: bytes.startIndex + 2, to: bytes.endIndex - 1, by: 2).map {
                UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
            }
            return String(decoding: units, as: UTF16.self).tagValue
        }
        return String(decoding: bytes, as: UTF8.self).tagValue
    }
}
