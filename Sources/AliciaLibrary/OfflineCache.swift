#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaCache
import AliciaSession
import AliciaLocks

/// The download cache as the commands use it: opened once, cached files put in place of the
/// backend's URLs wherever a reference becomes a queue item, and each such file leased (held
/// against eviction by any instance) for as long as this process runs.
package enum OfflineCache {
    package static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for key in ["XDG_CACHE_HOME", "HOME"] {
            if let value = getenv(key) { values[key] = String(cString: value) }
        }
        return values
    }

    /// The cache at its default place, made if need be; or why it cannot be.
    package static func open() -> Result<MediaCache, MediaCache.Problem> {
        guard let directory = MediaCache.defaultDirectory(environment: environment()) else { return .failure(.noDirectory) }
        do {
            return .success(try MediaCache(directory: directory))
        } catch {
            return .failure(error)
        }
    }

    /// The cache for a command that needs one: nil after saying why not, in one line.
    package static func openOrSay() -> MediaCache? {
        switch open() {
        case .success(let cache): return cache
        case .failure(let problem):
            Console.fail(problem.message)
            return nil
        }
    }

    /// The cache for lookups: nil (silently) when there is none to be had.
    private static let shared: MediaCache? = try? open().get()

    /// Files this process plays from the cache, held shared so eviction leaves them alone.
    private static let leases = Locked<[FileLock]>([])

    /// The cached file of `key`, if any.
    package static func cachedFile(key: String, mediaPath: String?) -> String? {
        shared?.file(for: key, mediaPath: mediaPath)?.path
    }

    /// `item` playing from the cache when `key` (an episode's label, or a media path) is cached: its
    /// location becomes the local file; title, label, position key and reference stay, so it resumes
    /// where the streamed one would and a saved queue still names the episode.
    package static func substitute(_ item: QueueItem, key: String?, mediaPath: String?) -> QueueItem {
        if let key { streamed.withLock { $0[item.location.url] = Streamed(key: key, mediaPath: mediaPath) } }
        guard let key, let cache = shared, let file = cache.file(for: key, mediaPath: mediaPath),
              let location = try? MediaLocation(file.path) else { return item }
        if let lease = cache.lease(key) { leases.withLock { $0.append(lease) } }
        var cached = item
        cached.location = location
        return cached
    }

    /// A read-aloud piece's chunks from the cache, when every one of them is there.
    package static func substitute(chunks: [String], of item: QueueItem) -> QueueItem {
        guard let cache = shared else { return item }
        var files: [MediaLocation] = []
        for path in chunks {
            guard let file = cache.file(for: path, mediaPath: path), let location = try? MediaLocation(file.path) else { return item }
            files.append(location)
        }
        guard let first = files.first else { return item }
        for path in chunks { if let lease = cache.lease(path) { leases.withLock { $0.append(lease) } } }
        var cached = item
        cached.location = first
        cached.moreParts = Array(files.dropFirst())
        return cached
    }

    /// What a streamed item was resolved from: the key and media path it would be cached under.
    private struct Streamed {
        package var key: String
        package var mediaPath: String?
    }

    /// Every item `substitute` saw, by URL (with the token: the map never leaves the process).
    private static let streamed = Locked<[String: Streamed]>([:])

    /// How `item` downloads into the cache (`--auto-download`): nil for a local file, a read-aloud
    /// piece of several chunks, or an item that did not come through `substitute`.
    package static func downloadRequest(for item: QueueItem) -> DownloadRequest? {
        guard !item.location.isFile, item.moreParts.isEmpty,
              let known = streamed.withLock({ $0[item.location.url] }) else { return nil }
        return DownloadRequest(url: item.location.url, display: item.location.display,
                               entry: CacheEntry(key: known.key, title: item.title, label: item.label, mediaPath: known.mediaPath))
    }

    /// The episodes of `library` in the cache, by label (else title): the `↓` marks and `tracks --json`'s
    /// `downloaded`.
    package static func downloaded(in library: Library) -> Set<String> {
        var found: Set<String> = []
        for entry in library.entries where entry.episode.hasAudio
            && isCached(key: entry.episode.label ?? entry.episode.fileName, mediaPath: entry.episode.fileName) {
            found.insert(entry.episode.label ?? entry.episode.title)
        }
        return found
    }

    /// Whether `key` is cached (for "unavailable" marks offline).
    package static func isCached(key: String?, mediaPath: String?) -> Bool {
        guard let key else { return false }
        return shared?.file(for: key, mediaPath: mediaPath) != nil
    }
}
