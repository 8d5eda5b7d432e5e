internal import CFaad
import AliciaLocks

/// Decodes the AAC track of an MP4/M4A with faad2, one sample (packet) at a time, walking the
/// track's sample table over any `ByteSource`: only the index and the packets played are read,
/// and a seek is a table look-up, no read at all.
///
/// Timing: faad2 withholds the output of the first packet it decodes after it is set up, and
/// gives each later packet's own audio; the first packet of a file is the encoder's priming,
/// which the edit list drops anyway. A seek sets the decoder up afresh two packets before the
/// target's (the MDCT overlaps the packet before; the second is the one withheld) and drops
/// decoded frames up to the target, so a seek is exact to the frame and gives what decoding
/// through would (within float rounding). Gapless: the priming the edit list (or iTunSMPB) names
/// is dropped and the item ends at its stated length, so the encoder's padding is never heard.
/// Output is interleaved float. One thread at a time (the feeder's).
final class AACDecoder: AudioDecoder {
    let format: AudioFormat
    let track: MP4AudioTrack
    private let source: ByteSource
    private let api: UnsafePointer<alicia_faad_api>
    private var handle: NeAACDecHandle?
    /// Output frames per unit of the track's time scale (2 where SBR doubles the rate).
    private let ratio: Double
    /// One packet's bytes, padded.
    private var packet: [UInt8] = []

    // The packet walk.
    private var nextPacket = 0
    private var nextOffset: Int64 = 0
    private var chunk = 0

    /// The last decoded packet's frames not yet delivered: faad2's buffer, its frame count and
    /// channels, the item frame of its first frame, how many are used.
    private var pcm: UnsafePointer<Float>?
    private var pcmFrames = 0
    private var pcmChannels = 0
    private var pcmStart: Int64 = 0
    private var pcmUsed = 0
    /// The item frame to deliver next; where the item ends.
    private var nextFrame: Int64 = 0
    private let endFrame: Int64

    private(set) var interrupted = false
    var isTruncated: Bool { false }

    init(source: ByteSource, track: MP4AudioTrack) throws(DecoderFailure) {
        var reason: UnsafePointer<CChar>?
        guard let api = alicia_faad(&reason) else {
            throw .unreadable("AAC inside MP4 is not supported: faad2 cannot be loaded (\(reason.map { String(cString: $0) } ?? "libfaad.so.2"))")
        }
        self.api = api
        self.source = source
        self.track = track
        guard let (handle, rate, channels) = Self.open(api, track.decoderConfig) else {
            throw .unreadable("AAC inside MP4 is not supported: faad2 does not take its configuration")
        }
        self.handle = handle
        let ratio = Double(rate) / Double(track.timescale)
        self.ratio = ratio
        let available = Int64(roundedClamped: Double(track.table.duration - track.priming) * ratio)
        let stated = track.playLength.map { Int64(roundedClamped: Double($0) * ratio) } ?? available
        endFrame = min(available, stated)
        format = AudioFormat(sampleRate: rate, channels: channels, sampleType: .float32, frames: endFrame, description: "MP4 · AAC")
        let largest = min(Self.packetLimit, track.table.sizes.max().map(Int.init) ?? Int(track.table.fixedSize))
        packet = [UInt8](repeating: 0, count: largest + Self.padding)
        nextOffset = track.table.offset(of: 0)
    }

    deinit {
        if let handle { api.pointee.close(handle) }
    }

    /// The largest packet read: an AAC frame holds at most 6,144 bits a channel (48 channels: 36 KiB).
    static let packetLimit = 1 << 16
    /// Zeros past a packet: faad2's bit reader may look a few bytes ahead of what it is given.
    static let padding = 64

    /// A decoder set up from `config`: its output rate and channels.
    private static func open(_ api: UnsafePointer<alicia_faad_api>, _ config: [UInt8]) -> (NeAACDecHandle, Int, Int)? {
        guard let handle = api.pointee.open() else { return nil }
        if let settings = api.pointee.configuration(handle) {
            settings.pointee.outputFormat = UInt8(FAAD_FMT_FLOAT)
            settings.pointee.downMatrix = 0
            _ = api.pointee.set_configuration(handle, settings)
        }
        var bytes = config
        var rate: UInt = 0
        var channels: UInt8 = 0
        let result = bytes.withUnsafeMutableBufferPointer { api.pointee.init2(handle, $0.baseAddress, UInt($0.count), &rate, &channels) }
        guard result == 0, rate > 0, channels > 0 else {
            api.pointee.close(handle)
            return nil
        }
        return (handle, Int(rate), Int(channels))
    }

