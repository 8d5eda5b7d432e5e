#if canImport(Glibc)
import Glibc
#endif

/// Whole-file reads and writes of the small files every module keeps (positions, measured
/// loudness, the listener's levels, the config file, the cache's records, the completion cache):
/// written to a temporary file beside the old one, flushed to disk, renamed over it and the
/// directory flushed, so a crash or a second instance never leaves half a file; read whole, with a
/// bound. The one place that does it (it was written six times).
package enum AtomicFile {
    /// Why a file could not be read or written: the path and the system's error.
    package struct Failure: Error, Equatable, Sendable {
        package let path: String
        package let errno: Int32

        package var isDiskFull: Bool { errno == ENOSPC || errno == EDQUOT }
        /// There is no such file (or directory on the way to it).
        package var isMissing: Bool { errno == ENOENT }
        package var reason: String { String(cString: strerror(errno)) }
        /// `PATH: reason`.
        package var message: String { "\(path): \(reason)" }
    }

    /// The file's bytes (at most `limit`: past it, `EFBIG`); `ENOENT` when there is none.
    package static func read(_ path: String, limit: Int = 16 * 1024 * 1024) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Failure(path: path, errno: errno)) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        // Small steps into a buffer on the stack: a big heap buffer would stay resident.
        let failure: Int32? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { chunk in
            while true {
                let n = Glibc.read(fd, chunk.baseAddress, chunk.count)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { return errno }
                if n == 0 { return nil }
                bytes.append(contentsOf: chunk[0..<n])
                if bytes.count > limit { return EFBIG }
            }
        }
        if let failure { return .failure(Failure(path: path, errno: failure)) }
        return .success(bytes)
    }

    /// The permission bits of the file there (what a rewrite keeps); nil when there is none.
    package static func mode(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// The file's text, nil when it does not exist or cannot be read.
    package static func text(_ path: String, limit: Int = 16 * 1024 * 1024) -> String? {
        guard case .success(let bytes) = read(path, limit: limit) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Replaces `path` with `bytes`, with `mode` whatever the umask (making the missing directories
    /// 0700 when `makeDirectories`).
    package static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600, makeDirectories: Bool = false) -> Result<Void, Failure> {
        guard let slash = path.lastIndex(of: "/") else { return .failure(Failure(path: path, errno: EINVAL)) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        if makeDirectories, let failure = self.makeDirectories(directory) { return .failure(failure) }
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { return .failure(Failure(path: path, errno: errno)) }
        var offset = 0
        var failure: Int32?
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                failure = n < 0 ? errno : EIO
                break
            }
            offset += n
        }
        // The umask may have taken bits off at creation: the mode asked for is the mode kept.
        if failure == nil, fchmod(fd, mode) != 0 || fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            return .failure(Failure(path: path, errno: failure))
        }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
        return .success(())
    }

    /// `mkdir -p` with mode 0700; nil, or the first directory that could not be made.
    package static func makeDirectories(_ directory: String) -> Failure? {
        var made = ""
        for part in directory.split(separator: "/") {
            made += "/" + part
            if mkdir(made, 0o700) != 0 && errno != EEXIST { return Failure(path: made, errno: errno) }
        }
        return nil
    }
}
