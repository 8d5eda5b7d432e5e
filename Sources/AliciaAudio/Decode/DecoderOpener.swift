import AliciaLocks
/// Picks the decoder for an item's bytes and reads what the file says of itself.
///
/// MP3 first (an ID3v2 tag or a frame header at byte 0, with the frames that follow agreeing):
/// libmpg123 driven frame by frame, for bounded seeks. An MP4/M4A with an AAC track: its index
/// read here, faad2 decoding (`AACDecoder`). Then libsndfile (WAV, FLAC, Ogg, AIFF…). What none
/// of them opens goes to FFmpeg (ADTS, other codecs in MP4, fragmented MP4), whose libraries are
/// loaded only then, so a WAV or an M4A never maps them.
enum DecoderOpener {
    /// Which decoder an item opened with, so that a reopen (after an interrupted read) takes the
    /// same one without probing again.
    enum Kind: Equatable {
        case sndfile
        case mp3(MP3Stream)
        case aac(MP4AudioTrack)
        case ffmpeg
    }

    struct Opened {
        let decoder: any AudioDecoder
        let kind: Kind
        /// What the file says of itself: read at the first open only (`metadata` given).
        var metadata = ItemMetadata()

        var format: AudioFormat { decoder.format }
    }

    /// What to read besides the audio at a first open.
    struct Metadata {
        /// Where cover art goes; nil: not extracted.
        var coverArt: CoverArtStore?
    }

    /// Opens `source`, as `kind` when it is known from an earlier open.
    static func open(_ source: ByteSource, as kind: Kind? = nil, metadata: Metadata? = nil) throws(DecoderFailure) -> Opened {
        switch kind {
        case .mp3(let stream):
            return Opened(decoder: try Mpg123Decoder(source: source, stream: stream), kind: .mp3(stream))
        case .aac(let track):
            return Opened(decoder: try AACDecoder(source: source, track: track), kind: .aac(track))
        case .sndfile:
            return try openSndfile(source, metadata: metadata)
        case .ffmpeg:
            return try openFFmpeg(source, metadata: metadata, sndfileReason: nil)
        case nil:
            break
        }
        switch MP3Stream.probe(source) {
        case .stream(let stream):
            var opened = Opened(decoder: try Mpg123Decoder(source: source, stream: stream), kind: .mp3(stream))
            if let metadata { try readMP3Metadata(&opened, stream: stream, source: source, metadata) }
            return opened
        case .empty: throw .unreadable("the file is empty")
        case .interrupted: throw .interrupted
        case .failed: throw .sourceFailed
        case .notMP3: break
        }
        guard let head = source.bytes(at: 0, count: 12) else { throw source.failure == nil ? .interrupted : .sourceFailed }
        if ContainerSniff(head).family == .mp4, let opened = try openMP4(source, metadata: metadata) { return opened }
        do {
            return try openSndfile(source, metadata: metadata)
        } catch .unreadable(let reason) {
            return try openFFmpeg(source, metadata: metadata, sndfileReason: reason)
        }
    }

    private static func openSndfile(_ source: ByteSource, metadata: Metadata?) throws(DecoderFailure) -> Opened {
        let file: SndFile
        do {
            file = try SndFile(source: source)
        } catch {
            if error.code == SndfileError.interrupted { throw .interrupted }
            if source.failure != nil { throw .sourceFailed }
            throw .unreadable(error.message)
        }
        var opened = Opened(decoder: file, kind: .sndfile)
        guard metadata != nil else { return opened }
        opened.metadata.tags = file.tags
        if file.isRIFF {
            guard let cues = RIFFCues.chapters(in: source, sampleRate: file.format.sampleRate) else { throw .interrupted }
            opened.metadata.chapters = cues
        }
        return opened
    }

