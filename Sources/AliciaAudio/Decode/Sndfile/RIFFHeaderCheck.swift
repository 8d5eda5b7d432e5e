/// Finds, before libsndfile opens a file, the RIFF headers on which libsndfile 1.2.0 (Debian 12's)
/// never returns. Its WAV parser (`wavlike_subchunk_parse`, wav.c's chunk loop) hands a chunk's
/// 32-bit size to `psf_binheader_readf(psf, "j", size)`, whose count is an `int`: a size of 2 GiB or
/// more becomes a jump *backwards* inside the header it has cached, and the same bytes are parsed
/// again forever, at full CPU and with no further read through the virtual I/O, so neither a read
/// that refuses nor a stop can end it (the fuzz target `audio-header` found a LIST whose sub-chunk
/// says 0xFFFFFFF0: a jump of -16 in a loop of 16 bytes; Tests/Fuzz/audio-header/list-negative-jump).
///
/// This walks the chunks as that parser does, with its wrapping 32-bit arithmetic, and names the first
/// backward jump. Anything else odd is left to libsndfile, which handles it: the walk stops at the
/// first chunk it cannot follow. It reads only 8-byte chunk heads (and LIST sub-chunk heads), the ones
/// libsndfile reads next, so over HTTP it asks for nothing libsndfile would not.
enum RIFFHeaderCheck {
    /// Reads `count` bytes at `offset`, or nil where fewer are there (or the read was interrupted).
    typealias Reader = (_ offset: Int64, _ count: Int) -> [UInt8]?

    /// Why libsndfile would hang on this file, or nil. `fileLength` is what the virtual I/O tells
    /// libsndfile (an unknown length is as good as endless there, which disables its own stop at a
    /// chunk longer than the file).
    static func problem(fileLength: Int64, read: Reader) -> String? {
        guard let head = read(0, 12), head[8..<12].elementsEqual("WAVE".utf8) else { return nil }
        let container = String(decoding: head[0..<4], as: UTF8.self)
        guard ["RIFF", "RIFX", "RF64", "BW64"].contains(container) else { return nil }
        let bigEndian = container == "RIFX"
        var position: Int64 = 12
        // A bound on the walk: real files have a handful of chunks; this is never the slow part.
        for _ in 0..<4096 {
            guard position + 8 <= fileLength, let chunk = read(position, 8) else { return nil }
            let marker = name(chunk[0..<4])
            let size = word(chunk, 4, bigEndian: bigEndian)
            let body = position + 8
            guard marker != zeroMarker else { return nil }
            switch marker {
            case "data":
                // RF64 says 0xFFFFFFFF and keeps the real size in ds64: nothing to follow here.
                guard size != UInt32.max || container == "RIFF" || container == "RIFX" else { return nil }
                position = body + min(Int64(size), fileLength - body) + Int64(size & 1)
                continue
            case "LIST", "INFO":
                if let problem = listProblem(at: body, size: size, fileLength: fileLength, bigEndian: bigEndian, read: read) {
                    return problem
                }
            default:
                // wav.c jumps over every other chunk by its size (or stops at 0xFFFF0000 and up for
                // an unknown marker); the jump goes backwards from 2 GiB on, and only its own check
                // of the size against the file's length then stops the loop.
                if size >= 0x8000_0000, Int64(size) < fileLength, container == "RIFF" || container == "RIFX" {
                    return "a \(marker) chunk of \(size) bytes, on which libsndfile would parse the header forever"
                }
            }
            guard Int64(size) < fileLength else { return nil }
            position = body + Int64(size) + Int64(size & 1)
        }
        return nil
    }

    /// A LIST (or INFO) chunk's sub-chunks, walked as `wavlike_subchunk_parse` walks them.
    private static func listProblem(at body: Int64, size: UInt32, fileLength: Int64, bigEndian: Bool, read: Reader) -> String? {
        // Up to 8 bytes is the "broken PEAK" case, which jumps at most 4 bytes back and returns.
        guard size > 8 else { return nil }
        var length = size
        if body + Int64(length) > fileLength { length = UInt32(truncatingIfNeeded: fileLength - body) }
        var consumed: UInt32 = 0
        var position = body
        while consumed < length {
            guard let markerBytes = read(position, 4) else { return nil }
            let marker = name(markerBytes[...])
            position += 4
            consumed &+= 4
            switch marker {
            case "INFO", "adtl":
                continue
            case "exif", "data", zeroMarker, "DISP", "ltxt", "note":
                return nil
            default:
                break
            }
            guard let sizeBytes = read(position, marker == "labl" ? 8 : 4) else { return nil }
            let subSize = word(sizeBytes, 0, bigEndian: bigEndian)
            if stringMarkers.contains(marker) || marker == "labl" {
                // Text of at most 2 KiB, else libsndfile skips to the chunk's end: either way forward.
                let text = marker == "labl" ? subSize &- 4 : subSize
                let padded = text &+ (text & 1)
                guard marker != "labl" || padded >= 1, padded < 2048, padded < length else { return nil }
                let skipped = UInt32(sizeBytes.count) &+ padded
                position += Int64(skipped)
                consumed &+= skipped
                continue
            }
            let padded = subSize &+ (subSize & 1)
            position += 4
            consumed &+= 4
            guard consumed &+ padded <= length else { return nil }
            if Int32(bitPattern: padded) < 0 {
                return "a LIST entry \(marker) of \(subSize) bytes, on which libsndfile would parse the header forever"
            }
            position += Int64(padded)
            consumed &+= padded
        }
        return nil
    }

    /// The INFO entries whose text libsndfile reads into its 2 KiB buffer.
    private static let stringMarkers: Set<String> = [
        "ISFT", "ICOP", "IARL", "IART", "ICMT", "ICRD", "IENG", "IGNR", "INAM", "IPRD", "ISBJ", "ISRC", "IAUT", "ITRK",
    ]

    private static func word(_ bytes: [UInt8], _ at: Int, bigEndian: Bool) -> UInt32 {
        let value = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
        return bigEndian ? value.byteSwapped : value
    }

    /// Four zero bytes where a marker belongs: both parsers stop there.
    private static let zeroMarker = "0x00000000"

    /// A marker as a person can read it (and as the walk compares it): its four characters where
    /// they are printable ASCII, else its bytes in hex.
    private static func name(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) { return String(decoding: bytes, as: UTF8.self) }
        return "0x" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

extension RIFFHeaderCheck {
    /// A WAV of unknown length, as a writer on a pipe leaves it (TTS servers, ffmpeg to stdout):
    /// its RIFF size or its data chunk's size is 0xFFFFFFFF. It plays to where the stream ends; its
    /// length is unknown and that end is no truncation.
    static func declaresUnknownLength(read: Reader) -> Bool {
        guard let head = read(0, 12), head[8..<12].elementsEqual("WAVE".utf8),
              head[0..<4].elementsEqual("RIFF".utf8) else { return false }
        if head[4..<8].allSatisfy({ $0 == 0xFF }) { return true }
        var position: Int64 = 12
        for _ in 0..<16 {
            guard let chunk = read(position, 8) else { return false }
            let size = UInt32(chunk[4]) | UInt32(chunk[5]) << 8 | UInt32(chunk[6]) << 16 | UInt32(chunk[7]) << 24
            if chunk[0..<4].elementsEqual("data".utf8) { return size == UInt32.max }
            position += 8 + Int64(size) + Int64(size & 1)
        }
        return false
    }
}
