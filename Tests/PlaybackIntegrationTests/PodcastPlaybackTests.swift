import AliciaTestSupport
import Foundation
import Testing

/// Podcasts as they come: MP3 and AAC behind tracking redirects, played by the binary into a
/// capture sink, with nginx's access log as the account of what was fetched.
@Suite("Podcast formats")
struct PodcastPlaybackTests {
    static let hangGuard: Duration = .seconds(60)

    /// Starts `arguments`, waits for the first sound, then Ctrl-C; the result and whether it played.
    private func playUntilSound(_ arguments: [String], capture: PipeSinkCapture) async throws -> (PlayerResult, Bool) {
        await Playback.gate.enter()
        let child: ChildProcess
        do {
            child = try PlayerProcess.start(arguments + ["--device", capture.sinkName])
        } catch {
            await Playback.gate.leave()
            throw error
        }
        let playing = await capture.waitForAudio(timeout: Self.hangGuard)
        child.send(SIGINT)
        let outcome = await child.wait(timeout: Self.hangGuard)
        await Playback.gate.leave()
        _ = await capture.finish(quietFor: .milliseconds(200))
        return (PlayerResult(outcome), playing)
    }

    /// Regression: `--start 1:45:00` on a 2-hour, 32 kb/s MP3 made about 380 Range requests from
    /// byte 0 up to 25 MB, each through both hops of the redirect chain (855 requests).
    @Test("a 2-hour MP3 started at 1:45:00 through two redirects fetches from there, walking the chain once")
    func mp3StartDeepThroughRedirects() async throws {
        let server = try NginxServer()
        let path = try await PodcastFixture.mp3(seconds: 7200)
        try server.serve(Array(try Data(contentsOf: URL(fileURLWithPath: path))), as: "long.mp3")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let (result, playing) = try await playUntilSound(["play", server.url("/hop1/long.mp3?token=s3cret"), "--start", "1:45:00"], capture: capture)
        #expect(playing, "\(result)")
        #expect(result.status == 130, "\(result)")
        #expect(!result.stderr.contains("s3cret"), "\(result)")
        let log = await server.settledAccessLog()
        let file = log.filter { $0.uri.hasPrefix("/cdn/") }
        #expect(log.filter { $0.uri.hasPrefix("/hop1/") }.count <= 2, "\(log)")
        #expect(log.filter { $0.uri.hasPrefix("/hop2/") }.count <= 2, "\(log)")
        #expect(file.allSatisfy { !$0.uri.contains("token") }, "\(log)")
        // The header probe, the read-ahead from 1:45:00 (10 s is 40 KB at 32 kb/s; the ring is at
        // least 64 KiB), what played before the signal: far under the 2 MiB the issue allows.
        let sent = file.map(\.bytesSent).reduce(0, +)
        #expect(sent < 2 << 20, "\(sent) bytes: \(log)")
        #expect(file.count < 10, "\(log)")
    }

    @Test("an M4A over HTTP plays to its end; two AAC files in a queue join with no gap")
    func aacPlaysAndJoins() async throws {
        let server = try NginxServer()
        for (name, frequency) in [("a.m4a", 440), ("b.m4a", 660)] {
            let path = try await PodcastFixture.m4a(seconds: 2, frequency: frequency)
            try server.serve(Array(try Data(contentsOf: URL(fileURLWithPath: path))), as: name)
        }
        let (result, captured) = try await Playback.playCapturingFloat(server.url("/hop1/a.m4a"), [server.url("/media/b.m4a")],
                                                                        rate: 44_100, channels: 2)
        #expect(result.status == 0, "\(result)")
        // Sound from its first frame to its last: 4 s, with no silence between the two files (the
        // capture's own silence before and after is trimmed).
        let frames = stride(from: 0, to: captured.count - 1, by: 2).map { max(abs(captured[$0]), abs(captured[$0 + 1])) }
        guard let first = frames.firstIndex(where: { $0 > 0.01 }), let last = frames.lastIndex(where: { $0 > 0.01 }) else {
            Issue.record("no sound captured: \(result)")
            return
        }
        #expect(abs((last - first) - 4 * 44_100) < 441, "\(last - first) frames of sound, not 4 s")
        var quiet = 0, longestQuiet = 0
        for value in frames[first...last] {
            quiet = value < 0.01 ? quiet + 1 : 0
            longestQuiet = max(longestQuiet, quiet)
        }
        // A 440 Hz tone crosses zero every 50 samples: anything longer is a gap.
        #expect(longestQuiet < 60, "\(longestQuiet) quiet frames in a row")
    }

