/// What an MP4/M4A file says of its AAC track, read from its index (`moov`) once per item: the
/// sample table, the decoder's configuration, the encoder's priming and the length to play
/// (gapless), and the file's tags, cover and chapters.
///
/// Only the index is read: a file with the index at the end ("no faststart") costs a read there,
/// one Range request, as it does mpv. Fragmented MP4 (`mvex`) and other codecs are not this type's:
/// `read` says `.notAAC` and FFmpeg opens them.
final class MP4AudioTrack: Sendable, Equatable {
    let table: MP4SampleTable
    /// Units per second of the table's times.
    let timescale: Int64
    /// The AudioSpecificConfig faad2 starts from.
    let decoderConfig: [UInt8]
    /// Media time the encoder primed with (dropped before the first frame heard).
    let priming: Int64
    /// Media time to play after the priming, where the file says (an edit list, or iTunSMPB).
    let playLength: Int64?
    let metadata: MP4Metadata

    static func == (a: MP4AudioTrack, b: MP4AudioTrack) -> Bool { a === b }

    private init(table: MP4SampleTable, timescale: Int64, decoderConfig: [UInt8], priming: Int64,
                 playLength: Int64?, metadata: MP4Metadata) {
        self.table = table
        self.timescale = timescale
        self.decoderConfig = decoderConfig
        self.priming = priming
        self.playLength = playLength
        self.metadata = metadata
    }

    enum Probe {
        case track(MP4AudioTrack)
        /// An MP4 this type does not play (another codec, fragments, no index found): FFmpeg's.
        case notAAC
        case unreadable(String)
        case interrupted
        case failed
    }

    /// The largest index read: a 2-hour M4A's is about 1.5 MB.
    static let indexLimit: Int64 = 64 << 20

    /// Finds the top-level `moov` box (walking the boxes before it by their sizes) and reads it.
    static func read(_ source: ByteSource) -> Probe {
        var offset: Int64 = 0
        let length = source.length()
        for _ in 0..<256 {
            guard let head = source.bytes(at: offset, count: 16) else { return source.failure == nil ? .interrupted : .failed }
            var reader = MP4Reader(head, 0..<head.count)
            guard let size32 = reader.u32(), let type = reader.u32() else { return .notAAC }
            var size = Int64(size32)
            var header = 8
            if size32 == 1 {
                guard let large = reader.u64(), large <= UInt64(Int64.max) else { return .notAAC }
                (size, header) = (Int64(large), 16)
            } else if size32 == 0 {
                guard let length else { return .notAAC }
                size = length - offset
            }
            guard size >= Int64(header) else { return .notAAC }
            if type == MP4Box.code("moov") {
                guard size <= indexLimit else { return .unreadable("AAC inside MP4 is not supported: its index is \(size) bytes") }
                guard let bytes = source.bytes(at: offset, count: Int(size)) else { return source.failure == nil ? .interrupted : .failed }
                guard bytes.count == Int(size) else { return .unreadable("the MP4 file is cut short in its index") }
                return parse(bytes, header..<bytes.count)
            }
            if type == MP4Box.code("moof") { return .notAAC }
            offset += size
        }
        return .notAAC
    }

    /// The AAC track of the `moov` box's body `moov`.
    private static func parse(_ bytes: [UInt8], _ moov: Range<Int>) -> Probe {
        let boxes = MP4Box.children(of: bytes, in: moov)
        guard !boxes.contains(where: { $0.type == MP4Box.code("mvex") }),
              let mvhd = boxes.first(where: { $0.type == MP4Box.code("mvhd") }),
              let movieScale = timescale(bytes, mvhd.body) else { return .notAAC }
        let tracks = boxes.filter { $0.type == MP4Box.code("trak") }.compactMap { MP4TrackBoxes(bytes, $0.body) }
        guard let audio = tracks.first(where: { $0.handler == MP4Box.code("soun") }) else { return .notAAC }
        guard let config = audio.aacConfig(bytes), let table = MP4SampleTable(bytes, stbl: audio.stbl),
              audio.timescale > 0 else { return .notAAC }
        let metadata = MP4Metadata(bytes, moov: moov, tracks: tracks, audio: audio)
        var priming: Int64 = 0
        var playLength: Int64?
        if let edit = audio.edit(bytes), movieScale > 0 {
            priming = edit.mediaTime
            playLength = edit.duration > 0 ? Int64(roundedClamped: Double(edit.duration) * Double(audio.timescale) / Double(movieScale)) : nil
        } else if let gapless = metadata.iTunesGapless {
            (priming, playLength) = (gapless.priming, gapless.length)
        }
        guard priming >= 0, priming < table.duration, table.duration > 0 else { return .notAAC }
        return .track(MP4AudioTrack(table: table, timescale: audio.timescale, decoderConfig: config, priming: priming,
                                    playLength: playLength, metadata: metadata))
    }

    /// `mvhd`'s or `mdhd`'s time scale.
    static func timescale(_ bytes: [UInt8], _ body: Range<Int>) -> Int64? {
        var reader = MP4Reader(bytes, body)
        guard let version = reader.version(), reader.skip(version == 1 ? 16 : 8), let scale = reader.u32() else { return nil }
        return Int64(scale)
    }
}

/// The boxes of one `trak` that the player reads.
struct MP4TrackBoxes {
    let id: UInt32
    let handler: UInt32
    let timescale: Int64
    let stbl: Range<Int>
    let edts: Range<Int>?
    /// The track ids its `tref/chap` names (its chapter track).
    let chapterTracks: [UInt32]

