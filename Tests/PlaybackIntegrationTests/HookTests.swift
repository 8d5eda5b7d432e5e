import AliciaTestSupport
import Foundation
import Testing

/// `hook = EVENT COMMAND…` lines of the config file, run by a real player playing into a capture.
@Suite("Event hooks")
struct HookTests {
    static let short = WAVFixture(seconds: 1, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xB1)
    static let three = WAVFixture(seconds: 3, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xB2)

    /// A config directory whose file holds `lines`.
    static func configured(_ lines: [String], in directory: TemporaryDirectory) throws -> [String: String] {
        let config = directory.file("config")
        try FileManager.default.createDirectory(atPath: config + "/alicia", withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(toFile: config + "/alicia/config", atomically: true, encoding: .utf8)
        return ["XDG_CONFIG_HOME": config]
    }

    static func event(_ path: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    @Test("two hooks on item-start both run, each with the event as JSON on stdin; item-end too; the player stays quiet")
    func twoHooksRun() async throws {
        try TestEnvironment.requirePulseAudio()
        let directory = try TemporaryDirectory(prefix: "hooks")
        let a = try directory.write(Self.short.bytes, as: "a.wav")
        let environment = try Self.configured([
            "hook = item-start tee \(directory.file("one.json"))",
            "hook = item-start cp /dev/stdin '\(directory.file("two.json"))'",
            "hook = item-end cp /dev/stdin \(directory.file("end.json"))",
        ], in: directory)
        let capture = try PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["play", a, "--device", capture.sinkName], environment: environment)
        let captured = await capture.finishInt16(quietFor: .milliseconds(200))
        expectSuccess(result)
        expectBitExact(captured: captured, expected: Self.short.samples16, channels: 2)
        for name in ["one.json", "two.json"] {
            let event = Self.event(directory.file(name))
            #expect(event?["event"] as? String == "item-start" && event?["title"] as? String == "a.wav"
                    && event?["location"] as? String == a, "\(name): \(String(describing: event))")
        }
        let end = Self.event(directory.file("end.json"))
        #expect(end?["event"] as? String == "item-end" && (end?["duration"] as? Double).map { abs($0 - 1) < 0.01 } == true,
                "\(String(describing: end))")
    }

    @Test("a hook that hangs is killed at its time limit: one warning line, the capture bit-exact, the player ends on time")
    func hangingHookIsKilled() async throws {
        try TestEnvironment.requirePulseAudio()
        let directory = try TemporaryDirectory(prefix: "hang")
        let a = try directory.write(Self.three.bytes, as: "a.wav")
        let environment = try Self.configured([
            "hook_time_limit = 1",
            "hook = item-start sleep 59.517",
            "hook = pause no-such-program-here",
        ], in: directory)
        let capture = try PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let started = ContinuousClock.now
        let result = try await Playback.run(["play", a, "--device", capture.sinkName], environment: environment)
        let took = ContinuousClock.now - started
        let captured = await capture.finishInt16(quietFor: .milliseconds(200))
        #expect(result.status == 0 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines == ["alicia-player: warning: hook item-start sleep: stopped at its time limit of 1 s"], "\(result)")
        expectBitExact(captured: captured, expected: Self.three.samples16, channels: 2)
        #expect(took < .seconds(10), "the player took \(took)")
        // Nothing of the hook is left running.
        let left = try await ChildProcess.run("pgrep", ["-f", "^sleep 59.517$"])
        #expect(left.stdoutText.isEmpty, "still running: \(left.stdoutText)")
    }
}
