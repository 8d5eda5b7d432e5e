import AliciaTestSupport
import Foundation
import Testing

/// `--auto-download N` and eviction while a queue plays, against a loopback nginx, captured by a
/// pipe sink: what lands in the cache plays from it, bit for bit, once the server is gone, and what
/// plays (and what is next) is never evicted.
@Suite("Auto-download", .serialized)
struct AutoDownloadTests {
    static let first = WAVFixture(seconds: 8, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xAD1)
    static let second = WAVFixture(seconds: 1.5, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xAD2)
    static let third = WAVFixture(seconds: 1.25, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xAD3)

    /// Config, cache and state of their own, and diagnostics in a file the test reads.
    static func environment() throws -> (environment: [String: String], log: String) {
        var environment = try BackendCommandTests.isolatedEnvironment(nil)
        environment["XDG_CACHE_HOME"] = try PlayerProcess.freshStateDirectory()
        environment["XDG_STATE_HOME"] = try PlayerProcess.freshStateDirectory()
        let log = try PlayerProcess.freshStateDirectory() + "/player.log"
        environment["ALICIA_LOG"] = "info"
        environment["ALICIA_LOG_FILE"] = log
        return (environment, log)
    }

    /// The complete files in the cache, by content.
    static func cachedFiles(_ environment: [String: String]) -> [[UInt8]] {
        guard let media = environment["XDG_CACHE_HOME"].map({ $0 + "/alicia-player/media/" }),
              let names = try? FileManager.default.contentsOfDirectory(atPath: media) else { return [] }
        return names.filter { $0.hasSuffix(".wav") }.sorted().compactMap { FileManager.default.contents(atPath: media + $0).map { [UInt8]($0) } }
    }

