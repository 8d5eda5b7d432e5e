/// What the first frame of an MP3 may say about the whole stream instead of holding audio: a
/// Xing (VBR) or Info (CBR) tag with the frame and byte counts and a 100-entry table of contents,
/// LAME's extension with the encoder delay and padding (for gapless playback), or Fraunhofer's VBRI
/// tag with a table of byte sizes per run of frames. Parsed from the frame's own bytes.
struct MP3InfoFrame: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// "Xing": variable bitrate.
        case xing
        /// "Info": LAME's and FFmpeg's tag on a constant-bitrate file.
        case info
        case vbri
    }

    let kind: Kind
    /// Audio frames in the stream, the info frame not counted.
    var frames: Int64?
    /// Bytes of the stream (Xing: from the info frame on; VBRI: likewise).
    var bytes: Int64?
    /// Xing: `toc[i]` is where i % of the duration lies, in 256ths of `bytes`.
    var toc: [UInt8]?
    /// VBRI: the byte size of each run of `framesPerEntry` frames, from the frame after the tag on.
    var vbriSizes: [Int64]?
    var framesPerEntry: Int64 = 0
    /// Samples the encoder added at the start and the end (LAME's tag), for gapless playback.
    var encoderDelay: Int?
    var encoderPadding: Int?

    /// Finds a tag in `frame` (its header first), or nil when it is an ordinary audio frame.
    init?(frame: [UInt8], header: MPEGAudioHeader) {
        let xingAt = 4 + (header.protected ? 2 : 0) + header.sideInfoBytes
        if let xing = Self.xing(frame, at: xingAt) {
            self = xing
        } else if let vbri = Self.vbri(frame, at: 36) {
            self = vbri
        } else {
            return nil
        }
    }

    private init(kind: Kind) { self.kind = kind }

    private static func xing(_ f: [UInt8], at start: Int) -> MP3InfoFrame? {
        guard f.count >= start + 8 else { return nil }
        let tag = String(decoding: f[start..<(start + 4)], as: UTF8.self)
        guard tag == "Xing" || tag == "Info" else { return nil }
        guard let flags = f.bigEndian32(at: start + 4) else { return nil }
        var made = MP3InfoFrame(kind: tag == "Xing" ? .xing : .info)
        var at = start + 8
        if flags & 1 != 0, let value = f.bigEndian32(at: at) {
            made.frames = Int64(value)
            at += 4
        }
        if flags & 2 != 0, let value = f.bigEndian32(at: at) {
            made.bytes = Int64(value)
            at += 4
        }
        if flags & 4 != 0 {
            guard f.count >= at + 100 else { return made }
            made.toc = Array(f[at..<(at + 100)])
            at += 100
        }
        if flags & 8 != 0 { at += 4 }
        // LAME's extension: a 9-byte encoder name, then the delay and padding 12 bits each at +21.
        // FFmpeg's muxer writes the same fields under its own name.
        if f.count >= at + 24 {
            let encoder = String(decoding: f[at..<(at + 4)], as: UTF8.self)
            if ["LAME", "Lavf", "Lavc", "GOGO", "L3.9"].contains(encoder) {
                let b0 = Int(f[at + 21]), b1 = Int(f[at + 22]), b2 = Int(f[at + 23])
                made.encoderDelay = b0 << 4 | b1 >> 4
                made.encoderPadding = (b1 & 0xF) << 8 | b2
            }
        }
        return made
    }

    private static func vbri(_ f: [UInt8], at start: Int) -> MP3InfoFrame? {
        guard f.count >= start + 26, String(decoding: f[start..<(start + 4)], as: UTF8.self) == "VBRI",
              let bytes = f.bigEndian32(at: start + 10), let frames = f.bigEndian32(at: start + 14) else { return nil }
        var made = MP3InfoFrame(kind: .vbri)
        made.bytes = Int64(bytes)
        made.frames = Int64(frames)
        made.encoderDelay = Int(f[start + 6]) << 8 | Int(f[start + 7])
        let entries = Int(f[start + 18]) << 8 | Int(f[start + 19])
        let scale = Int64(Int(f[start + 20]) << 8 | Int(f[start + 21]))
        let entryBytes = Int(f[start + 22]) << 8 | Int(f[start + 23])
        made.framesPerEntry = Int64(Int(f[start + 24]) << 8 | Int(f[start + 25]))
        let table = start + 26
        guard (1...4).contains(entryBytes), made.framesPerEntry > 0, f.count >= table + entries * entryBytes else { return made }
        made.vbriSizes = (0..<entries).map { entry in
            var value: Int64 = 0
            for byte in f[(table + entry * entryBytes)..<(table + (entry + 1) * entryBytes)] { value = value << 8 | Int64(byte) }
            return value * max(1, scale)
        }
        return made
    }
}

extension Array where Element == UInt8 {
    /// The big-endian 32-bit value at `offset`, if the bytes are there.
    func bigEndian32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= count else { return nil }
        return UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8 | UInt32(self[offset + 3])
    }
}