    @Test("a WAV maps neither faad2 nor FFmpeg; an M4A maps faad2 alone; a player never maps libmicrohttpd (the demo's); libcurl only for a URL")
    func decodersAreLoadedOnlyForWhatNeedsThem() async throws {
        let directory = try TemporaryDirectory(prefix: "maps")
        let fixture = WAVFixture(seconds: 20, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 3)
        let wav = try directory.write(fixture.bytes, as: "long.wav")
        let m4a = try await PodcastFixture.m4a(seconds: 20)
        let server = try NginxServer()
        try server.serve(fixture, as: "long.wav")
        for (path, expectFaad) in [(wav, false), (m4a, true), (server.url("/media/long.wav"), false)] {
            let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
            await Playback.gate.enter()
            let child = try PlayerProcess.start(["play", path, "--device", capture.sinkName, "--loudness", "off"])
            let playing = await capture.waitForAudio(timeout: Self.hangGuard)
            // Read by cat: Foundation takes /proc's size of 0 at its word and reads a page.
            let maps = (try? await ChildProcess.run("cat", ["/proc/\(child.pid)/maps"]))?.stdoutText ?? ""
            child.send(SIGINT)
            _ = await child.wait(timeout: Self.hangGuard)
            await Playback.gate.leave()
            _ = await capture.finish(quietFor: .milliseconds(200))
            #expect(playing)
            #expect(!maps.isEmpty)
            // FFmpeg (about a hundred libraries) is for what neither the engine's decoders nor faad2 open.
            #expect(!maps.contains("libavcodec"), "\(path): libavcodec mapped")
            #expect(!maps.contains("libavformat"))
            #expect(maps.contains("libfaad") == expectFaad, "\(path): libfaad mapped: \(maps.contains("libfaad"))")
            #expect(!maps.contains("libmicrohttpd"), "\(path): libmicrohttpd mapped")
            // A local file is read with pread: libcurl and its thirty libraries stay out.
            #expect(maps.contains("libcurl") == path.hasPrefix("http"), "\(path): libcurl mapped: \(maps.contains("libcurl"))")
        }
    }

    /// Regression: libmpg123's own messages (`[src/libmpg123/layer3.c:…] error: part2_3_length …`)
    /// reached the terminal; and a 0-byte file said "Format not recognised.".
    @Test("a damaged MP3 plays without a word from libmpg123; an empty file says it is empty")
    func quietDecoderAndEmptyFile() async throws {
        let directory = try TemporaryDirectory(prefix: "damaged")
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try await PodcastFixture.mp3(seconds: 3))))
        var random = Xorshift64(seed: 99)
        for index in stride(from: bytes.count / 3, to: bytes.count / 3 + 3000, by: 1) { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
        let damaged = try directory.write(bytes, as: "damaged.mp3")
        let (result, _) = try await Playback.playCapturing16(damaged, ["--loudness", "off"])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("mpg123") && !result.stderr.contains("part2_3_length"), "\(result)")

        let empty = try directory.write([], as: "empty.mp3")
        let (emptyResult, _) = try await Playback.playCapturing16(empty)
        #expect(emptyResult.status == 1, "\(emptyResult)")
        #expect(emptyResult.stderr.contains("the file is empty"), "\(emptyResult)")
    }
}
