/// What the first bytes of an MP3 say: where its ID3v2 tags end, where its frames begin, its info
/// frame, whether the bitrate is constant, how many frames and samples it holds and how to seek it.
/// Found by reading a few KiB at the start (and, for a constant-bitrate file without an info frame,
/// the last 160 bytes for an ID3v1 or APE tag), never by walking the frames.
struct MP3Stream: Equatable, Sendable {
    /// Where the ID3v2 tags at the start end (0: none).
    let tagsEnd: Int64
    /// The first frame: the info frame if there is one, else the first audio frame.
    let firstFrame: Int64
    let audioStart: Int64
    /// The first audio frame's header: the stream's rate, channels and layer.
    let header: MPEGAudioHeader
    let info: MP3InfoFrame?
    let constantBitrate: Bool
    /// Where the frames end (before an ID3v1 or APE tag), when known.
    let audioEnd: Int64?
    let map: MP3SeekMap
    /// Audio frames in the stream, when known.
    let mpegFrames: Int64?
    /// Decoded samples that precede the first one heard: LAME's encoder delay plus libmpg123's
    /// decoder delay (529, as libmpg123's own gapless mode counts it), 0 without a LAME tag.
    let skipStart: Int64
    /// PCM frames heard: the frames' samples less the delay and the padding, when known.
    let itemFrames: Int64?
    /// A VBR file without an info frame: the PCM frames its length holds at the mean bitrate of its
    /// first frames. An estimate, for the duration shown and for seeking; never where decoding stops.
    var estimatedFrames: Int64? = nil

    /// libmpg123's synthesis delay, which its own gapless decoding adds to LAME's figures.
    static let decoderDelay: Int64 = 529

    enum Probe: Equatable {
        case stream(MP3Stream)
        /// The bytes are not an MPEG audio stream.
        case notMP3
        case empty
        case interrupted
        case failed
    }

    /// Frames that must follow one another before a header found by scanning counts as the stream.
    static let framesToTrust = 3

    static func probe(_ source: ByteSource) -> Probe {
        if source.length() == 0 { return .empty }
        var offset: Int64 = 0
        for _ in 0..<4 {
            guard let head = source.bytes(at: offset, count: 10) else { return source.failure == nil ? .interrupted : .failed }
            guard let size = ID3v2Tag.totalSize(header: head) else { break }
            offset += Int64(size)
        }
        let tagsEnd = offset
        // Without a tag the stream must start at byte 0: anything else is another format's business.
        let scanned = scanForFrames(source, from: offset, within: tagsEnd > 0 ? 64 * 1024 : 1)
        guard case .found(let first, let firstHeader) = scanned else {
            switch scanned {
            case .interrupted: return .interrupted
            case .failed: return .failed
            default: return tagsEnd > 0 && source.length().map({ $0 <= tagsEnd }) == true ? .empty : .notMP3
            }
        }
        guard let frame = source.bytes(at: first, count: firstHeader.frameBytes) else { return source.failure == nil ? .interrupted : .failed }
        let info = MP3InfoFrame(frame: frame, header: firstHeader)
        let audioStart = info == nil ? first : first + Int64(firstHeader.frameBytes)
        var header = firstHeader
        if info != nil, let next = source.bytes(at: audioStart, count: 4), let audioHeader = MPEGAudioHeader(next),
           audioHeader.isCompatible(with: firstHeader) {
            header = audioHeader
        }
        var constant = info?.kind == .info
        if info == nil {
            switch sameBitrate(source, from: audioStart, header: header) {
            case .some(let same): constant = same
            case .none: return source.failure == nil ? .interrupted : .failed
            }
        }
        return .stream(make(source, tagsEnd: tagsEnd, first: first, audioStart: audioStart, header: header, info: info, constant: constant))
    }

    private static func make(_ source: ByteSource, tagsEnd: Int64, first: Int64, audioStart: Int64, header: MPEGAudioHeader,
                             info: MP3InfoFrame?, constant: Bool) -> MP3Stream {
        var audioEnd: Int64?
        var frames = info?.frames
        if let bytes = info?.bytes, let length = source.length(), first + bytes <= length {
            audioEnd = first + bytes
        } else if frames == nil, let length = source.length() {
            audioEnd = endBeforeTrailingTags(source, length: length)
        }
        if frames == nil, constant, let audioEnd {
            frames = Int64((Double(audioEnd - audioStart) / header.meanFrameBytes).rounded())
        }
        let samples = Int64(header.samplesPerFrame)
        var skip: Int64 = 0, itemFrames = frames.map { $0 * samples }
        if let delay = info?.encoderDelay, let padding = info?.encoderPadding, info?.kind != .vbri {
            skip = Int64(delay) + decoderDelay
            itemFrames = itemFrames.map { max(0, $0 - Int64(delay) - Int64(padding)) }
        }
        // A VBR file that says nothing of its length: its first frames' mean bitrate stands for the
        // rest. Not a stream without a length (a live one): its bytes come as they play, and
        // walking five seconds of them would hold its start back that long.
        let sampled = frames == nil && !constant && audioEnd != nil ? meanFrameBytes(source, from: audioStart, header: header) : nil
        let map = MP3SeekMap(audioStart: audioStart, tagStart: first, header: header, info: info, constantBitrate: constant,
                             sampledFrameBytes: sampled)
            ?? MP3SeekMap(audioStart: audioStart, tagStart: first, header: header, info: nil, constantBitrate: true)!
        var stream = MP3Stream(tagsEnd: tagsEnd, firstFrame: first, audioStart: audioStart, header: header, info: info,
                               constantBitrate: constant, audioEnd: audioEnd, map: map, mpegFrames: frames,
                               skipStart: skip, itemFrames: itemFrames)
        if let sampled, let audioEnd, audioEnd > audioStart {
            stream.estimatedFrames = Int64((Double(audioEnd - audioStart) / sampled).rounded()) * samples
        }
        return stream
    }

