import AliciaTestSupport
import Foundation
import Testing

/// `play DIR` and `play -`, bit for bit through a PulseAudio pipe sink.
@Suite("Directories and standard input")
struct LocalInputTests {
    @Test("play DIR plays its audio files in natural name order, bit-exact")
    func directory() async throws {
        let directory = try TemporaryDirectory(prefix: "play-dir")
        defer { directory.remove() }
        // Written out of order; `10` after `2`: natural order, not the bytes'.
        let files = [("1 first.wav", UInt64(1)), ("2 second.wav", UInt64(2)), ("10 third.wav", UInt64(3))]
        let fixtures = files.map { WAVFixture(seconds: 0.5, sampleRate: 48_000, channels: 2, format: .pcm16, seed: $0.1) }
        for (index, file) in files.enumerated().reversed() { _ = try directory.write(fixtures[index].bytes, as: file.0) }
        _ = try directory.write(Array("not audio".utf8), as: "notes.txt")
        let (result, captured) = try await Playback.playCapturing16(directory.path)
        expectSuccess(result)
        expectBitExact(captured: captured, expected: fixtures.flatMap(\.samples16), channels: 2)
    }

    @Test("cat f.wav | play - plays it bit-exact, keeps no resume position, and refuses a seek in one line")
    func standardInput() async throws {
        let directory = try TemporaryDirectory(prefix: "play-stdin")
        defer { directory.remove() }
        let fixture = WAVFixture(seconds: 1, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0x57D1)
        let file = try directory.write(fixture.bytes, as: "in.wav")
        let player = try PlayerProcess.executablePath()
        var environment = ["XDG_STATE_HOME": directory.file("state"), "ALICIA_LOUDNESS": "off"]
        try PlayerProcess.isolate(&environment)
        if let server = BackendCommandTests.pulseServer { environment["PULSE_SERVER"] = server }
        let fixed = environment
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.gated {
            try await ChildProcess.run("/bin/sh", ["-c", "cat \"$1\" | \"$2\" play - --device \"$3\" --no-ipc", "sh", file, player, capture.sinkName],
                                       environment: fixed, timeout: .seconds(60))
        }
        #expect(result.status == 0, "\(result.stderrText)")
        expectBitExact(captured: await capture.finishInt16(), expected: fixture.samples16, channels: 2)
        let positions = (try? String(contentsOfFile: directory.file("state/alicia-player/positions.json"), encoding: .utf8)) ?? ""
        #expect(!positions.contains("stdin"), "\(positions)")

        // A seek (here over the socket) is refused with one line.
        let ipc = directory.file("socket")
        let long = try directory.write(WAVFixture(seconds: 20, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 7).bytes, as: "long.wav")
        let seekCapture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        // Inside the gate, from the pipeline's start: a whole suite's gate held it back past any
        // fixed wait for the socket (the player then played to its end, never asked).
        let (refused, ended) = try await Playback.gated { () async throws -> (PlayerResult?, ChildProcess.Result) in
            let pipeline = try ChildProcess("/bin/sh", ["-c", "cat \"$1\" | \"$2\" play - --device \"$3\" --ipc \"$4\"", "sh",
                                                        long, player, seekCapture.sinkName, ipc], environment: fixed)
            // Listening (the file is there from bind(); the player answers once it listens).
            try await ControlSocketTests.waitForSocket(ipc, player: pipeline)
            let refused: PlayerResult? = try await PlayerProcess.run(["ctl", "--ipc", ipc, "seek", "+1"], environment: fixed)
            _ = try? await PlayerProcess.run(["ctl", "--ipc", ipc, "quit"], environment: fixed)
            return (refused, await pipeline.wait(timeout: .seconds(60)))
        }
        #expect(refused?.status == 1, "\(String(describing: refused)); the player: \(ended)")
        #expect(refused?.stderr.contains("standard input plays once through: it cannot seek") == true, "\(String(describing: refused))")
        _ = await seekCapture.finishInt16()
    }
}
