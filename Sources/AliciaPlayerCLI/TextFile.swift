#if canImport(Glibc)
import Glibc
#endif

/// Whole-file writes for the small text files the commands keep (the completion cache, the config
/// file): a temporary file in the same directory, renamed over the old one, so a reader never sees
/// half a file.
enum TextFile {
    /// Writes `text` to `path` (making missing directories 0700) with `mode`. Returns why not, if
    /// it could not.
    static func write(_ text: String, to path: String, mode: mode_t) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return "\(path): not an absolute path" }
        if let failure = makeDirectories(String(path[..<slash])) { return failure }
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { return "\(temporary): \(String(cString: strerror(errno)))" }
        var text = text
        // The umask may have taken bits off at creation; the mode asked for is the mode kept.
        let written = text.withUTF8 { bytes in Glibc.write(fd, bytes.baseAddress, bytes.count) == bytes.count }
            && fchmod(fd, mode) == 0
        let failure = errno
        close(fd)
        guard written, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(written ? errno : failure))
            unlink(temporary)
            return "\(path): \(reason)"
        }
        return nil
    }

    /// The file's text; nil when it does not exist or cannot be read.
    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n > 0 { bytes += chunk[0..<n] }
            if n < chunk.count { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `mkdir -p` with mode 0700.
    static func makeDirectories(_ directory: String) -> String? {
        var made = ""
        for part in directory.split(separator: "/") {
            made += "/" + part
            if mkdir(made, 0o700) != 0 && errno != EEXIST { return "\(made): \(String(cString: strerror(errno)))" }
        }
        return nil
    }
}
