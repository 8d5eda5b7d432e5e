import AliciaCache
import AliciaTestSupport
import Foundation
import Testing

@Suite("Cache bookkeeping")
struct CacheTests {
    @Test("sizes as people write them", arguments: [
        ("2G", Int64(2) << 30), ("2GiB", Int64(2) << 30), ("500M", Int64(500) << 20), ("1.5g", Int64(3) << 29),
        ("300k", Int64(300) << 10), ("1048576", Int64(1) << 20), ("0", Int64(0)), (" 10 MB", Int64(10) << 20),
    ])
    func parse(_ text: String, _ bytes: Int64) {
        #expect(ByteSize.parse(text) == bytes)
    }

    @Test("what is not a size", arguments: ["", "G", "-1G", "2X", "two", "1e30"])
    func notASize(_ text: String) {
        #expect(ByteSize.parse(text) == nil)
    }

    @Test("sizes as shown")
    func format() {
        #expect(ByteSize.format(812) == "812 B")
        #expect(ByteSize.format(35 << 20 + 200 << 10) == "35.2 MiB")
        #expect(ByteSize.format(2 << 30) == "2.0 GiB")
    }

    @Test("file names: a label as it is, anything else made safe and told apart by a hash")
    func fileNames() {
        #expect(CacheEntry(key: "S11E04", title: "", mediaPath: "/api/audio/s11e04.wav").fileName == "S11E04.wav")
        let chunk = CacheEntry(key: "/api/audio/synth-1-3.wav", title: "", mediaPath: "/api/audio/synth-1-3.wav").fileName
        #expect(chunk.hasSuffix(".wav") && !chunk.contains("/") && !chunk.hasPrefix("."))
        #expect(CacheEntry(key: "a/b", title: "").fileName != CacheEntry(key: "a_b", title: "").fileName)
        #expect(CacheEntry(key: "../../etc", title: "").fileName.contains("/") == false)
    }

    static func entry(_ key: String, _ size: Int64, at time: Int64, pinned: Bool = false) -> CacheEntry {
        CacheEntry(key: key, title: key, size: size, downloadedMS: time, pinned: pinned)
    }

    @Test("eviction: played first, then the oldest; never pinned or protected ones; only as much as needed")
    func evictionOrder() {
        let entries = [
            Self.entry("old", 100, at: 1), Self.entry("played-new", 100, at: 5), Self.entry("pinned", 100, at: 0, pinned: true),
            Self.entry("playing", 100, at: 0), Self.entry("middle", 100, at: 3), Self.entry("newest", 100, at: 9),
        ]
        let order = MediaCache.evictionOrder(entries, limit: 250, played: ["played-new"], protected: ["playing"])
        #expect(order.map(\.key) == ["played-new", "old", "middle", "newest"])
        #expect(MediaCache.evictionOrder(entries, limit: 400, played: ["played-new"], protected: ["playing"]).map(\.key) == ["played-new", "old"])
        #expect(MediaCache.evictionOrder(entries, limit: 600, played: [], protected: []).isEmpty)
        // Over the bound with only pinned and protected left: nothing more goes.
        #expect(MediaCache.evictionOrder(entries, limit: 0, played: [], protected: ["playing"]).map(\.key) == ["old", "middle", "played-new", "newest"])
    }

    @Test("evict skips a file a player holds (its .use lease), and takes the next")
    func leaseProtects() throws {
        let directory = try TemporaryDirectory(prefix: "cache")
        let cache = try MediaCache(directory: directory.path)
        for (index, key) in ["A", "B", "C"].enumerated() {
            let entry = Self.entry(key, 10, at: Int64(index))
            try directory.write(Array(repeating: 0, count: 10), as: "media/" + entry.fileName)
            try directory.write(Array(try JSONEncoder().encode(entry)), as: "media/" + entry.fileName + ".json")
        }
        #expect(cache.entries().map(\.key) == ["A", "B", "C"])
        let lease = try #require(cache.lease("A"))
        let removed = cache.evict(limit: 20, played: [], protected: [])
        #expect(removed.map(\.key) == ["B"])
        #expect(cache.entries().map(\.key) == ["A", "C"])
        lease.unlock()
        #expect(cache.evict(limit: 10, played: [], protected: []).map(\.key) == ["A"])
    }
}