    /// Frames walked at the start to measure a VBR stream's mean frame size: about five seconds,
    /// within the header probe's bytes.
    static let sampleFrames = 192
    static let sampleBytes: Int64 = 56 * 1024

    /// The mean size of the frames from `offset` (up to `sampleFrames` of them, within
    /// `sampleBytes`); nil when fewer than 8 could be walked.
    private static func meanFrameBytes(_ source: ByteSource, from offset: Int64, header: MPEGAudioHeader) -> Double? {
        var at = offset, count = 0
        while count < sampleFrames, at + 4 <= offset + sampleBytes,
              let bytes = source.bytes(at: at, count: 4), let next = MPEGAudioHeader(bytes), next.isCompatible(with: header) {
            at += Int64(next.frameBytes)
            count += 1
        }
        return count >= 8 ? Double(at - offset) / Double(count) : nil
    }

    /// Where the frames of a file of `length` bytes end: before an ID3v1 tag (`TAG`, 128 bytes)
    /// and an APEv2 tag (`APETAGEX` footer) at its end.
    private static func endBeforeTrailingTags(_ source: ByteSource, length: Int64) -> Int64 {
        var end = length
        if end >= 128, let tag = source.bytes(at: end - 128, count: 3), tag == Array("TAG".utf8) { end -= 128 }
        if end >= 32, let footer = source.bytes(at: end - 32, count: 32), footer.count == 32,
           footer.starts(with: Array("APETAGEX".utf8)) {
            let size = Int64(footer[12]) | Int64(footer[13]) << 8 | Int64(footer[14]) << 16 | Int64(footer[15]) << 24
            let hasHeader = footer[23] & 0x80 != 0
            end -= min(end, size + (hasHeader ? 32 : 0))
        }
        return end
    }

    /// Whether the first eight frames from `offset` share one bitrate; nil when a read was cut short.
    private static func sameBitrate(_ source: ByteSource, from offset: Int64, header: MPEGAudioHeader) -> Bool? {
        var at = offset
        for _ in 0..<8 {
            guard let bytes = source.bytes(at: at, count: 4) else { return nil }
            guard let next = MPEGAudioHeader(bytes), next.isCompatible(with: header) else { return true }
            if next.bitrate != header.bitrate { return false }
            at += Int64(next.frameBytes)
        }
        return true
    }

    enum Scan: Equatable {
        case found(Int64, MPEGAudioHeader)
        case notFound
        case interrupted
        case failed
    }

    /// The first offset in `[from, from + within)` where `framesToTrust` frames follow one another,
    /// each compatible with the first (and with `stream`, when given). Reads 4 KiB at a time (and
    /// the frames that must follow), so a resync near where it starts reads little.
    static func scanForFrames(_ source: ByteSource, from: Int64, within: Int, like stream: MPEGAudioHeader? = nil) -> Scan {
        let step = 4096, follow = 2_881 * framesToTrust + 4
        var start = 0
        while start < within {
            let span = min(step, within - start)
            guard let bytes = source.bytes(at: from + Int64(start), count: span + follow) else {
                return source.failure == nil ? .interrupted : .failed
            }
            if let found = firstChain(in: bytes, before: span, like: stream) { return .found(from + Int64(start + found.0), found.1) }
            if bytes.count < span + follow { break }
            start += span
        }
        return .notFound
    }

    /// Where in `bytes[..<before]` a chain of frames starts, and its first header.
    private static func firstChain(in bytes: [UInt8], before: Int, like stream: MPEGAudioHeader?) -> (Int, MPEGAudioHeader)? {
        var index = 0
        while index < min(before, bytes.count - 3) {
            defer { index += 1 }
            guard bytes[index] == 0xFF, let header = MPEGAudioHeader(bytes[index], bytes[index + 1], bytes[index + 2], bytes[index + 3]),
                  stream.map({ header.isCompatible(with: $0) }) ?? true else { continue }
            var next = index + header.frameBytes, chained = 1
            while chained < framesToTrust, next + 4 <= bytes.count,
                  let following = MPEGAudioHeader(bytes[next], bytes[next + 1], bytes[next + 2], bytes[next + 3]),
                  following.isCompatible(with: header) {
                chained += 1
                next += following.frameBytes
            }
            // A stream shorter than the frames to trust counts if it ends right after them.
            if chained == framesToTrust || next >= bytes.count { return (index, header) }
        }
        return nil
    }
}
