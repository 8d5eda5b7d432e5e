import AliciaCache
import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import AliciaLocks
import Synchronization
import Testing

/// Downloads from the demo backend over loopback HTTP into a cache in a temporary directory, each
/// file checked against what curl (a client that is not ours) fetches of the same URL.
@Suite("Downloads", .serialized)
struct DownloadTests {
    static let token = "cache-TOKEN-\(UInt32.random(in: 1000...9999))"

    struct Episode {
        var label: String
        var mediaPath: String
        var title: String
    }

    /// The shortest episode with audio.
    static func shortestEpisode(_ backend: DemoBackend) async throws -> Episode {
        let reply = try await ChildProcess.run("curl", ["-s", "-H", "Authorization: Bearer \(backend.token)", backend.baseURL + "/api/tracks"])
        let tracks = try #require(try JSONSerialization.jsonObject(with: Data(reply.stdout)) as? [[String: Any]])
        let playable = tracks.filter { ($0["fileName"] as? String) != nil && $0["label"] != nil }
        let shortest = try #require(playable.min { ($0["duration"] as? Double ?? 0) < ($1["duration"] as? Double ?? 0) })
        return Episode(label: shortest["label"] as! String, mediaPath: shortest["fileName"] as! String, title: shortest["title"] as! String)
    }

    static func url(_ backend: DemoBackend, _ episode: Episode) -> String {
        backend.baseURL + episode.mediaPath + "?token=" + backend.token
    }

    /// The whole file as curl gets it.
    static func reference(_ backend: DemoBackend, _ episode: Episode) async throws -> [UInt8] {
        let reply = try await ChildProcess.run("curl", ["-s", "--fail", url(backend, episode)])
        #expect(reply.status == 0)
        return reply.stdout
    }

    static func request(_ backend: DemoBackend, _ episode: Episode) -> DownloadRequest {
        DownloadRequest(url: url(backend, episode), display: backend.baseURL + episode.mediaPath + "?token=***",
                        entry: CacheEntry(key: episode.label, title: episode.title, label: episode.label, mediaPath: episode.mediaPath))
    }

    static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// Warnings said by a download, collected across threads.
    final class Said: Sendable {
        let lines = Locked<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// A demo backend with `faults`, its shortest episode and a cache in `directory`. The test
    /// stops the backend.
    static func cached(in directory: TemporaryDirectory, _ faults: DemoBackend.Faults = .init()) async throws
        -> (backend: DemoBackend, episode: Episode, cache: MediaCache) {
        let backend = try DemoBackend(token: token, faults: faults)
        let episode = try await shortestEpisode(backend)
        return (backend, episode, try MediaCache(directory: directory.path))
    }

    /// A download from a backend that drops every connection after 300,000 bytes, tried once and
    /// `retries` times again, fails: it leaves its .part in the cache. The backend is still running.
    static func brokenOff(in directory: TemporaryDirectory, retries: Int) async throws
        -> (backend: DemoBackend, episode: Episode, cache: MediaCache) {
        let broken = try await cached(in: directory, .init(closeAfterBodyBytes: 300_000))
        let downloader = try MediaDownloader()
        downloader.retries = retries
        #expect(throws: DownloadError.self) {
            _ = try downloader.download(request(broken.backend, broken.episode), into: broken.cache, shouldStop: { false })
        }
        return broken
    }

    /// Stops `backend` and starts another on its port with `faults`: the same server, changed.
    static func restart(_ backend: DemoBackend, faults: DemoBackend.Faults = .init()) throws -> DemoBackend {
        let port = backend.port
        backend.stop()
        return try DemoBackend(token: token, port: port, faults: faults)
    }

