#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaSession
import AliciaLocks

/// Files on this machine as references and queues: whether a path is there, the name an item is
/// shown by, a queue saved as M3U8.
package enum LocalFiles {
    /// Writes `items` as M3U8 to `path` (`-`: stdout); nil, or what went wrong.
    package static func writeM3U8(_ items: [QueueItem], to path: String) -> String? {
        let entries = items.map { item in
            (reference: item.reference ?? item.label ?? PositionStore.key(label: nil, location: item.location),
             title: item.title, duration: item.duration)
        }
        let text = QueueFile.m3u8(entries)
        let fd = path == "-" ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return "cannot write \(path): \(String(cString: strerror(errno)))" }
        defer { if fd != 1 { close(fd) } }
        let written = text.utf8.withContiguousStorageIfAvailable { write(fd, $0.baseAddress, $0.count) } ?? -1
        guard written == text.utf8.count else { return "cannot write \(path): \(String(cString: strerror(errno)))" }
        return nil
    }

    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The audio files of `directory` (by their extensions), in natural name order (`2.wav` before
    /// `10.wav`, any case); hidden files and subdirectories are left out.
    package static func audioFiles(in directory: String) -> Result<[String], QueueFile.Problem> {
        guard let stream = opendir(directory) else {
            return .failure(.init(line: nil, "cannot read \(directory): \(String(cString: strerror(errno)))"))
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let lower = name.lowercased()
            guard !name.hasPrefix("."), QueueResolver.audioExtensions.contains(where: { lower.hasSuffix($0) }) else { continue }
            let path = (directory.hasSuffix("/") ? directory : directory + "/") + name
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            names.append(name)
        }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return .success(names.sorted(by: naturallyBefore).map { base + $0 })
    }

    /// Natural order: runs of digits compare as numbers, the rest without regard to case.
    package static func naturallyBefore(_ a: String, _ b: String) -> Bool {
        let x = pieces(a), y = pieces(b)
        for (p, q) in zip(x, y) where p != q {
            switch (UInt64(p), UInt64(q)) {
            case let (m?, n?) where m != n: return m < n
            case (_?, nil): return true
            case (nil, _?): return false
            default:
                if p.lowercased() != q.lowercased() { return p.lowercased() < q.lowercased() }
                if p != q { return p < q }
            }
        }
        return x.count != y.count ? x.count < y.count : a < b
    }

    private static func pieces(_ text: String) -> [String] {
        var out: [String] = []
        var current = ""
        var digits = false
        for character in text {
            let isDigit = character.isASCII && character.isNumber
            if !current.isEmpty && isDigit != digits {
                out.append(current)
                current = ""
            }
            digits = isDigit
            current.append(character)
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// For `play -`: standard input read to its end into a temporary file (the player opens items
    /// by name and reads them by range), removed by `removeSpooled` when the command ends.
    package static func spoolStandardInput() -> Result<String, QueueFile.Problem> {
        if isatty(0) != 0 { return .failure(.init(line: nil, "play -: standard input is a terminal, not audio (pipe a file in)")) }
        let directory = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((directory + "/alicia-stdin-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return .failure(.init(line: nil, "play -: cannot keep standard input: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        spooled.withLock { $0.append(path) }
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        var total = 0
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(.init(line: nil, "play -: cannot read standard input: \(String(cString: strerror(errno)))")) }
            if n == 0 { break }
            var offset = 0
            while offset < n {
                let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress! + offset, n - offset) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return .failure(.init(line: nil, "play -: cannot keep standard input: \(String(cString: strerror(errno)))")) }
                offset += written
            }
            total += n
        }
        guard total > 0 else { return .failure(.init(line: nil, "play -: standard input was empty")) }
        return .success(path)
    }

    private static let spooled = Locked<[String]>([])

    /// Removes what `spoolStandardInput` kept.
    package static func removeSpooled() {
        for path in spooled.withLock({ $0 }) { unlink(path) }
    }

    package static func fileExists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
