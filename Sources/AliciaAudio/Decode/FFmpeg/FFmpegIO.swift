internal import CFFmpeg

/// libavformat's view of a `ByteSource` (a custom `AVIOContext`): a position, blocking reads and
/// seeks, so an M4A streams through the same Range fetcher and ring as everything else. An index
/// at the end of the file (no "faststart") is a read there and back, two requests.
final class FFmpegIO {
    let source: ByteSource
    private var position: Int64 = 0
    /// A read was interrupted: what libavformat saw was not the end.
    private(set) var interrupted = false
    private(set) var failed = false
    /// The context, with its buffer (FFmpeg's to free).
    private(set) var context: UnsafeMutablePointer<AVIOContext>?
    private let api: UnsafePointer<alicia_ffmpeg_api>

    /// libavformat asks for this much at a time (its default is 32 KiB).
    static let bufferBytes: Int32 = 32 * 1024

    init?(source: ByteSource, api: UnsafePointer<alicia_ffmpeg_api>) {
        self.source = source
        self.api = api
        guard let buffer = api.pointee.malloc(Int(Self.bufferBytes)) else { return nil }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        context = api.pointee.io_alloc(buffer.assumingMemoryBound(to: UInt8.self), Self.bufferBytes, 0, opaque, { opaque, bytes, count in
            FFmpegIO.from(opaque).read(into: bytes, count: Int(count))
        }, nil, { opaque, offset, whence in
            FFmpegIO.from(opaque).seek(offset, whence: whence)
        })
        if context == nil {
            api.pointee.free(buffer)
            return nil
        }
    }

    /// Frees the context and its buffer; after the format context that used it is closed.
    func close() {
        guard let context else { return }
        api.pointee.free(context.pointee.buffer)
        var freed: UnsafeMutablePointer<AVIOContext>? = context
        api.pointee.io_free(&freed)
        self.context = nil
    }

    /// After an interrupted read: the next seek reads afresh (libavformat latches end and error
    /// in the context, which are cleared).
    func clearInterruption() {
        interrupted = false
        context?.pointee.eof_reached = 0
        context?.pointee.error = 0
    }

    private static func from(_ opaque: UnsafeMutableRawPointer?) -> FFmpegIO {
        Unmanaged<FFmpegIO>.fromOpaque(opaque!).takeUnretainedValue()
    }

    private func read(into bytes: UnsafeMutablePointer<UInt8>?, count: Int) -> Int32 {
        guard let bytes, count > 0 else { return 0 }
        switch source.read(at: position, into: UnsafeMutableRawBufferPointer(start: bytes, count: count)) {
        case .bytes(let n):
            position += Int64(n)
            return Int32(n)
        case .endOfFile:
            return alicia_averror_eof()
        case .interrupted:
            interrupted = true
            return alicia_averror_exit()
        case .failed:
            failed = true
            return alicia_averror_eio()
        }
    }

    private func seek(_ offset: Int64, whence: Int32) -> Int64 {
        if whence & alicia_avseek_size() != 0 { return source.length() ?? -1 }
        let base: Int64
        switch whence & 0xFFFF {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END:
            guard let length = source.length() else { return -1 }
            base = length
        default: return -1
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0 else { return -1 }
        position = target
        return position
    }
}
