import AliciaTestSupport
import Foundation
import Testing

/// Two players at once, told apart by `--ipc-name`: `ctl --player NAME|PID` and `ctl list`.
@Suite("Several players")
struct SeveralPlayersTests {
    /// Long enough that neither player ends by itself while a loaded machine runs the test's steps.
    static let long = WAVFixture(seconds: 90, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0x2B1A)

    @Test("two players with --ipc-name: ctl --player reaches each by name and by PID, ctl list shows both, the default socket stays free")
    func twoNamedPlayers() async throws {
        try TestEnvironment.requirePulseAudio()
        let directory = try TemporaryDirectory(prefix: "several")
        let a = try directory.write(Self.long.bytes, as: "episode.wav")
        let b = try directory.write(Self.long.bytes, as: "notes.wav")
        var environment: [String: String] = [:]
        try PlayerProcess.isolate(&environment)
        let runtime = try #require(environment["XDG_RUNTIME_DIR"])
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        func ctl(_ words: [String]) async throws -> PlayerResult {
            try await PlayerProcess.run(["ctl"] + words, environment: environment)
        }
        try await Playback.gated {
            let first = try PlayerProcess.start(["play", a, "--ipc-name", "episode", "--device", capture.sinkName], environment: environment)
            let second = try PlayerProcess.start(["play", b, "--ipc-name", "notes", "--device", capture.sinkName], environment: environment)
            try await ControlSocketTests.waitForSocket(runtime + "/alicia-player/episode", player: first)
            try await ControlSocketTests.waitForSocket(runtime + "/alicia-player/notes", player: second)

            // Each answers once its item has opened (while it loads, media-title is unavailable, as
            // mpv's is before a file): asked again a bounded number of times until then.
            for name in ["episode", "notes"] {
                var reply = try await ctl(["--player", name, "get", "media-title"])
                for _ in 0..<400 where reply.status == 1 && reply.stderr.contains("property unavailable") {
                    try await Task.sleep(for: .milliseconds(50))
                    reply = try await ctl(["--player", name, "get", "media-title"])
                }
            }
            let episode = try await ctl(["--player", "episode", "get", "media-title"])
            #expect(episode.status == 0 && episode.stdout == "episode.wav\n", "\(episode)")
            let notes = try await ctl(["--player", "notes", "get", "media-title"])
            #expect(notes.status == 0 && notes.stdout == "notes.wav\n", "\(notes)")
            let byPID = try await ctl(["--player", String(second.pid), "get", "media-title"])
            #expect(byPID.status == 0 && byPID.stdout == "notes.wav\n", "\(byPID)")
            #expect(try await ctl(["--player", "notes", "pause"]).status == 0)

            let list = try await ctl(["list"])
            #expect(list.status == 0, "\(list)")
            let rows = list.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
            #expect(rows == [["episode", String(first.pid), "playing", "episode.wav"], ["notes", String(second.pid), "paused", "notes.wav"]],
                    "\(list)")
            let json = try await ctl(["--json", "list"])
            #expect(json.stdout.split(separator: "\n").count == 2 && json.stdout.contains(#""name":"notes","pid":\#(second.pid)"#), "\(json)")

            // The default socket is nobody's; a PID with no player, one clear line.
            let none = try await ctl(["get", "media-title"])
            #expect(none.status == 3, "\(none)")
            let nobody = try await ctl(["--player", "1", "get", "media-title"])
            #expect(nobody.status == 3 && nobody.stderrLines.count == 1 && nobody.stderr.contains("no player with PID 1"), "\(nobody)")

            for name in ["episode", "notes"] { #expect(try await ctl(["--player", name, "quit"]).status == 0) }
            #expect(try await PlayerProcess.result(of: first, timeout: .seconds(20)).status == 0)
            #expect(try await PlayerProcess.result(of: second, timeout: .seconds(20)).status == 0)
            let gone = try await ctl(["list"])
            #expect(gone.status == 3 && gone.stdout.isEmpty, "\(gone)")
        }
        _ = await capture.finish(quietFor: .milliseconds(200))
        let bad = try await PlayerProcess.run(["play", a, "--ipc-name", "../x"])
        #expect(bad.status == 2 && bad.stderr.contains("not a socket name"), "\(bad)")
    }
}
