internal import CMpg123
import AliciaLocks

/// Decodes an MP3 with libmpg123 as a frame decoder: the player walks the frames itself (from
/// `MP3Stream`'s layout, over any `ByteSource`), feeds them one at a time (feed mode), and so
/// knows which frame every sample belongs to. A seek looks the frame up in the stream's seek map,
/// reads from there (a bounded fetch, not everything before it), resynchronises on a frame header,
/// decodes a few frames before the target to fill the bit reservoir and the filter banks, and
/// drops samples up to the target. Gapless: LAME's encoder delay and padding are trimmed here
/// (libmpg123's own gapless mode is off, since it never sees the info frame).
///
/// libmpg123 runs quiet (`MPG123_QUIET`): its messages would land on the terminal; errors are
/// logged at debug level instead. One thread at a time (the feeder's).
final class Mpg123Decoder: AudioDecoder {
    let format: AudioFormat
    let stream: MP3Stream
    private let source: ByteSource
    private let handle: OpaquePointer
    /// One frame's bytes: 2,881 at most (MPEG-1 layer II/III at 320 kb/s, 32 kHz, padded, with CRC).
    private let frameBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)

    // The frame walk.
    /// The next frame to feed, and its index among the stream's audio frames.
    private var offset: Int64
    private var frameIndex: Int64 = 0
    /// The frame index libmpg123 counts its frames from since it was last reset.
    private var baseFrame: Int64 = 0
    /// The decoded samples of the last frame not yet delivered (libmpg123's buffer), and the index,
    /// in decoded samples from the stream's start, of the first of them.
    private var pending: UnsafePointer<Float>?
    private var pendingFrames = 0
    private var pendingSample: Int64 = 0
    /// The decoded sample to deliver next (the item's frame plus `stream.skipStart`).
    private var nextSample: Int64
    /// Where the item ends, in decoded samples, when known.
    private let endSample: Int64?
    private var ended = false
    /// Frames a resync skipped, still to be heard as silence.
    private var lostFrames: Int64 = 0
    /// One frame of silence, for them.
    private let silence: UnsafeMutablePointer<Float>

    private(set) var interrupted = false
    private(set) var failed = false
    private(set) var isTruncated = false

    /// Opens the stream `probe` found in `source`. Throws when libmpg123 cannot be set up.
    init(source: ByteSource, stream: MP3Stream) throws(DecoderFailure) {
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else {
            frameBuffer.deallocate()
            throw .unreadable("libmpg123: \(String(cString: mpg123_plain_strerror(error)))")
        }
        self.handle = handle
        self.source = source
        self.stream = stream
        let flags = MPG123_QUIET.rawValue | MPG123_NO_READAHEAD.rawValue | MPG123_IGNORE_INFOFRAME.rawValue | MPG123_SKIP_ID3V2.rawValue
        mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(flags), 0)
        mpg123_param2(handle, Int32(MPG123_REMOVE_FLAGS.rawValue), Int(MPG123_GAPLESS.rawValue | MPG123_AUTO_RESAMPLE.rawValue), 0)
        mpg123_format_none(handle)
        mpg123_format2(handle, 0, Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue), Int32(MPG123_ENC_FLOAT_32.rawValue))
        mpg123_open_feed(handle)
        offset = stream.audioStart
        nextSample = stream.skipStart
        let silenceCount = stream.header.samplesPerFrame * stream.header.channels
        silence = .allocate(capacity: silenceCount)
        silence.initialize(repeating: 0, count: silenceCount)
        endSample = stream.itemFrames.map { $0 + stream.skipStart }
        let header = stream.header
        var format = AudioFormat(sampleRate: header.sampleRate, channels: header.channels, sampleType: .float32,
                                 frames: stream.itemFrames ?? stream.estimatedFrames, description: Self.describe(stream))
        format.framesEstimated = stream.itemFrames == nil && stream.estimatedFrames != nil
        self.format = format
    }

    deinit {
        mpg123_delete(handle)
        frameBuffer.deallocate()
        silence.deallocate()
    }

    private var samplesPerFrame: Int64 { Int64(stream.header.samplesPerFrame) }

    var nominalByteRate: Double? { Double(stream.header.bitrate) / 8 }

    /// Decodes up to `frames` frames of interleaved float samples into `buffer`.
    func read(into buffer: UnsafeMutableRawPointer, frames: Int) -> Int {
        let channels = format.channels
        let out = buffer.assumingMemoryBound(to: Float.self)
        var filled = 0
        while filled < frames {
            if pendingFrames > 0, let pending {
                if pendingSample < nextSample {
                    // Before the target: priming frames, the encoder's delay, the start of a frame.
                    let drop = Int(min(Int64(pendingFrames), nextSample - pendingSample))
                    self.pending = pending + drop * channels
                    pendingFrames -= drop
                    pendingSample += Int64(drop)
                    continue
                }
                var take = min(pendingFrames, frames - filled)
                if let endSample { take = Int(min(Int64(take), max(0, endSample - pendingSample))) }
                if take == 0 {
                    ended = true
                    break
                }
                (out + filled * channels).update(from: pending, count: take * channels)
                self.pending = pending + take * channels
                pendingFrames -= take
                pendingSample += Int64(take)
                nextSample = pendingSample
                filled += take
                continue
            }
            if ended || interrupted || failed || !decodeNextFrame() { break }
        }
        return filled
    }

    /// Reads the next frame, feeds it and takes what libmpg123 decodes of it. False at the end or
    /// on an interrupted or failed read.
    private func decodeNextFrame() -> Bool {
        if let endSample, frameIndex * samplesPerFrame >= endSample { return finish() }
        if let audioEnd = stream.audioEnd, offset >= audioEnd { return finish() }
        if let total = stream.mpegFrames, frameIndex >= total { return finish() }
        if lostFrames > 0 { return playLostFrame() }
        guard let size = readFrame() else { return false }
        // A resync found the frame after a damage: its lost frames come first (it is read again).
        if lostFrames > 0 { return playLostFrame() }
        mpg123_feed(handle, frameBuffer.baseAddress!.assumingMemoryBound(to: UInt8.self), size)
        offset += Int64(size)
        frameIndex += 1
        while true {
            var number: off_t = 0
            var audio: UnsafeMutablePointer<UInt8>?
            var bytes = 0
            let result = mpg123_decode_frame(handle, &number, &audio, &bytes)
            switch result {
            case MPG123_NEW_FORMAT.rawValue:
                continue
            case MPG123_OK.rawValue:
                guard let audio, bytes > 0 else { continue }
                pending = UnsafeRawPointer(audio).assumingMemoryBound(to: Float.self)
                pendingFrames = bytes / (4 * format.channels)
                pendingSample = (baseFrame + Int64(number)) * samplesPerFrame
                return true
            case MPG123_NEED_MORE.rawValue:
                return true
            default:
                Log.debug(.decode, "libmpg123 at frame \(frameIndex - 1): \(String(cString: mpg123_plain_strerror(result)))")
                return true
            }
        }
    }

    /// One skipped frame's silence as the pending samples (the frame read stays to be fed).
    private func playLostFrame() -> Bool {
        lostFrames -= 1
        pending = UnsafePointer(silence)
        pendingFrames = stream.header.samplesPerFrame
        pendingSample = frameIndex * samplesPerFrame
        frameIndex += 1
        baseFrame += 1
        return true
    }

    /// The item has ended.
    private func finish() -> Bool {
        ended = true
        return false
    }

    /// Reads the frame at `offset` into the frame buffer (resynchronising past anything that is not
    /// a frame of this stream) and returns its size; nil at the end or when a read stopped.
    private func readFrame() -> Int? {
        for _ in 0..<2 {
            switch source.readFully(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: frameBuffer[0..<4])) {
            case .bytes(4):
                let b = frameBuffer
                if let header = MPEGAudioHeader(b[0], b[1], b[2], b[3]), header.isCompatible(with: stream.header),
                   header.frameBytes <= frameBuffer.count {
                    switch source.readFully(at: offset + 4, into: UnsafeMutableRawBufferPointer(rebasing: frameBuffer[4..<header.frameBytes])) {
                    case .bytes(let n) where n == header.frameBytes - 4: return header.frameBytes
                    case .bytes: return endShort()
                    case .interrupted: return stopped(interrupted: true)
                    case .failed: return stopped(interrupted: false)
                    }
                }
                guard resynchronise() else { return nil }
            case .bytes: return endShort()
            case .interrupted: return stopped(interrupted: true)
            case .failed: return stopped(interrupted: false)
            }
        }
        return endShort()
    }

    /// The bytes ended: short of what the info frame or the size promised, the file is truncated.
    private func endShort() -> Int? {
        ended = true
        if let total = stream.mpegFrames, frameIndex < total - 1 { isTruncated = true }
        return nil
    }

    private func stopped(interrupted: Bool) -> Int? {
        if interrupted { self.interrupted = true } else { failed = true }
        return nil
    }

    /// Moves `offset` to the next frame header of this stream within 64 KiB (junk, a damaged
    /// frame, a tag in the middle); false at the end or when a read stopped.
    private func resynchronise() -> Bool {
        switch MP3Stream.scanForFrames(source, from: offset + 1, within: 64 * 1024, like: stream.header) {
        case .found(let at, _):
            // The frames lost in the damage are heard as silence, so that the time after them
            // stays the file's (exact with a constant bitrate, an estimate from the mean else).
            let lost = stream.map.isExact ? stream.map.frame(atByte: at) - frameIndex
                : Int64((Double(at - offset) / stream.header.meanFrameBytes).rounded())
            Log.debug(.decode, "MP3: skipped \(at - offset) bytes that were not a frame at byte \(offset) (\(max(0, lost)) frames)")
            lostFrames = max(0, lost)
            offset = at
            return true
        case .notFound: return finish()
        case .interrupted: interrupted = true
        case .failed: failed = true
        }
        return false
    }

    /// Moves to `frame` of the item: finds a frame a few before it (a bounded read where the seek
    /// map puts it), resets libmpg123 there and drops what is decoded before the target.
    func seek(toFrame frame: Int64) -> Bool {
        let target = stream.skipStart + max(0, frame)
        let targetFrame = target / samplesPerFrame
        var (at, landing) = (stream.audioStart, max(0, targetFrame - primingFrames))
        // A few bytes early: a constant-bitrate frame starts within a byte of the mean's place.
        var slack: Int64 = 4
        search: while landing > 0 {
            let estimate = max(stream.audioStart, stream.map.byteOffset(ofFrame: landing) - slack)
            switch MP3Stream.scanForFrames(source, from: estimate, within: 64 * 1024, like: stream.header) {
            case .found(let found, _):
                let index = stream.map.frame(atByte: found)
                if index <= targetFrame || slack > 1 << 20 {
                    (at, landing) = (found, min(index, targetFrame))
                    break search
                }
                // The resync went past the target (junk where the frame should be): look earlier.
                slack *= 16
            case .notFound:
                (at, landing) = (stream.audioStart, 0)
            case .interrupted:
                interrupted = true
                return false
            case .failed:
                failed = true
                return false
            }
        }
        mpg123_open_feed(handle)
        (offset, frameIndex, baseFrame, lostFrames) = (at, landing, landing, 0)
        (pending, pendingFrames, pendingSample) = (nil, 0, landing * samplesPerFrame)
        nextSample = target
        (ended, interrupted, failed) = (false, false, false)
        Log.debug(.decode, "MP3 seek to frame \(frame): MPEG frame \(targetFrame), reading from frame \(landing) at byte \(at)"
            + (stream.map.isExact ? "" : " (estimated)"))
        return true
    }

    /// A read was cut short: the next seek starts afresh from wherever it lands, so the decoder
    /// need not be reopened.
    func clearInterruption() -> Bool {
        interrupted = false
        return true
    }

    /// Frames decoded before a seek's target and dropped: layer III's bit reservoir reaches up to
    /// 511 bytes back (so as many frames as hold that much main data), and the IMDCT overlap and
    /// the synthesis filter bank need the two frames before the target decoded whole.
    private var primingFrames: Int64 {
        let header = stream.header
        guard header.layer == 3 else { return 2 }
        let mainData = max(16, header.meanFrameBytes - 4 - Double(header.sideInfoBytes))
        return min(24, 3 + Int64((512 / mainData).rounded(.up)))
    }

    private static func describe(_ stream: MP3Stream) -> String {
        let header = stream.header
        let version = header.version == .mpeg1 ? "MPEG-1" : header.version == .mpeg2 ? "MPEG-2" : "MPEG-2.5"
        let layer = ["", "I", "II", "III"][header.layer]
        let rate = stream.constantBitrate ? "\(header.bitrate / 1000) kb/s" : stream.estimatedFrames != nil ? "VBR (length estimated)" : "VBR"
        return "\(version) Layer \(layer) · \(rate)"
    }
}
