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
             title: item.title, duration: nil as Double?)
        }
        let text = QueueFile.m3u8(entries)
        let fd = path == "-" ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return "cannot write \(path): \(String(cString: strerror(errno)))" }
        defer { if fd != 1 { close(fd) } }
        let written = text.utf8.withContiguousStorageIfAvailable { write(fd, $0.baseAddress, $0.count) } ?? -1
        guard written == text.utf8.count else { return "cannot write \(path): \(String(cString: strerror(errno)))" }
        return nil
    }

    package static func fileExists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