    /// The ID3v2 tags before the first frame: text, cover art (stored once), chapters.
    private static func readMP3Metadata(_ opened: inout Opened, stream: MP3Stream, source: ByteSource, _ metadata: Metadata) throws(DecoderFailure) {
        var offset: Int64 = 0
        while offset < stream.tagsEnd {
            guard let head = source.bytes(at: offset, count: 10) else { throw source.failure == nil ? .interrupted : .sourceFailed }
            guard let size = ID3v2Tag.totalSize(header: head) else { break }
            defer { offset += Int64(size) }
            guard size <= ID3v2Tag.byteLimit else { continue }
            guard let bytes = source.bytes(at: offset, count: size) else { throw source.failure == nil ? .interrupted : .sourceFailed }
            guard let tag = ID3v2Tag(bytes) else { continue }
            opened.metadata.tags = opened.metadata.tags.filled(from: tag.tags)
            if opened.metadata.tags.coverArt == nil, let picture = tag.picture {
                opened.metadata.tags.coverArt = metadata.coverArt?.store(picture.data, mimeType: picture.mimeType)
            }
            if opened.metadata.chapters.isEmpty { opened.metadata.chapters = tag.chapters }
        }
    }

    /// An MP4's AAC track with faad2; nil when it is not one, or faad2 cannot decode it (FFmpeg's, then).
    private static func openMP4(_ source: ByteSource, metadata: Metadata?) throws(DecoderFailure) -> Opened? {
        let track: MP4AudioTrack
        switch MP4AudioTrack.read(source) {
        case .track(let found): track = found
        case .notAAC: return nil
        case .unreadable(let reason): throw .unreadable(reason)
        case .interrupted: throw .interrupted
        case .failed: throw .sourceFailed
        }
        let decoder: AACDecoder
        do {
            decoder = try AACDecoder(source: source, track: track)
        } catch {
            // faad2 missing, or a configuration it does not take: FFmpeg's, if it is there.
            Log.debug(.decode, "AAC: \(error); trying FFmpeg")
            return nil
        }
        var opened = Opened(decoder: decoder, kind: .aac(track))
        guard let metadata else { return opened }
        opened.metadata.tags = track.metadata.tags
        if let picture = track.metadata.picture {
            opened.metadata.tags.coverArt = metadata.coverArt?.store(picture.data, mimeType: picture.mimeType)
        }
        guard let chapters = track.metadata.chapters(from: source) else { throw source.failure == nil ? .interrupted : .sourceFailed }
        opened.metadata.chapters = chapters
        return opened
    }

    /// FFmpeg for what libsndfile cannot open, when the bytes look like something it can.
    private static func openFFmpeg(_ source: ByteSource, metadata: Metadata?, sndfileReason: String?) throws(DecoderFailure) -> Opened {
        guard let head = source.bytes(at: 0, count: 12) else { throw source.failure == nil ? .interrupted : .sourceFailed }
        let container = ContainerSniff(head)
        guard container.isForFFmpeg else { throw .unreadable(sndfileReason ?? "format not recognised") }
        let decoder = try FFmpegDecoder(source: source, sniff: container)
        var opened = Opened(decoder: decoder, kind: .ffmpeg)
        guard let metadata else { return opened }
        opened.metadata.tags = decoder.tags
        if let picture = decoder.picture {
            opened.metadata.tags.coverArt = metadata.coverArt?.store(picture.data, mimeType: picture.mimeType)
        }
        opened.metadata.chapters = decoder.chapters
        return opened
    }
}

/// What the first bytes of a file say it is, for choosing FFmpeg and for words about what cannot
/// be played ("AAC inside MP4 is not supported").
struct ContainerSniff: Equatable {
    enum Family: Equatable { case mp4, adts, other }
    let family: Family

    init(_ head: [UInt8]) {
        if head.count >= 8, Array(head[4..<8]) == Array("ftyp".utf8) {
            family = .mp4
        } else if head.count >= 2, head[0] == 0xFF, head[1] & 0xF6 == 0xF0 {
            family = .adts
        } else {
            family = .other
        }
    }

    var isForFFmpeg: Bool { family != .other }

    var name: String {
        switch family {
        case .mp4: return "AAC inside MP4"
        case .adts: return "AAC (ADTS)"
        case .other: return "this format"
        }
    }
}
