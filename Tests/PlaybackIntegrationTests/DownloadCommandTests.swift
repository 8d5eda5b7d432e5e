import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// `download`, `cache` and playing offline, run as a user runs them against the demo backend.
@Suite("Download command", .serialized)
struct DownloadCommandTests {
    static let token = "dl-TOKEN-\(UInt32.random(in: 1000...9999))"

    /// One cache, config and state for a sequence of runs.
    static func environment(_ backend: DemoBackend) throws -> [String: String] {
        var environment = try BackendCommandTests.isolatedEnvironment(backend, token: backend.token)
        environment["XDG_CACHE_HOME"] = try PlayerProcess.freshStateDirectory()
        environment["XDG_STATE_HOME"] = try PlayerProcess.freshStateDirectory()
        return environment
    }

    private func expectNoToken(_ result: PlayerResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!result.stdout.contains(Self.token) && !result.stderr.contains(Self.token), "token shown", sourceLocation: sourceLocation)
    }

    @Test("a downloaded episode plays from the cache with no request, bit for bit, also with the backend stopped")
    func playsOffline() async throws {
        let backend = try DemoBackend(token: Self.token)
        let environment = try Self.environment(backend)
        let download = try await Playback.run(["download", "INTERLUDE"], environment: environment)
        #expect(download.status == 0, "\(download)")
        #expect(download.stdout.contains("INTERLUDE: downloaded"), "\(download)")
        expectNoToken(download)
        let file = try #require(environment["XDG_CACHE_HOME"]) + "/alicia-player/media/INTERLUDE.wav"
        let bytes = try #require(FileManager.default.contents(atPath: file).map { [UInt8]($0) })
        let channels = Int(bytes[22]) | Int(bytes[23]) << 8
        let rate = Int(bytes[24]) | Int(bytes[25]) << 8 | Int(bytes[26]) << 16
        let samples = AudioCompare.int16Samples(littleEndian: bytes[44...])
        let frames = samples.count / channels
        // The last 2 s, from a whole frame.
        let startFrame = frames - 2 * rate
        let start = String(format: "%.6f", Double(startFrame) / Double(rate))
        let expected = AudioCompare.trimmingSilentFrames(Array(samples[(startFrame * channels)...]), channels: channels)
        let before = backend.requests.count
        for stopped in [false, true] {
            if stopped { backend.stop() }
            let capture = try await PipeSinkCapture(format: .s16le, rate: rate, channels: channels)
            let play = try await Playback.run(["play", "INTERLUDE", "--device", capture.sinkName, "--start", start, "--no-ipc"],
                                              environment: environment)
            let captured = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: channels)
            #expect(play.status == 0, "backend stopped: \(stopped): \(play)")
            expectNoToken(play)
            #expect(AudioCompare.firstMismatch(expected: expected, actual: captured) == nil,
                    "\(AudioCompare.describeDifference(expected: expected, actual: captured, channels: channels))")
            if !stopped {
                let audio = backend.requests[before...].filter { $0.path.contains("/api/audio/") }
                #expect(audio.isEmpty, "requests for audio while playing from the cache: \(audio)")
            }
        }
        // Offline, `tracks` shows the last library, marked, with what cannot play.
        let tracks = try await Playback.run(["tracks"], environment: environment)
        #expect(tracks.status == 0, "\(tracks)")
        #expect(tracks.stdout.contains("offline — last updated"), "\(tracks)")
        #expect(tracks.stdout.contains("(not downloaded, offline)"), "\(tracks)")
        let interlude = tracks.stdout.split(separator: "\n").first { $0.contains("INTERLUDE") }
        #expect(interlude.map { !$0.contains("not downloaded") } == true, "\(tracks)")
        // Another episode, not downloaded, is said to be unavailable.
        let other = try await Playback.run(["play", "S1E01", "--no-ipc"], environment: environment)
        #expect(other.status == 1)
        #expect(other.stderr.contains("S1E01 is not downloaded (offline — last updated"), "\(other)")
    }

    @Test("two downloads of one episode at once give one intact file")
    func concurrent() async throws {
        let backend = try DemoBackend(token: Self.token, faults: .init(bytesPerSecond: 20_000_000))
        defer { backend.stop() }
        let environment = try Self.environment(backend)
        async let first = Playback.run(["download", "S1E02"], environment: environment)
        async let second = Playback.run(["download", "S1E02"], environment: environment)
        let results = try await [first, second]
        for result in results { #expect(result.status == 0, "\(result)") }
        #expect(results.filter { $0.stdout.contains("S1E02: downloaded") }.count == 1, "\(results)")
        let cache = try #require(environment["XDG_CACHE_HOME"]) + "/alicia-player/media/"
        let names = try FileManager.default.contentsOfDirectory(atPath: cache).filter { !$0.hasSuffix(".lock") && !$0.hasSuffix(".use") }
        #expect(names.sorted() == ["S1E02.wav", "S1E02.wav.json"], "\(names)")
        let reply = try await ChildProcess.run("curl", ["-s", backend.baseURL + "/api/audio/s1e02.wav?token=" + backend.token])
        #expect(FileManager.default.contents(atPath: cache + "S1E02.wav").map { [UInt8]($0) } == reply.stdout || reply.stdout.isEmpty)
    }

    @Test("eviction under a small --max-size: played first, then the oldest; pinned ones stay")
    func eviction() async throws {
        let backend = try DemoBackend(token: Self.token)
        defer { backend.stop() }
        let environment = try Self.environment(backend)
        for (reference, extra) in [("INTERLUDE", ["--pin"]), ("S1E02", []), ("NIGHTS-2", [])] {
            // A hang guard, not a figure: 66 MiB from a debug build's backend beside a loaded suite
            // took over 30 s.
            let result = try await Playback.run(["download", reference] + extra, environment: environment, timeout: .seconds(300))
            #expect(result.status == 0, "\(result)")
        }
        let listed = try await Playback.run(["cache"], environment: environment)
        #expect(listed.stdout.contains("3 files"), "\(listed)")
        #expect(listed.stdout.contains("pinned"), "\(listed)")
        // S1E02 (10.7 MiB) and NIGHTS-2 (about 66 MiB) over 60M: the older, S1E02, goes first, then NIGHTS-2;
        // the pinned INTERLUDE stays.
        let bounded = try await Playback.run(["cache", "--max-size", "60M"], environment: environment)
        #expect(bounded.status == 0, "\(bounded)")
        let removed = bounded.stdout.split(separator: "\n").filter { $0.hasPrefix("removed") }.map { String($0.split(separator: " ")[1]) }
        #expect(removed == ["S1E02", "NIGHTS-2"], "\(bounded)")
        let config = try String(contentsOfFile: try #require(environment["XDG_CONFIG_HOME"]) + "/alicia/config", encoding: .utf8)
        #expect(config.contains("cache_max_size = 60M"))
        let after = try await Playback.run(["cache"], environment: environment)
        #expect(after.stdout.contains("INTERLUDE") && after.stdout.contains("1 file,"), "\(after)")
        let cleared = try await Playback.run(["cache", "clear", "interlude"], environment: environment)
        #expect(cleared.status == 0 && cleared.stdout.contains("removed INTERLUDE"), "\(cleared)")
    }

    @Test("auto_download in the config file: the next episode of a backend queue lands in the cache while the first plays; the token shows nowhere")
    func autoDownloadFromTheConfig() async throws {
        let backend = try DemoBackend(token: Self.token)
        defer { backend.stop() }
        var environment = try Self.environment(backend)
        let log = try PlayerProcess.freshStateDirectory() + "/player.log"
        environment["ALICIA_LOG"] = "debug"
        environment["ALICIA_LOG_FILE"] = log
        let set = try await Playback.run(["config", "set", "auto_download", "1"], environment: environment)
        #expect(set.status == 0 && set.stdout.contains("auto_download = 1"), "\(set)")
        let refused = try await Playback.run(["config", "set", "auto_download", "lots"], environment: environment)
        #expect(refused.status == 2 && refused.stderr.contains("is not a number of queue items"), "\(refused)")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let file = try #require(environment["XDG_CACHE_HOME"]) + "/alicia-player/media/INTERLUDE.wav"
        let result = try await Playback.gated { () async throws -> PlayerResult in
            let player = try PlayerProcess.start(["play", "S1E02", "INTERLUDE", "--device", capture.sinkName, "--no-ipc"],
                                                 environment: environment)
            let deadline = ContinuousClock.now + .seconds(60)
            while !FileManager.default.fileExists(atPath: file), player.isRunning, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            player.send(SIGTERM)
            return try await PlayerProcess.result(of: player, timeout: .seconds(30))
        }
        _ = await capture.finish()
        #expect(result.status == 143, "\(result)")
        #expect(FileManager.default.fileExists(atPath: file), "INTERLUDE was not downloaded: \(result)")
        expectNoToken(result)
        let diagnostics = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(!diagnostics.isEmpty && !diagnostics.contains(Self.token), "the token is in the log")
        let audio = backend.requests.filter { $0.path.hasPrefix("/api/audio/") }.map(\.path)
        #expect(!audio.contains { $0.contains(Self.token) }, "\(audio)")
        #expect(audio.contains { $0.hasPrefix("/api/audio/interlude.wav") }, "\(audio)")
    }
}
