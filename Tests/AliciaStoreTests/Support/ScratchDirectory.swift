#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory (`mkdtemp`) under `$TMPDIR` or /tmp, removed with everything in it by
/// `remove()` (or when it goes), which a test defers: that also keeps it alive (an optimized build may otherwise
/// end its lifetime after its last use, under a database still open in it).
final class ScratchDirectory {
    let path: String

    init() throws(TestFailure) {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/alicia-store.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else { throw TestFailure("mkdtemp in \(base): \(String(cString: strerror(errno)))") }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    func remove() { Self.remove(path) }

    deinit { remove() }

    /// The path of `name` inside it.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` as `path` (making its directories), mode 0600.
    @discardableResult
    func write(_ bytes: [UInt8], to path: String) throws(TestFailure) -> String {
        var made = ""
        for part in path.split(separator: "/").dropLast() {
            made += "/" + part
            mkdir(made, 0o700)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TestFailure("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw TestFailure("cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += n
        }
        return path
    }

    func write(_ text: String, to path: String) throws(TestFailure) {
        try write(Array(text.utf8), to: path)
    }

    /// The names in `directory`, sorted.
    static func names(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The whole file, or nil.
    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return n == 0 ? bytes : nil }
            bytes += chunk[0..<n]
        }
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func mode(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    private static func remove(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in names(in: path) { remove(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