    /// Waits (a hang guard, not a timing) until `condition` holds.
    static func wait(_ what: String, timeout: Duration = .seconds(60), _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { throw HarnessError("waited \(timeout) for \(what)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test("a queue of 3 with --auto-download 2: the next two land in the cache while the first plays; with the server stopped they play from it, bit-exact")
    func nextItemsPlayFromTheCache() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        try server.serve(Self.first, as: "a.wav")
        try server.serve(Self.second, as: "b.wav")
        try server.serve(Self.third, as: "c.wav")
        let (environment, log) = try Self.environment()
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let urls = ["a.wav", "b.wav", "c.wav"].map { server.url("/media/" + $0) }
        let socket = try PlayerProcess.freshStateDirectory() + "/ipc.sock"
        let result = try await Playback.gated { () async throws -> PlayerResult in
            let player = try PlayerProcess.start(["play"] + urls + ["--auto-download", "2", "--device", capture.sinkName, "--ipc", socket],
                                                 environment: environment)
            // Paused as soon as it listens, so the first item is still the one heard when the others
            // have landed however long the downloads take (a busy machine's fsync can take seconds):
            // the test waits for the downloads, never for a time.
            let deadline = ContinuousClock.now + .seconds(60)
            while player.isRunning, try await ControlSocketTests.ctl(socket, ["pause"]).status != 0 {
                guard ContinuousClock.now < deadline else { throw HarnessError("the player never listened on \(socket)") }
                try await Task.sleep(for: .milliseconds(50))
            }
            // Both are in the cache and their queue entries play from it (the log says when).
            try await Self.wait("b and c to play from the cache") {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                return !player.isRunning || ["b.wav", "c.wav"].allSatisfy { name in
                    text.split(separator: "\n").contains { $0.contains("auto-download:") && $0.contains(name) && $0.contains("plays from the cache") }
                }
            }
            #expect(player.isRunning, "the player ended before the others were downloaded")
            let position = try await ControlSocketTests.ctl(socket, ["get", "playlist-pos"])
            #expect(position.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "not on the first item: \(position)")
            server.stop()
            let resumed = try await ControlSocketTests.ctl(socket, ["resume"])
            #expect(resumed.status == 0, "\(resumed)")
            return try await PlayerProcess.result(of: player, timeout: .seconds(60))
        }
        let captured = await capture.finishInt16()
        expectSuccess(result)
        #expect(!result.stderr.contains("warning"), "\(result)")
        // The pause is silence in the capture: left out, the rest is the three files in order.
        expectBitExact(captured: ScriptCommandTests.withoutSilentFrames(captured),
                       expected: Self.first.samples16 + Self.second.samples16 + Self.third.samples16, channels: 2)
        // Whole files, each fetched once from the start by the download (no Range).
        let cached = Self.cachedFiles(environment)
        #expect(cached.count == 2 && cached.contains(Self.second.bytes) && cached.contains(Self.third.bytes),
                "cached: \(cached.map(\.count))")
        let entries = server.accessLog()
        for name in ["b.wav", "c.wav"] {
            let downloads = entries.filter { $0.uri.hasPrefix("/media/" + name) && $0.range == nil && $0.status == 200 }
            #expect(downloads.count == 1, "\(name): \(entries)")
        }
        let firstFetches = entries.filter { $0.uri.hasPrefix("/media/a.wav") && $0.range == nil && $0.status == 200 }
        #expect(firstFetches.isEmpty, "the item playing was downloaded too: \(entries)")
    }

    @Test("items already in the cache are not fetched again, and a failed download is one warning, not a stop")
    func cachedSkippedAndFailureIsANotice() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        try server.serve(Self.second, as: "b.wav")
        try server.serve(Self.third, as: "c.wav")
        let (environment, _) = try Self.environment()
        let download = try await Playback.run(["download", server.url("/media/c.wav")], environment: environment)
        #expect(download.status == 0, "\(download)")
        let before = server.accessLog().count
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        // c.wav plays from the cache; gone.wav is not there: its download fails with a warning,
        // and then it cannot play either (its own error), while b.wav before it plays to the end.
        let result = try await Playback.run(["play", server.url("/media/b.wav"), server.url("/media/c.wav"), server.url("/media/gone.wav"),
                                             "--auto-download", "2", "--device", capture.sinkName, "--no-ipc"], environment: environment)
        let captured = await capture.finishInt16()
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("warning: auto-download of gone.wav"), "\(result)")
        expectBitExact(captured: captured, expected: Self.second.samples16 + Self.third.samples16, channels: 2)
        let later = Array(server.accessLog()[before...])
        #expect(!later.contains { $0.uri.hasPrefix("/media/c.wav") }, "the cached item was fetched: \(later)")
    }

    @Test("a download that pushes the cache over its bound while a queue plays evicts neither the item playing nor the next; both play bit-exact")
    func evictionSparesWhatPlays() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let playing = WAVFixture(seconds: 6, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xE1)
        let old = WAVFixture(seconds: 5, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xE3)
        let newer = WAVFixture(seconds: 5, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xE4)
        try server.serve(playing, as: "playing.wav")
        try server.serve(Self.second, as: "next.wav")
        try server.serve(old, as: "old.wav")
        try server.serve(newer, as: "new.wav")
        let (environment, _) = try Self.environment()
        // The one to play and the next are the oldest downloads: eviction's first choice, but for their lease.
        for name in ["playing.wav", "next.wav", "old.wav"] {
            let result = try await Playback.run(["download", server.url("/media/" + name)], environment: environment)
            #expect(result.status == 0, "\(result)")
        }
        // All three fit; with new.wav too they do not, and old.wav going is enough.
        let bound = playing.bytes.count + Self.second.bytes.count + old.bytes.count + 100_000
        let set = try await Playback.run(["cache", "--max-size", "\(bound)"], environment: environment)
        #expect(set.status == 0 && !set.stdout.contains("removed"), "\(set)")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let (result, download) = try await Playback.gated { () async throws -> (PlayerResult, PlayerResult) in
            let player = try PlayerProcess.start(["play", server.url("/media/playing.wav"), server.url("/media/next.wav"),
                                                  "--device", capture.sinkName, "--no-ipc"], environment: environment)
            _ = await capture.waitForAudio(timeout: .seconds(30))
            let download = try await PlayerProcess.run(["download", server.url("/media/new.wav")], environment: environment)
            return (try await PlayerProcess.result(of: player, timeout: .seconds(60)), download)
        }
        let captured = await capture.finishInt16()
        expectSuccess(result)
        #expect(download.status == 0, "\(download)")
        let removed = download.stdout.split(separator: "\n").filter { $0.hasPrefix("removed") }
        #expect(removed.count == 1 && removed[0].contains("old.wav"), "\(download)")
        expectBitExact(captured: captured, expected: playing.samples16 + Self.second.samples16, channels: 2)
        let cached = Self.cachedFiles(environment)
        #expect(cached.count == 3 && cached.contains(playing.bytes) && cached.contains(Self.second.bytes) && cached.contains(newer.bytes),
                "cached: \(cached.map(\.count))")
    }
}
