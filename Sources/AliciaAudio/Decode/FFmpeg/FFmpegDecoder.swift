#if canImport(Glibc)
import Glibc
#endif
internal import CFFmpeg
import AliciaLocks

/// Decodes what libsndfile cannot open (AAC in MP4/M4A, ADTS) with FFmpeg's libavformat and
/// libavcodec, loaded on first use, reading through `FFmpegIO` from the item's fetcher.
///
/// Positions come from each decoded frame's timestamp, so a seek (to the packet before the target,
/// less 2048 samples of pre-roll for the codec's overlap) drops samples up to the exact frame
/// asked for. Gapless: the priming samples the container's edit list names are dropped by
/// libavcodec (`AV_PKT_DATA_SKIP_SAMPLES`, from libavformat), and the stream ends at its stated
/// duration, so the encoder's padding is never heard. Output is interleaved float.
final class FFmpegDecoder: AudioDecoder {
    let format: AudioFormat
    /// What the container says of itself, read at open.
    let tags: MediaTags
    let chapters: [Chapter]
    let picture: ID3v2Tag.Picture?

    private let api: UnsafePointer<alicia_ffmpeg_api>
    private let io: FFmpegIO
    private var container: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private let packet: UnsafeMutablePointer<AVPacket>
    private let frame: UnsafeMutablePointer<AVFrame>
    private let streamIndex: Int32
    private let timeBase: AVRational

    // The frame being delivered: how many of its samples are used, and the index of its first.
    private var haveFrame = false
    private var frameUsed = 0
    private var frameSample: Int64 = 0
    /// The item frame to deliver next; where the stream ends, when it says.
    private var nextSample: Int64 = 0
    private let endSample: Int64?
    private var drained = false
    private var flushing = false

    var interrupted: Bool { io.interrupted }
    var isTruncated: Bool { false }

    /// Opens `source` (whose first bytes `sniff` describes, for the words of a failure).
    init(source: ByteSource, sniff: ContainerSniff) throws(DecoderFailure) {
        let api: UnsafePointer<alicia_ffmpeg_api>
        switch FFmpegLibrary.api() {
        case .success(let loaded): api = loaded
        case .failure(let failure): throw .unreadable("\(sniff.name) is not supported: FFmpeg cannot be loaded (\(failure.reason))")
        }
        guard let io = FFmpegIO(source: source, api: api), let packet = api.pointee.packet_alloc(),
              let frame = api.pointee.frame_alloc() else { throw .unreadable("out of memory opening FFmpeg") }
        self.api = api
        self.io = io
        self.packet = packet
        self.frame = frame
        let opened = Self.openContainer(api, io: io, sniff: sniff)
        guard case .opened(let container, let stream, let codec) = opened else {
            var p: UnsafeMutablePointer<AVPacket>? = packet
            api.pointee.packet_free(&p)
            var f: UnsafeMutablePointer<AVFrame>? = frame
            api.pointee.frame_free(&f)
            io.close()
            if case .failed(let failure) = opened { throw failure }
            throw .unreadable("\(sniff.name): no audio")
        }
        self.container = container
        self.codec = codec
        streamIndex = stream.pointee.index
        timeBase = stream.pointee.time_base
        let parameters = stream.pointee.codecpar.pointee
        let rate = Int(parameters.sample_rate)
        let frames = Self.samples(stream.pointee.duration, timeBase, rate: rate)
        endSample = frames
        let codecName = Self.codecName(api, parameters.codec_id)
        let containerName = sniff.family == .mp4 ? "MP4" : sniff.family == .adts ? "ADTS" : String(cString: container.pointee.iformat.pointee.name)
        format = AudioFormat(sampleRate: rate, channels: Int(parameters.ch_layout.nb_channels), sampleType: .float32,
                             frames: frames, description: "\(containerName) · \(codecName.uppercased())")
        tags = Self.tags(api, container)
        chapters = Self.chapters(api, container)
        picture = Self.picture(container)
    }

    deinit {
        api.pointee.codec_free(&codec)
        api.pointee.close_input(&container)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        api.pointee.packet_free(&p)
        var f: UnsafeMutablePointer<AVFrame>? = frame
        api.pointee.frame_free(&f)
        io.close()
    }

    private enum Container {
        case opened(UnsafeMutablePointer<AVFormatContext>, UnsafeMutablePointer<AVStream>, UnsafeMutablePointer<AVCodecContext>)
        case failed(DecoderFailure)
    }