    func read(into buffer: UnsafeMutableRawPointer, frames: Int) -> Int {
        let out = buffer.assumingMemoryBound(to: Float.self)
        var filled = 0
        while filled < frames && nextFrame < endFrame {
            if pcmUsed < pcmFrames {
                let at = pcmStart + Int64(pcmUsed)
                if at < nextFrame {
                    pcmUsed += Int(min(Int64(pcmFrames - pcmUsed), nextFrame - at))
                    continue
                }
                if at > nextFrame {
                    // A packet faad2 could not decode: its time is heard as silence.
                    let gap = Int(min(at - nextFrame, Int64(frames - filled), endFrame - nextFrame))
                    (out + filled * format.channels).update(repeating: 0, count: gap * format.channels)
                    filled += gap
                    nextFrame += Int64(gap)
                    continue
                }
                let take = Int(min(Int64(min(pcmFrames - pcmUsed, frames - filled)), endFrame - nextFrame))
                copy(from: pcmUsed, count: take, into: out + filled * format.channels)
                pcmUsed += take
                filled += take
                nextFrame += Int64(take)
                continue
            }
            if interrupted || !decodeNext() { break }
        }
        return filled
    }

    /// Reads and decodes the next packet into `pcm`; false at the end or when a read stopped.
    private func decodeNext() -> Bool {
        let table = track.table
        guard nextPacket < table.count, let handle else { return false }
        let size = table.size(of: nextPacket)
        guard size <= Self.packetLimit else {
            Log.debug(.decode, "AAC packet \(nextPacket): \(size) bytes, more than AAC allows")
            return false
        }
        if size > packet.count - Self.padding { packet = [UInt8](repeating: 0, count: size + Self.padding) }
        let read = packet.withUnsafeMutableBytes { source.readFully(at: nextOffset, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<size])) }
        switch read {
        case .interrupted:
            interrupted = true
            return false
        case .failed:
            return false
        case .bytes(let count) where count < size:
            Log.debug(.decode, "AAC: the file ends inside packet \(nextPacket)")
            return false
        case .bytes:
            break
        }
        let start = Int64(roundedClamped: Double(table.time(of: nextPacket, cursor: &timeCursor) - track.priming) * ratio)
        var info = NeAACDecFrameInfo()
        let samples = packet.withUnsafeMutableBufferPointer { api.pointee.decode(handle, &info, $0.baseAddress, UInt(size)) }
        nextOffset = table.offset(after: nextPacket, at: nextOffset, chunk: &chunk)
        nextPacket += 1
        pcmUsed = 0
        pcmFrames = 0
        if info.error != 0 {
            Log.debug(.decode, "AAC packet \(nextPacket - 1): \(api.pointee.error_message(info.error).map { String(cString: $0) } ?? "error \(info.error)")")
            return true
        }
        guard let samples, info.channels > 0, info.samples > 0 else { return true }
        pcm = UnsafePointer(samples.assumingMemoryBound(to: Float.self))
        pcmChannels = Int(info.channels)
        pcmFrames = Int(info.samples) / pcmChannels
        pcmStart = start
        return true
    }

    /// The time of each packet, walked forward with the packets (a seek resets it).
    private var timeCursor = MP4SampleTable.TimeCursor()

    /// Copies `count` frames of the decoded packet from `start`, each channel from faad2's
    /// channel of the same index (the last one where it has fewer: parametric stereo it reports
    /// as one channel sounds in both).
    private func copy(from start: Int, count: Int, into out: UnsafeMutablePointer<Float>) {
        guard let pcm else { return }
        let channels = format.channels
        if pcmChannels == channels {
            out.update(from: pcm + start * channels, count: count * channels)
            return
        }
        for frame in 0..<count {
            for channel in 0..<channels {
                out[frame * channels + channel] = pcm[(start + frame) * pcmChannels + min(channel, pcmChannels - 1)]
            }
        }
    }

    /// Sets the decoder up afresh two packets before the one playing at `target` and drops what
    /// it decodes up to it. Reads nothing.
    func seek(toFrame target: Int64) -> Bool {
        let table = track.table
        let goal = max(0, min(target, endFrame))
        let mediaTime = track.priming &+ Int64(roundedClamped: (Double(goal) / ratio).rounded(.down))
        let first = max(0, table.sample(at: mediaTime) - 2)
        if let handle { api.pointee.close(handle) }
        handle = Self.open(api, track.decoderConfig)?.0
        nextPacket = first
        chunk = table.chunk(of: first)
        nextOffset = table.offset(of: first)
        timeCursor = MP4SampleTable.TimeCursor()
        (pcm, pcmFrames, pcmUsed) = (nil, 0, 0)
        nextFrame = goal
        return handle != nil
    }

    /// Nothing is half-read between packets: the next seek goes on from the table.
    func clearInterruption() -> Bool {
        interrupted = false
        return true
    }
}