    init?(_ bytes: [UInt8], _ trak: Range<Int>) {
        guard let tkhd = MP4Box.find(["tkhd"], in: bytes, trak), let mdhd = MP4Box.find(["mdia", "mdhd"], in: bytes, trak),
              let hdlr = MP4Box.find(["mdia", "hdlr"], in: bytes, trak),
              let stbl = MP4Box.find(["mdia", "minf", "stbl"], in: bytes, trak),
              let scale = MP4AudioTrack.timescale(bytes, mdhd.body) else { return nil }
        var reader = MP4Reader(bytes, tkhd.body)
        guard let version = reader.version(), reader.skip(version == 1 ? 16 : 8), let id = reader.u32() else { return nil }
        var handlerReader = MP4Reader(bytes, hdlr.body)
        guard handlerReader.version() != nil, handlerReader.skip(4), let handler = handlerReader.u32() else { return nil }
        self.id = id
        self.handler = handler
        timescale = scale
        self.stbl = stbl.body
        edts = MP4Box.find(["edts"], in: bytes, trak)?.body
        var chapters: [UInt32] = []
        if let chap = MP4Box.find(["tref", "chap"], in: bytes, trak) {
            var ids = MP4Reader(bytes, chap.body)
            while let id = ids.u32() { chapters.append(id) }
        }
        chapterTracks = chapters
    }

    /// The first edit that plays media: where it starts (the priming) and for how long (in the
    /// movie's time scale).
    func edit(_ bytes: [UInt8]) -> (mediaTime: Int64, duration: Int64)? {
        guard let edts, let elst = MP4Box.child(MP4Box.code("elst"), of: bytes, in: edts) else { return nil }
        var reader = MP4Reader(bytes, elst.body)
        guard let version = reader.version(), let count = reader.u32() else { return nil }
        for _ in 0..<min(count, 64) {
            let duration: UInt64?
            let mediaTime: Int64?
            if version == 1 {
                duration = reader.u64()
                mediaTime = reader.u64().map { Int64(bitPattern: $0) }
            } else {
                duration = reader.u32().map(UInt64.init)
                mediaTime = reader.u32().map { Int64(Int32(bitPattern: $0)) }
            }
            guard let duration, let mediaTime, reader.skip(4), duration <= UInt64(Int64.max) else { return nil }
            if mediaTime >= 0 { return (mediaTime, Int64(duration)) }
        }
        return nil
    }

    /// The AudioSpecificConfig of an `mp4a` sample entry whose `esds` names AAC.
    func aacConfig(_ bytes: [UInt8]) -> [UInt8]? {
        guard let stsd = MP4Box.child(MP4Box.code("stsd"), of: bytes, in: stbl) else { return nil }
        var reader = MP4Reader(bytes, stsd.body)
        guard reader.version() != nil, reader.skip(4) else { return nil }
        guard let entry = MP4Box.children(of: bytes, in: reader.offset..<stsd.body.upperBound).first,
              entry.type == MP4Box.code("mp4a") else { return nil }
        var fields = MP4Reader(bytes, entry.body)
        // Reserved (6), data reference (2), then the sound description: its version says how long.
        guard fields.skip(8), let version = fields.u16(), fields.skip(18) else { return nil }
        guard fields.skip(version == 1 ? 16 : version == 2 ? 36 : 0) else { return nil }
        let children = MP4Box.children(of: bytes, in: fields.offset..<entry.body.upperBound)
        let esds = children.first { $0.type == MP4Box.code("esds") }
            ?? children.first { $0.type == MP4Box.code("wave") }.flatMap { MP4Box.child(MP4Box.code("esds"), of: bytes, in: $0.body) }
        return esds.flatMap { Self.decoderSpecificInfo(bytes, $0.body) }
    }

    /// MPEG-4 audio (0x40) or MPEG-2 AAC (0x66-0x68): the DecoderSpecificInfo inside `esds`.
    private static func decoderSpecificInfo(_ bytes: [UInt8], _ body: Range<Int>) -> [UInt8]? {
        var reader = MP4Reader(bytes, body)
        guard reader.version() != nil, descriptor(&reader) == 0x03, reader.skip(2), let flags = reader.u8() else { return nil }
        if flags & 0x80 != 0 { guard reader.skip(2) else { return nil } }
        if flags & 0x40 != 0 { guard let length = reader.u8(), reader.skip(Int(length)) else { return nil } }
        if flags & 0x20 != 0 { guard reader.skip(2) else { return nil } }
        guard descriptor(&reader) == 0x04, let objectType = reader.u8(), [0x40, 0x66, 0x67, 0x68].contains(objectType),
              reader.skip(12) else { return nil }
        var length = 0
        guard descriptor(&reader, length: &length) == 0x05, length > 0, let config = reader.take(length) else { return nil }
        return Array(config)
    }

    /// A descriptor's tag, its length (1-4 bytes of 7 bits) read past.
    private static func descriptor(_ reader: inout MP4Reader) -> UInt8? {
        var length = 0
        return descriptor(&reader, length: &length)
    }

    private static func descriptor(_ reader: inout MP4Reader, length: inout Int) -> UInt8? {
        guard let tag = reader.u8() else { return nil }
        length = 0
        for _ in 0..<4 {
            guard let byte = reader.u8() else { return nil }
            length = length << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { return tag }
        }
        return tag
    }
}
