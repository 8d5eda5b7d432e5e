#if canImport(Glibc)
import Glibc
import AliciaLocks
#endif

/// Where cover art goes: one file per picture in `$XDG_CACHE_HOME/alicia-player/art/` (default
/// `~/.cache/alicia-player/art/`), named by a hash of its bytes, so an episode's art is written
/// once however often it is opened and two episodes sharing a show's art share one file. Written
/// to a temporary name and renamed, so a reader (an MPRIS client) never sees half a picture.
struct CoverArtStore: Sendable {
    let directory: String

    /// The store under the cache directory; nil when neither `XDG_CACHE_HOME` nor `HOME` is set.
    static var standard: CoverArtStore? {
        if let cache = getenv("XDG_CACHE_HOME").map({ String(cString: $0) }), cache.hasPrefix("/") {
            return CoverArtStore(directory: cache + "/alicia-player/art")
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return nil }
        return CoverArtStore(directory: home + "/.cache/alicia-player/art")
    }

    /// Pictures larger than this are left in the file.
    static let byteLimit = 16 << 20

    /// The path of `data` in the store, written now if it is not there yet; nil when it cannot be.
    func store(_ data: [UInt8], mimeType: String) -> String? {
        guard !data.isEmpty, data.count <= Self.byteLimit else { return nil }
        let path = "\(directory)/\(Self.hexHash(data)).\(Self.fileExtension(mimeType, data))"
        if access(path, R_OK) == 0 { return path }
        guard makeDirectories() else { return nil }
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        var done = 0
        while done < data.count {
            let n = data.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n <= 0 { break }
            done += n
        }
        close(fd)
        guard done == data.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            Log.info(.decode, "cannot write cover art to \(path): \(String(cString: strerror(errno)))")
            return nil
        }
        return path
    }

    private func makeDirectories() -> Bool {
        var built = ""
        for part in directory.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o755) != 0 && errno != EEXIST { return false }
        }
        return true
    }

    /// FNV-1a, 64 bits, as 16 hex digits: a name, not a security measure.
    static func hexHash(_ data: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: (0..<16).map { digits[Int((hash >> (60 - 4 * UInt64($0))) & 0xF)] }, as: UTF8.self)
    }

    /// `png` or `jpg` (by the MIME type, else by the picture's magic bytes).
    static func fileExtension(_ mimeType: String, _ data: [UInt8]) -> String {
        if mimeType.hasSuffix("png") || data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if mimeType.hasSuffix("webp") { return "webp" }
        return "jpg"
    }
}