    @Test("a download is the file curl gets, renamed into place with its entry; the next one is a no-op")
    func download() async throws {
        let directory = try TemporaryDirectory(prefix: "cache")
        let (backend, episode, cache) = try await Self.cached(in: directory)
        defer { backend.stop() }
        let outcome = try MediaDownloader().download(Self.request(backend, episode), into: cache, shouldStop: { false })
        guard case .downloaded(let entry, resumedFrom: 0) = outcome else { Issue.record("\(outcome)"); return }
        let file = try #require(cache.file(for: episode.label, mediaPath: episode.mediaPath))
        #expect(Self.bytes(file.path) == (try await Self.reference(backend, episode)))
        #expect(entry.size == Int64(Self.bytes(file.path)?.count ?? -1))
        #expect(!FileManager.default.fileExists(atPath: file.path + ".part"))
        #expect(cache.entries().map(\.key) == [episode.label])
        let again = try MediaDownloader().download(Self.request(backend, episode), into: cache, shouldStop: { false })
        guard case .alreadyCached = again else { Issue.record("\(again)"); return }
        // The entry and the part info never hold the token.
        for name in try FileManager.default.contentsOfDirectory(atPath: cache.mediaDirectory) {
            let text = String(decoding: Self.bytes(cache.mediaDirectory + "/" + name) ?? [], as: UTF8.self)
            if name.hasSuffix(".json") { #expect(!text.contains(Self.token), "token in \(name)") }
        }
    }

    @Test("a connection dropped after N bytes leaves the .part; the next run resumes it with Range and If-Range")
    func resume() async throws {
        let directory = try TemporaryDirectory(prefix: "cache")
        let (first, episode, cache) = try await Self.brokenOff(in: directory, retries: 1)
        let part = cache.path(of: CacheEntry(key: episode.label, title: "", mediaPath: episode.mediaPath).fileName) + ".part"
        let kept = Self.bytes(part)?.count ?? 0
        #expect(kept == 600_000, "two requests of 300,000 bytes each: \(kept)")
        #expect(first.requests.last?.range == "bytes=300000-")
        let second = try Self.restart(first)
        defer { second.stop() }
        let outcome = try MediaDownloader().download(Self.request(second, episode), into: cache, shouldStop: { false })
        #expect(outcome == .downloaded(try #require(cache.file(for: episode.label)?.entry), resumedFrom: Int64(kept)))
        let audio = second.requests.filter { $0.path.hasPrefix(episode.mediaPath) }
        #expect(audio.count == 1)
        #expect(audio.first?.range == "bytes=\(kept)-")
        #expect(audio.first?.status == 206)
        #expect(Self.bytes(try #require(cache.file(for: episode.label)).path) == (try await Self.reference(second, episode)))
    }

    @Test("a file changed on the server since the .part began is downloaded again from 0")
    func changed() async throws {
        let directory = try TemporaryDirectory(prefix: "cache")
        let (first, episode, cache) = try await Self.brokenOff(in: directory, retries: 0)
        let changed = try Self.restart(first, faults: .init(mediaRevision: 1))
        defer { changed.stop() }
        let said = Said()
        let outcome = try MediaDownloader().download(Self.request(changed, episode), into: cache, shouldStop: { false },
                                                    warn: { said.add($0) })
        guard case .downloaded(_, resumedFrom: 300_000) = outcome else { Issue.record("\(outcome)"); return }
        #expect(said.all.contains { $0.contains("changed on the server") }, "\(said.all)")
        // The resume asked for the rest if unchanged; the server said 200 and sent all of it.
        let audio = changed.requests.filter { $0.path.hasPrefix(episode.mediaPath) }
        #expect(audio.map(\.status) == [200])
        #expect(audio.first?.range == "bytes=300000-")
        let file = try #require(cache.file(for: episode.label))
        let fresh = try await Self.reference(changed, episode)
        #expect(Self.bytes(file.path) == fresh)
    }

    @Test("a server that ignores Range: the resume restarts from 0, with a warning, and the file is whole")
    func ignoredRange() async throws {
        let directory = try TemporaryDirectory(prefix: "cache")
        let (first, episode, cache) = try await Self.brokenOff(in: directory, retries: 0)
        let plain = try Self.restart(first, faults: .init(ignoreRange: true))
        defer { plain.stop() }
        let said = Said()
        _ = try MediaDownloader().download(Self.request(plain, episode), into: cache, shouldStop: { false }, warn: { said.add($0) })
        #expect(said.all.contains { $0.contains("ignored the Range request") }, "\(said.all)")
        #expect(Self.bytes(try #require(cache.file(for: episode.label)).path) == (try await Self.reference(plain, episode)))
    }

    @Test("two downloads of one file at once: one fetches, the other waits and finds it cached; one intact file")
    func concurrent() async throws {
        // Slow enough that the second certainly starts while the first runs.
        let directory = try TemporaryDirectory(prefix: "cache")
        let (backend, episode, _) = try await Self.cached(in: directory, .init(bytesPerSecond: 8_000_000))
        defer { backend.stop() }
        let request = Self.request(backend, episode)
        let waited = Said()
        let outcomes = try await withThrowingTaskGroup(of: DownloadOutcome.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    try await BlockingWork.run {
                        let cache = try MediaCache(directory: directory.path)
                        return try MediaDownloader().download(request, into: cache, shouldStop: { false }, waiting: { waited.add("waited") })
                    }
                }
            }
            var all: [DownloadOutcome] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        let downloaded = outcomes.filter { if case .downloaded = $0 { return true } else { return false } }
        #expect(downloaded.count == 1, "\(outcomes)")
        let cache = try MediaCache(directory: directory.path)
        #expect(Self.bytes(try #require(cache.file(for: episode.label)).path) == (try await Self.reference(backend, episode)))
        #expect(backend.requests.filter { $0.path.hasPrefix(episode.mediaPath) }.count == 2, "ours and curl's: \(backend.requests)")
    }