    /// The container opened over `io`, its best audio stream and that stream's decoder.
    private static func openContainer(_ api: UnsafePointer<alicia_ffmpeg_api>, io: FFmpegIO, sniff: ContainerSniff) -> Container {
        var container = api.pointee.format_alloc()
        guard container != nil else { return .failed(.unreadable("out of memory")) }
        container?.pointee.pb = io.context
        container?.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var result = api.pointee.open_input(&container, nil, nil, nil)
        func failure(_ what: String) -> Container {
            api.pointee.close_input(&container)
            if io.interrupted { return .failed(.interrupted) }
            if io.failed { return .failed(.sourceFailed) }
            return .failed(.unreadable("\(sniff.name) is not supported: \(what)"))
        }
        guard result >= 0, let opened = container else { return failure(FFmpegLibrary.message(result, api)) }
        result = api.pointee.find_stream_info(opened, nil)
        guard result >= 0 else { return failure(FFmpegLibrary.message(result, api)) }
        var decoder: UnsafePointer<AVCodec>?
        let index = api.pointee.find_best_stream(opened, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        guard index >= 0, let stream = opened.pointee.streams[Int(index)] else { return failure("no audio stream in it") }
        guard let decoder else {
            return failure("no decoder for \(codecName(api, stream.pointee.codecpar.pointee.codec_id))")
        }
        var codec = api.pointee.codec_alloc(decoder)
        guard let made = codec, api.pointee.parameters_to_context(made, stream.pointee.codecpar) >= 0 else {
            api.pointee.codec_free(&codec)
            return failure("cannot set up its decoder")
        }
        result = api.pointee.codec_open(made, decoder, nil)
        guard result >= 0, made.pointee.sample_rate > 0, made.pointee.ch_layout.nb_channels > 0 else {
            api.pointee.codec_free(&codec)
            return failure(FFmpegLibrary.message(result, api))
        }
        return .opened(opened, stream, made)
    }

    /// FFmpeg's name of a codec ("aac"). Wraps `avcodec_get_name`.
    private static func codecName(_ api: UnsafePointer<alicia_ffmpeg_api>, _ id: AVCodecID) -> String {
        api.pointee.codec_name(id).map { String(cString: $0) } ?? "an unknown codec"
    }

    /// `value` in `base` as a count of samples at `rate`; nil when it is not set.
    private static func samples(_ value: Int64, _ base: AVRational, rate: Int) -> Int64? {
        guard value != alicia_av_nopts(), base.den > 0 else { return nil }
        return Int64((Double(value) * Double(base.num) * Double(rate) / Double(base.den)).rounded())
    }

    func read(into buffer: UnsafeMutableRawPointer, frames: Int) -> Int {
        let out = buffer.assumingMemoryBound(to: Float.self)
        var filled = 0
        while filled < frames {
            if haveFrame {
                let available = Int(frame.pointee.nb_samples) - frameUsed
                let at = frameSample + Int64(frameUsed)
                if at < nextSample {
                    frameUsed += Int(min(Int64(available), nextSample - at))
                } else {
                    var take = min(available, frames - filled)
                    if let endSample { take = Int(min(Int64(take), max(0, endSample - at))) }
                    if take == 0 && available > 0 {
                        drained = true
                        haveFrame = false
                        break
                    }
                    copy(from: frameUsed, count: take, into: out + filled * format.channels)
                    frameUsed += take
                    filled += take
                    nextSample = at + Int64(take)
                }
                if frameUsed >= Int(frame.pointee.nb_samples) {
                    haveFrame = false
                    api.pointee.frame_unref(frame)
                }
                continue
            }
            if drained || interrupted || !nextFrame() { break }
        }
        return filled
    }

    /// Decodes the next frame of the stream into `frame`; false at the end or when a read stopped.
    private func nextFrame() -> Bool {
        guard let codec, let container else { return false }
        while true {
            let received = api.pointee.receive_frame(codec, frame)
            if received >= 0 {
                let pts = frame.pointee.best_effort_timestamp
                frameSample = Self.samples(pts, timeBase, rate: format.sampleRate) ?? frameSample + Int64(frameUsed)
                (haveFrame, frameUsed) = (true, 0)
                return true
            }
            if received == alicia_averror_eof() {
                drained = true
                return false
            }
            guard received == alicia_averror_eagain() else {
                Log.debug(.decode, "FFmpeg decode: \(FFmpegLibrary.message(received, api))")
                drained = true
                return false
            }
            if flushing { return false }
            let read = api.pointee.read_frame(container, packet)
            if read < 0 {
                if io.interrupted { return false }
                if read != alicia_averror_eof() { Log.debug(.decode, "FFmpeg read: \(FFmpegLibrary.message(read, api))") }
                // The end (or a broken rest): what the decoder holds comes out.
                flushing = true
                _ = api.pointee.send_packet(codec, nil)
                continue
            }
            if packet.pointee.stream_index == streamIndex {
                let sent = api.pointee.send_packet(codec, packet)
                if sent < 0 { Log.debug(.decode, "FFmpeg packet: \(FFmpegLibrary.message(sent, api))") }
            }
            api.pointee.packet_unref(packet)
        }
    }

    /// Copies `count` frames from the decoded frame, from frame `start`, as interleaved float. A
    /// frame with fewer channels than the stream said (a damaged file whose container and codec
    /// disagree) fills the others from its last one; one with more has the rest left out.
    private func copy(from start: Int, count: Int, into out: UnsafeMutablePointer<Float>) {
        let channels = format.channels
        let frameChannels = Int(frame.pointee.ch_layout.nb_channels)
        let sampleFormat = AVSampleFormat(rawValue: frame.pointee.format)
        let planar = [AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_DBLP, AV_SAMPLE_FMT_U8P].contains(sampleFormat)
        guard let planes = frame.pointee.extended_data, frameChannels > 0 else {
            out.update(repeating: 0, count: count * channels)
            return
        }
        for channel in 0..<channels {
            let source = min(channel, frameChannels - 1)
            guard let plane = planes[planar ? source : 0] else { continue }
            for index in 0..<count {
                let sample = planar ? start + index : (start + index) * frameChannels + source
                out[index * channels + channel] = Self.value(plane, sample, sampleFormat)
            }
        }
    }

    private static func value(_ plane: UnsafeMutablePointer<UInt8>, _ index: Int, _ format: AVSampleFormat) -> Float {
        let raw = UnsafeRawPointer(plane)
        switch format {
        case AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT: return raw.load(fromByteOffset: index * 4, as: Float.self)
        case AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S16: return Float(raw.load(fromByteOffset: index * 2, as: Int16.self)) / 32_768
        case AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_S32: return Float(Double(raw.load(fromByteOffset: index * 4, as: Int32.self)) / 2_147_483_648)
        case AV_SAMPLE_FMT_DBLP, AV_SAMPLE_FMT_DBL: return Float(raw.load(fromByteOffset: index * 8, as: Double.self))
        case AV_SAMPLE_FMT_U8P, AV_SAMPLE_FMT_U8: return (Float(raw.load(fromByteOffset: index, as: UInt8.self)) - 128) / 128
        default: return 0
        }
    }

    /// Seeks to the packet at or before 2048 samples ahead of `frame` (the codec's pre-roll), then
    /// drops decoded samples up to it. Wraps `av_seek_frame` and `avcodec_flush_buffers`.
    func seek(toFrame target: Int64) -> Bool {
        guard let container, let codec, timeBase.num > 0 else { return false }
        // Before 0 near the start: the encoder's priming packet (at a negative time in an MP4
        // with an edit list) must be decoded for the first real one to be whole.
        let start = max(0, target) - 2048
        let timestamp = Int64((Double(start) * Double(timeBase.den) / (Double(timeBase.num) * Double(format.sampleRate))).rounded(.down))
        let result = api.pointee.seek_frame(container, streamIndex, timestamp, AVSEEK_FLAG_BACKWARD)
        api.pointee.flush_buffers(codec)
        api.pointee.frame_unref(frame)
        (haveFrame, frameUsed, drained, flushing) = (false, 0, false, false)
        nextSample = max(0, target)
        if result < 0 {
            Log.debug(.decode, "FFmpeg seek to \(target): \(FFmpegLibrary.message(result, api))")
            return false
        }
        return !io.interrupted
    }

    /// The next seek reads afresh: nothing need be opened again (the index stays).
    func clearInterruption() -> Bool {
        io.clearInterruption()
        return true
    }

    private static func tags(_ api: UnsafePointer<alicia_ffmpeg_api>, _ container: UnsafeMutablePointer<AVFormatContext>) -> MediaTags {
        func value(_ key: String) -> String? {
            api.pointee.dict_get(container.pointee.metadata, key, nil, 0).flatMap { $0.pointee.value }.map { String(cString: $0) }?.tagValue
        }
        return MediaTags(title: value("title"), artist: value("artist") ?? value("album_artist"), album: value("album"),
                         year: value("date") ?? value("year"), comment: value("comment") ?? value("description"))
    }

    private static func chapters(_ api: UnsafePointer<alicia_ffmpeg_api>, _ container: UnsafeMutablePointer<AVFormatContext>) -> [Chapter] {
        guard let list = container.pointee.chapters else { return [] }
        var chapters: [Chapter] = []
        for index in 0..<Int(container.pointee.nb_chapters) {
            guard let chapter = list[index]?.pointee else { continue }
            let base = chapter.time_base
            guard base.den > 0 else { continue }
            let scale = Double(base.num) / Double(base.den)
            var title = ""
            if let entry = api.pointee.dict_get(chapter.metadata, "title", nil, 0), let text = entry.pointee.value {
                title = String(cString: text).tagValue ?? ""
            }
            let end = chapter.end > chapter.start ? Double(chapter.end) * scale : nil
            chapters.append(Chapter(title: title.isEmpty ? "Chapter \(index + 1)" : title, start: Double(chapter.start) * scale, end: end))
        }
        return Chapter.ordered(chapters)
    }

    private static func picture(_ container: UnsafeMutablePointer<AVFormatContext>) -> ID3v2Tag.Picture? {
        guard let streams = container.pointee.streams else { return nil }
        for index in 0..<Int(container.pointee.nb_streams) {
            guard let stream = streams[index]?.pointee, stream.disposition & AV_DISPOSITION_ATTACHED_PIC != 0,
                  let data = stream.attached_pic.data, stream.attached_pic.size > 0 else { continue }
            let png = stream.codecpar.pointee.codec_id == AV_CODEC_ID_PNG
            return ID3v2Tag.Picture(mimeType: png ? "image/png" : "image/jpeg",
                                    data: Array(UnsafeBufferPointer(start: data, count: Int(stream.attached_pic.size))))
        }
        return nil
    }
}
