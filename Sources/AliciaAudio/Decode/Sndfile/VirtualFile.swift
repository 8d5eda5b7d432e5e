internal import CSndfile

/// libsndfile's view of a `ByteSource`: a position and blocking reads
/// (`SF_VIRTUAL_IO`). libsndfile treats a short read as the end, so reads loop
/// until they have every byte asked for, the end, or an interruption.
final class VirtualFile {
    let source: ByteSource
    private var position: Int64 = 0
    private let length: Int64?
    /// A read was interrupted: what libsndfile saw was not the real end.
    private(set) var interrupted = false
    /// A read failed (the source's `failure` says why).
    private(set) var failed = false

    init(source: ByteSource) {
        self.source = source
        length = source.length()
    }

    var knownLength: Int64? { length }

    /// The length libsndfile is told. Unknown (a server that named no size): as good as endless.
    var reportedLength: Int64 { length ?? Int64(Int32.max) * 1024 }

    /// `count` bytes at `offset` without moving the position libsndfile reads at, or nil where
    /// fewer are there (the end, an interruption, a failure): for checks before libsndfile opens.
    func peek(at offset: Int64, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let saved = position
        defer { position = saved }
        position = offset
        let got = bytes.withUnsafeMutableBytes { read(into: $0.baseAddress!, count: count) }
        return got == count ? bytes : nil
    }

    /// The callbacks, which find this object through `user_data`.
    static var callbacks: SF_VIRTUAL_IO {
        SF_VIRTUAL_IO(
            get_filelen: { user in VirtualFile.from(user).reportedLength },
            seek: { offset, whence, user in
                VirtualFile.from(user).seek(offset, whence: whence)
            },
            read: { pointer, count, user in
                VirtualFile.from(user).read(into: pointer!, count: Int(count))
            },
            write: { _, _, _ in 0 },
            tell: { user in VirtualFile.from(user).position }
        )
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> VirtualFile {
        Unmanaged<VirtualFile>.fromOpaque(user!).takeUnretainedValue()
    }

    /// Offsets come from the file's own chunk lengths (64-bit in RF64, W64 and CAF): a sum that
    /// overflows is a failed seek, not a trap.
    private func seek(_ offset: sf_count_t, whence: Int32) -> sf_count_t {
        let base: Int64
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = length ?? 0
        default: return -1
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow else { return -1 }
        position = max(0, target)
        return position
    }

    private func read(into pointer: UnsafeMutableRawPointer, count: Int) -> sf_count_t {
        var done = 0
        while done < count {
            let target = UnsafeMutableRawBufferPointer(start: pointer + done, count: count - done)
            switch source.read(at: position, into: target) {
            case .bytes(let n):
                done += n
                position += Int64(n)
            case .endOfFile:
                return sf_count_t(done)
            case .interrupted:
                interrupted = true
                return sf_count_t(done)
            case .failed:
                failed = true
                return sf_count_t(done)
            }
        }
        return sf_count_t(done)
    }
}