    @Test("a full disk stops the download with a clear message and keeps the .part")
    func diskFull() async throws {
        let directory = try TemporaryDirectory(prefix: "cache")
        let (backend, episode, cache) = try await Self.cached(in: directory)
        defer { backend.stop() }
        let part = cache.path(of: CacheEntry(key: episode.label, title: "", mediaPath: episode.mediaPath).fileName) + ".part"
        // /dev/full fails every write with ENOSPC, as a full disk does.
        try FileManager.default.createSymbolicLink(atPath: part, withDestinationPath: "/dev/full")
        do {
            _ = try MediaDownloader().download(Self.request(backend, episode), into: cache, shouldStop: { false })
            Issue.record("the download succeeded into /dev/full")
        } catch {
            #expect(error.message.contains("the disk is full"), "\(error.message)")
            #expect(!error.message.contains(Self.token))
        }
        #expect(FileManager.default.fileExists(atPath: part))
        #expect(cache.file(for: episode.label) == nil)
    }

    @Test("a cache directory that cannot be created is said so")
    func uncreatable() throws {
        let directory = try TemporaryDirectory(prefix: "cache")
        let file = try directory.write([1], as: "a-file")
        #expect(throws: MediaCache.Problem.cannotCreate(path: file + "/alicia-player", reason: "Not a directory")) {
            _ = try MediaCache(directory: file + "/alicia-player")
        }
    }

    @Test("Ctrl-C (a stop) keeps the .part, and the next run resumes it")
    func interrupted() async throws {
        let directory = try TemporaryDirectory(prefix: "cache")
        let (backend, episode, cache) = try await Self.cached(in: directory, .init(bytesPerSecond: 2_000_000))
        defer { backend.stop() }
        let stop = Atomic<Bool>(false)
        do {
            _ = try MediaDownloader().download(Self.request(backend, episode), into: cache, shouldStop: { stop.load(ordering: .relaxed) },
                                               progress: { if $0.received > 200_000 { stop.store(true, ordering: .relaxed) } })
            Issue.record("not stopped")
        } catch {
            guard case .interrupted(let kept) = error else { Issue.record("\(error)"); return }
            #expect(kept > 200_000)
        }
        let outcome = try MediaDownloader().download(Self.request(backend, episode), into: cache, shouldStop: { false })
        guard case .downloaded(_, let resumedFrom) = outcome else { Issue.record("\(outcome)"); return }
        #expect(resumedFrom > 200_000)
        #expect(Self.bytes(try #require(cache.file(for: episode.label)).path) == (try await Self.reference(backend, episode)))
    }
}
