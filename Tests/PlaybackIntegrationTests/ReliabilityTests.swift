import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// Playing through a server that goes away, answers errors, crawls or changes the file: what the
/// listener hears (through a real capture) and what the player says.
@Suite("Reliability on the network")
struct ReliabilityTests {
    static let episode = WAVFixture(seconds: 8, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xE1)
    // The outage tests fetch from nginx's rate-limited location (256 kB/s, a little over the byte
    // rate): from /media/ the whole 1.5 MB file could already sit in loopback's socket buffers when
    // the server stops, and play to its end without a single retry.

    /// Polls `ctl get alicia-state` (a hang guard of `seconds`, not a figure) until `state`.
    static func waitForState(_ state: String, socket: String, player: ChildProcess, seconds: Int = 60) async throws -> Bool {
        for _ in 0..<(seconds * 10) {
            guard player.isRunning else { return false }
            let asked = try await PlayerProcess.run(["ctl", "--ipc", socket, "get", "alicia-state"])
            if asked.stdout == state + "\n" { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    @Test("the server gone for 15 s and back on the same port: reconnecting, then on by itself, every sample once")
    func outage() async throws {
        try TestEnvironment.requirePulseAudio()
        let server = try NginxServer()
        try server.serve(Self.episode, as: "episode.wav")
        let directory = try TemporaryDirectory(prefix: "outage")
        let socket = directory.file("socket")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.gated { () async throws -> PlayerResult in
            // The server goes at the first sound, from the capture's own thread: a test task waiting
            // for it was seconds late under a sanitizer, when the player already had the whole file.
            capture.whenAudible { server.stop() }
            let player = try PlayerProcess.start(["play", server.url("/slow/episode.wav"), "--read-ahead", "2", "--ipc", socket,
                                                  "--device", capture.sinkName])
            #expect(await capture.waitForAudio(timeout: .seconds(30)), "no audio")
            #expect(try await Self.waitForState("reconnecting", socket: socket, player: player), "the state never showed reconnecting")
            try await Task.sleep(for: .seconds(15))
            #expect(player.isRunning, "the player gave up during a 15 s outage")
            try server.restart()
            return try await PlayerProcess.result(of: player, timeout: .seconds(90))
        }
        let captured = ScriptCommandTests.withoutSilentFrames(await capture.finishInt16())
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        expectBitExact(captured: captured, expected: Self.episode.samples16, channels: 2)
    }

    @Test("HTTPS: an untrusted certificate is one clear line at once, not retried; --cacert trusts it and it plays bit for bit")
    func untrustedCertificate() async throws {
        try TestEnvironment.requirePulseAudio()
        try TestEnvironment.require((try? ChildProcess.resolve("openssl")) != nil, "openssl makes the certificate (scripts/test installs it)")
        let fixture = WAVFixture(seconds: 1.5, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0x7151)
        let server = try NginxServer(tls: true)
        try server.serve(fixture, as: "episode.wav")
        let url = server.httpsURL("/media/episode.wav")
        // Without a hang guard of minutes: a failed check is not an outage, so nothing is retried.
        let refused = try await Playback.run(["play", url, "--give-up-after", "0"], timeout: .seconds(60))
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderrLines.count == 1, "\(refused.stderr)")
        let line = refused.stderr
        #expect(line.contains("secure connection failed") && line.contains("certificate") && line.contains("--cacert"), "\(line)")
        #expect(server.accessLog().isEmpty, "a request got through: \(server.accessLog())")

        guard let certificate = server.certificatePath else { return }
        let (trusted, captured) = try await Playback.playCapturing16(url, ["--cacert", certificate])
        expectSuccess(trusted)
        expectBitExact(captured: captured, expected: fixture.samples16, channels: 2)
    }

    @Test("an outage longer than --give-up-after 5: one line, exit 1, the position saved")
    func givesUp() async throws {
        try TestEnvironment.requirePulseAudio()
        let server = try NginxServer()
        try server.serve(Self.episode, as: "episode.wav")
        let state = try PlayerProcess.freshStateDirectory()
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.gated { () async throws -> PlayerResult in
            capture.whenAudible { server.stop() }
            let player = try PlayerProcess.start(["play", server.url("/slow/episode.wav"), "--read-ahead", "2", "--give-up-after", "5",
                                                  "--device", capture.sinkName], environment: ["XDG_STATE_HOME": state])
            #expect(await capture.waitForAudio(timeout: .seconds(30)), "no audio")
            return try await PlayerProcess.result(of: player, timeout: .seconds(60))
        }
        _ = await capture.finish(quietFor: .milliseconds(200))
        expectErrorLine(result, status: 1, containing: ["gave up after 5 s", "cannot connect", "127.0.0.1:\(server.port)", "the position is saved"])
        let saved = try String(contentsOfFile: state + "/alicia-player/positions.json", encoding: .utf8)
        let object = try JSONSerialization.jsonObject(with: Data(saved.utf8)) as? [String: Any]
        let positions = (object?["positions"] as? [String: [String: Any]]) ?? [:]
        let milliseconds = positions.values.compactMap { $0["position_ms"] as? Int ?? ($0["position"] as? Int) }.first ?? 0
        #expect(milliseconds > 500, "no position saved: \(saved)")
    }

    @Test("30 % of requests answered 500: retried, the audio bit-exact")
    func serverErrors() async throws {
        try TestEnvironment.requirePulseAudio()
        let clean = try DemoBackend(token: "t")
        let reference = try await LoopbackHTTP.get(port: clean.port, path: "/api/audio/interlude.wav?token=t")
        clean.stop()
        try #require(reference.status == 200 && reference.body.count > 44)
        let samples = reference.body[44...].withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let flaky = try DemoBackend(token: "t", faults: DemoBackend.Faults(failureRate: 0.3, failureSeed: 7))
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 1)
        let result = try await Playback.run(["play", flaky.baseURL + "/api/audio/interlude.wav?token=t", "--start", "40",
                                             "--device", capture.sinkName], timeout: .seconds(180))
        let captured = await capture.finishInt16()
        let failed = flaky.requests.filter { $0.status == 500 }.count
        flaky.stop()
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(failed > 0, "no request failed: the fault was not exercised")
        // The music has silences of its own, and a retry may leave the output corked for a moment:
        // without every zero sample, the capture is the episode's samples from 40 s, in order.
        let heard = captured.filter { $0 != 0 }
        let expected = samples[(40 * 48_000)...].filter { $0 != 0 }
        let same = heard == expected
        #expect(same, "the capture differs: \(AudioCompare.describeDifference(expected: expected, actual: heard, channels: 1))")
    }

    @Test("a link at two thirds of the byte rate pauses to buffer: every stretch of sound at least 2 s")
    func slowLink() async throws {
        try TestEnvironment.requirePulseAudio()
        // 48 kHz stereo 16-bit is 192 kB/s; the link gives 128 kB/s.
        let server = try NginxServer(slowRate: "128k")
        let fixture = WAVFixture(seconds: 9, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xE2)
        try server.serve(fixture, as: "slow.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["play", server.url("/slow/slow.wav"), "--device", capture.sinkName], timeout: .seconds(120))
        let captured = await capture.finishInt16()
        #expect(result.status == 0, "\(result)")
        expectBitExact(captured: ScriptCommandTests.withoutSilentFrames(captured), expected: fixture.samples16, channels: 2)
        // Stretches of sound between pauses of at least 50 ms: none shorter than 2 s but the last.
        var stretches: [Int] = []
        var run = 0
        var silent = 0
        var frame = 0
        while frame * 2 + 1 < captured.count {
            if captured[frame * 2] == 0 && captured[frame * 2 + 1] == 0 {
                silent += 1
                if silent == 2_400 && run > 0 {
                    stretches.append(run)
                    run = 0
                }
            } else {
                if silent >= 2_400 { run = 0 }
                silent = 0
                run += 1
            }
            frame += 1
        }
        if run > 0 { stretches.append(run) }
        let short = stretches.dropLast().filter { $0 < 2 * 48_000 }
        #expect(stretches.count >= 2, "it never paused to buffer: \(stretches)")
        #expect(short.isEmpty, "stretches of sound shorter than 2 s between pauses: \(stretches.map { Double($0) / 48_000 })")
    }

    @Test("the file replaced on the server while it plays: stopped with a clear line, never spliced")
    func fileReplaced() async throws {
        try TestEnvironment.requirePulseAudio()
        let server = try NginxServer()
        let first = WAVFixture(seconds: 8, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xE3)
        let second = WAVFixture(seconds: 8, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xE4)
        try server.serve(first, as: "changing.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.gated { () async throws -> PlayerResult in
            // Another file, another date: what nginx sends as Last-Modified changes. Put in place at
            // the first sound, from the capture's own thread (a test task was late enough under a
            // sanitizer for the player to have the whole first file).
            try server.serve(second, as: "changing.wav.new")
            let directory = server.fixturesDirectory
            capture.whenAudible {
                var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
                utimensat(AT_FDCWD, directory + "/changing.wav.new", &times, 0)
                rename(directory + "/changing.wav.new", directory + "/changing.wav")
            }
            let player = try PlayerProcess.start(["play", server.url("/slow/changing.wav"), "--read-ahead", "2",
                                                  "--device", capture.sinkName])
            #expect(await capture.waitForAudio(timeout: .seconds(30)), "no audio")
            return try await PlayerProcess.result(of: player, timeout: .seconds(60))
        }
        let captured = ScriptCommandTests.withoutSilentFrames(await capture.finishInt16())
        expectErrorLine(result, status: 1, containing: ["changed on the server while it played"])
        // What was heard is the first file's start, and nothing of the second.
        #expect(!captured.isEmpty && captured.count < first.samples16.count, "\(captured.count) samples heard")
        let isPrefix = Array(first.samples16.prefix(captured.count)) == captured
        #expect(isPrefix,
                "the capture is not the first file's start: \(AudioCompare.describeDifference(expected: first.samples16, actual: captured, channels: 2))")
    }
}
