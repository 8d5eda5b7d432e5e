#if canImport(Glibc)
import Glibc
#endif
internal import AliciaJSON
import AliciaLocks

/// The download cache, `$XDG_CACHE_HOME/alicia-player/` (default `~/.cache/alicia-player/`), shared
/// by every running instance:
///
/// - `media/NAME` a complete file, and `media/NAME.json` its `CacheEntry`. A file gets its name
///   only by a rename once it is whole (the entry is written first), so a reader never sees half of one;
/// - `media/NAME.part` a download in progress or interrupted, `media/NAME.part.json` what it was
///   fetched from (the validator that `If-Range` sends when it resumes);
/// - `media/NAME.lock` held exclusively while NAME downloads; `media/NAME.use` held shared by every
///   player that has NAME in its queue, and tried exclusively by eviction, which skips NAME when busy;
/// - `library.json`, the last library fetched (written by the command line: DECISIONS.md).
package final class MediaCache: Sendable {
    package let directory: String
    package var mediaDirectory: String { directory + "/media" }

    package enum Problem: Error, Equatable, Sendable {
        /// No `XDG_CACHE_HOME` and no `HOME`.
        case noDirectory
        /// The directory (or one above it) cannot be made.
        case cannotCreate(path: String, reason: String)

        package var message: String {
            switch self {
            case .noDirectory:
                return "no cache directory: neither XDG_CACHE_HOME nor HOME is set"
            case .cannotCreate(let path, let reason):
                return "cannot create the cache directory \(path): \(reason) (set XDG_CACHE_HOME to a directory you can write)"
            }
        }
    }

    /// `$XDG_CACHE_HOME/alicia-player`, or `~/.cache/alicia-player`.
    package static func defaultDirectory(environment: [String: String]) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/alicia-player" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.cache/alicia-player"
    }

    /// The cache at `directory`, made (mode 0700) if it is not there.
    package init(directory: String) throws(Problem) {
        self.directory = directory
        try Self.makeDirectories(mediaDirectory)
    }

    private static func makeDirectories(_ target: String) throws(Problem) {
        var path = ""
        for part in target.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
        }
        var info = stat()
        guard stat(target, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .cannotCreate(path: target, reason: "it is not a directory")
        }
        guard access(target, W_OK) == 0 else {
            throw .cannotCreate(path: target, reason: String(cString: strerror(errno)))
        }
    }

    package func path(of name: String) -> String { mediaDirectory + "/" + name }

    /// The complete file of `key`, if cached. With `mediaPath` it is one look; without, a scan.
    package func file(for key: String, mediaPath: String? = nil) -> (path: String, entry: CacheEntry)? {
        guard let mediaPath else {
            return entries().first { $0.key == key }.map { (path(of: $0.fileName), $0) }
        }
        let name = CacheEntry(key: key, title: "", mediaPath: mediaPath).fileName
        guard let entry = entry(named: name), entry.key == key, exists(path(of: name)) else { return nil }
        return (path(of: name), entry)
    }

    /// Every complete file, oldest first.
    package func entries() -> [CacheEntry] {
        guard let dir = opendir(mediaDirectory) else { return [] }
        defer { closedir(dir) }
        var found: [CacheEntry] = []
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard name.hasSuffix(".json"), !name.hasSuffix(".part.json") else { continue }
            let media = String(name.dropLast(".json".count))
            guard exists(path(of: media)), let entry = entry(named: media) else { continue }
            found.append(entry)
        }
        return found.sorted { ($0.downloadedMS, $0.key) < ($1.downloadedMS, $1.key) }
    }

    /// Bytes held by complete files.
    package func totalSize() -> Int64 { entries().reduce(0) { $0 + $1.size } }

    func entry(named name: String) -> CacheEntry? {
        guard let bytes = Self.read(path(of: name) + ".json") else { return nil }
        return try? JSON.decode(CacheEntry.self, from: bytes)
    }

    /// Writes `entry` beside its file (before the file is renamed into place).
    func write(_ entry: CacheEntry) throws(CacheWriteError) {
        let bytes: [UInt8]
        do {
            bytes = try JSON.encode(entry, layout: .indented)
        } catch {
            throw CacheWriteError(path: path(of: entry.fileName) + ".json", errno: EINVAL)
        }
        try Self.writeAtomically(bytes, to: path(of: entry.fileName) + ".json")
    }

    /// Marks `key` pinned (or not); false when it is not cached.
    package func setPinned(_ pinned: Bool, key: String) -> Bool {
        guard var entry = file(for: key)?.entry else { return false }
        entry.pinned = pinned
        return (try? write(entry)) != nil
    }

    /// The lock held while `name` downloads.
    func downloadLock(_ name: String) -> FileLock? { FileLock(path: path(of: name) + ".lock") }

    /// Holds `key`'s file against eviction while the returned lock lives (a player's queue).
    package func lease(_ key: String) -> FileLock? {
        guard let name = file(for: key)?.entry.fileName, let lock = FileLock(path: path(of: name) + ".use") else { return nil }
        lock.lock(shared: true)
        return lock
    }

    package enum Removal: Equatable, Sendable {
        case removed(CacheEntry)
        /// A player has it in its queue, or it is downloading.
        case inUse(CacheEntry)
    }

    /// Removes `entry`'s file (and any part of it), unless a player or a download holds it.
    package func remove(_ entry: CacheEntry) -> Removal {
        let name = entry.fileName
        guard let use = FileLock(path: path(of: name) + ".use"), use.tryLock(),
              let download = downloadLock(name), download.tryLock() else { return .inUse(entry) }
        // The file goes before its entry: a reader that finds the entry without the file skips it.
        unlink(path(of: name))
        unlink(path(of: name) + ".json")
        unlink(path(of: name) + ".part")
        unlink(path(of: name) + ".part.json")
        return .removed(entry)
    }

    /// Removes partial downloads no one is running (`cache clear` with no reference).
    package func removeParts() {
        guard let dir = opendir(mediaDirectory) else { return }
        var parts: [String] = []
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name.hasSuffix(".part") { parts.append(String(name.dropLast(".part".count))) }
        }
        closedir(dir)
        for name in parts {
            guard let lock = downloadLock(name), lock.tryLock() else { continue }
            unlink(path(of: name) + ".part")
            unlink(path(of: name) + ".part.json")
        }
    }

    /// What eviction removes to bring `entries` within `limit` bytes: played ones first, then the
    /// oldest; never a pinned one or one of `protected` (keys: the one playing, the next one, what
    /// is being downloaded now).
    package static func evictionOrder(_ entries: [CacheEntry], limit: Int64, played: Set<String>,
                                      protected: Set<String>) -> [CacheEntry] {
        var total = entries.reduce(0) { $0 + $1.size }
        guard total > limit else { return [] }
        let candidates = entries.filter { !$0.pinned && !protected.contains($0.key) }
            .sorted { a, b in
                let (pa, pb) = (played.contains(a.key), played.contains(b.key))
                if pa != pb { return pa }
                return (a.downloadedMS, a.key) < (b.downloadedMS, b.key)
            }
        var chosen: [CacheEntry] = []
        for entry in candidates where total > limit {
            chosen.append(entry)
            total -= entry.size
        }
        return chosen
    }

    /// Evicts until the cache holds at most `limit` bytes; returns what went. Files in use by a
    /// player or a download are skipped (and the next candidate taken).
    package func evict(limit: Int64, played: Set<String>, protected: Set<String>) -> [CacheEntry] {
        var removed: [CacheEntry] = []
        var skipped = protected
        while true {
            let order = Self.evictionOrder(entries(), limit: limit, played: played, protected: skipped)
            guard let next = order.first else { return removed }
            switch remove(next) {
            case .removed(let entry): removed.append(entry)
            case .inUse(let entry): skipped.insert(entry.key)
            }
        }
    }

    // MARK: Files

    func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// A small file's bytes (an entry, the library), or nil.
    package static func read(_ path: String, limit: Int = 64 << 20) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
            if bytes.count > limit { return nil }
        }
    }

    /// Replaces `path` with `bytes` so that a reader sees the old file or the new one, never half:
    /// a temporary file, fsync, rename.
    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws(CacheWriteError) {
        if case .failure(let failure) = AtomicFile.write(bytes, to: path) {
            throw CacheWriteError(path: path, errno: failure.errno)
        }
    }
}

/// A cache file that could not be written, with the system's reason.
package struct CacheWriteError: Error, Equatable, Sendable {
    package let path: String
    package let errno: Int32

    package var isDiskFull: Bool { errno == ENOSPC || errno == EDQUOT }

    package var message: String {
        isDiskFull ? "the disk is full writing \(path)" : "cannot write \(path): \(String(cString: strerror(errno)))"
    }
}
