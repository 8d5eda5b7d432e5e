internal import CSndfile

/// Owns one libsndfile handle opened over a `ByteSource` (`sf_open_virtual`), so
/// nothing is downloaded to disk first. One thread at a time.
final class SndFile: AudioDecoder {
    private let handle: OpaquePointer
    /// Kept alive for libsndfile's callbacks, which reach it through `user_data`.
    private let file: VirtualFile
    let format: AudioFormat
    let isTruncated: Bool

    /// Opens and parses the header; blocks on the source. Wraps `sf_open_virtual`.
    init(source: ByteSource) throws(SndfileError) {
        file = VirtualFile(source: source)
        // Headers libsndfile 1.2.0 would parse forever, out of reach of any stop (RIFFHeaderCheck).
        if let problem = RIFFHeaderCheck.problem(fileLength: file.reportedLength, read: file.peek) {
            if file.interrupted { throw SndfileError(code: SndfileError.interrupted, message: "interrupted") }
            throw SndfileError(code: SndfileError.malformedFile, message: problem)
        }
        if file.interrupted { throw SndfileError(code: SndfileError.interrupted, message: "interrupted") }
        let unknownLength = RIFFHeaderCheck.declaresUnknownLength(read: file.peek)
        var io = VirtualFile.callbacks
        var info = SF_INFO()
        guard let handle = sf_open_virtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(file).toOpaque()) else {
            if file.interrupted { throw SndfileError(code: SndfileError.interrupted, message: "interrupted") }
            throw SndfileError(code: sf_error(nil), message: String(cString: sf_strerror(nil)))
        }
        // Checked before `self` is whole: a throw after that would run `deinit`, closing the handle twice.
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(handle)
            throw SndfileError(code: SndfileError.malformedFile, message: "no channels or no sample rate in the header")
        }
        self.handle = handle
        let subtype = info.format & Int32(SF_FORMAT_SUBMASK)
        let sampleType: SampleType
        switch subtype {
        case Int32(SF_FORMAT_PCM_16), Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_U8):
            sampleType = .int16
        case Int32(SF_FORMAT_PCM_24), Int32(SF_FORMAT_PCM_32):
            sampleType = .int32
        default:
            sampleType = .float32
        }
        // Float sources read through the integer paths would need scaling; they use
        // the float path. Clip rather than wrap where a float source overshoots.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        let log = SndFile.logText(handle)
        format = AudioFormat(
            sampleRate: Int(info.samplerate),
            channels: Int(info.channels),
            sampleType: sampleType,
            frames: !unknownLength && info.frames > 0 && info.frames < Int64(Int32.max) * 1024 ? info.frames : nil,
            description: SndFile.describe(info.format)
        )
        isTruncated = !unknownLength && SndFile.declaresMissingData(log)
    }

    deinit { sf_close(handle) }

    var interrupted: Bool { file.interrupted }
    var failed: Bool { file.failed }

    /// libsndfile latches a short read as the end (audio-stack pitfall 1): it is reopened instead.
    func clearInterruption() -> Bool { false }

    /// Wraps `sf_readf_short`, `sf_readf_int` and `sf_readf_float`.
    func read(into buffer: UnsafeMutableRawPointer, frames: Int) -> Int {
        let count = sf_count_t(frames)
        switch format.sampleType {
        case .int16: return Int(sf_readf_short(handle, buffer.assumingMemoryBound(to: Int16.self), count))
        case .int32: return Int(sf_readf_int(handle, buffer.assumingMemoryBound(to: Int32.self), count))
        case .float32: return Int(sf_readf_float(handle, buffer.assumingMemoryBound(to: Float.self), count))
        }
    }

    /// Wraps `sf_seek`.
    func seek(toFrame frame: Int64) -> Bool {
        sf_seek(handle, frame, SEEK_SET) == frame
    }

    /// What the file says of itself: RIFF INFO, Vorbis comments (FLAC, Ogg), AIFF and CAF strings.
    /// Wraps `sf_get_string`.
    var tags: MediaTags {
        func string(_ type: Int32) -> String? {
            sf_get_string(handle, type).map { String(cString: $0) }?.tagValue
        }
        return MediaTags(title: string(Int32(SF_STR_TITLE)), artist: string(Int32(SF_STR_ARTIST)),
                         album: string(Int32(SF_STR_ALBUM)), year: string(Int32(SF_STR_DATE)),
                         comment: string(Int32(SF_STR_COMMENT)))
    }

    /// The container, as libsndfile names it ("WAV (Microsoft)", "FLAC", …).
    var isRIFF: Bool { format.description.hasPrefix("WAV") }

    /// The last error libsndfile recorded for this handle. Wraps `sf_strerror`.
    var lastError: String { String(cString: sf_strerror(handle)) }

    private static func logText(_ handle: OpaquePointer) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let length = Int(sf_command(handle, Int32(SFC_GET_LOG_INFO), &buffer, Int32(buffer.count)))
        return String(decoding: buffer.prefix(min(max(length, 0), buffer.count)).prefix { $0 != 0 }, as: UTF8.self)
    }

    /// libsndfile shortens a data chunk that runs past the end of the file and
    /// notes it in its log as `data : 384000 (should be 192000)`.
    static func declaresMissingData(_ log: String) -> Bool {
        log.split(separator: "\n").contains { line in
            line.hasPrefix("data") && line.utf8.split(separator: UInt8(ascii: "(")).dropFirst().contains { $0.starts(with: "should be".utf8) }
        }
    }

    private static func describe(_ format: Int32) -> String {
        var major = SF_FORMAT_INFO()
        major.format = format & Int32(SF_FORMAT_TYPEMASK)
        var sub = SF_FORMAT_INFO()
        sub.format = format & Int32(SF_FORMAT_SUBMASK)
        var parts: [String] = []
        if sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &major, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
           let name = major.name {
            parts.append(String(cString: name))
        }
        if sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &sub, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
           let name = sub.name {
            parts.append(String(cString: name))
        }
        return parts.joined(separator: " · ")
    }
}
