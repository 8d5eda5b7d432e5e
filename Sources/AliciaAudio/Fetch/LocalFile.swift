#if canImport(Glibc)
import Glibc
#endif

/// A local file as the fetch thread reads it: opened once, read with `pread`. A file on disk needs
/// none of libcurl, whose load (thirty-odd libraries: OpenSSL, Kerberos, LDAP) took longer than
/// the rest of a local file's start; its `file://` reads were these same reads.
final class LocalFile: @unchecked Sendable {
    // @unchecked: the descriptor is only read from (`pread` takes its own offset), and closed when
    // the last owner lets go.
    private let descriptor: Int32
    /// The size when opened.
    let size: Int64

    /// Opens the regular file at `path` (anything else, a FIFO for one, is refused before it is
    /// opened: opening it could block).
    init(path: String) throws(PlaybackError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .cannotOpenFile(path: path, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .cannotOpenFile(path: path, reason: "not a regular file")
        }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            throw .cannotOpenFile(path: path, reason: String(cString: strerror(errno)))
        }
        descriptor = opened
        size = Int64(info.st_size)
    }

    deinit { Glibc.close(descriptor) }

    /// Reads up to `buffer.count` bytes at `offset`: how many (0 at the end of the file), or why not.
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer, path: String) -> Result<Int, PlaybackError> {
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            if count >= 0 { return .success(count) }
            if errno == EINTR { continue }
            return .failure(.cannotReadFile(path: path, reason: String(cString: strerror(errno))))
        }
    }
}
