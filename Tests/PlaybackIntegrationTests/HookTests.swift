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
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
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
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["play", a, "--device", capture.sinkName], environment: environment)
        let captured = await capture.finishInt16(quietFor: .milliseconds(200))
        #expect(result.status == 0 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines == ["alicia-player: warning: hook item-start sleep: stopped at its time limit of 1 s"], "\(result)")
        expectBitExact(captured: captured, expected: Self.three.samples16, channels: 2)
        // 3 s of audio; the hook (a 59.5 s sleep) was stopped 1 s in, so it does not hold the end up
        // either: the player ended within Playback.run's hang guard (30 s), half the sleep. How
        // soon is not asserted (a loaded suite took 10.5 s).
        // Nothing of the hook is left running.
        let left = try await ChildProcess.run("pgrep", ["-f", "^sleep 59.517$"])
        #expect(left.stdoutText.isEmpty, "still running: \(left.stdoutText)")
    }

    @Test("pause, resume and chapter hooks: each change once, with the chapter's number and title")
    func pauseResumeAndChapters() async throws {
        try TestEnvironment.requirePulseAudio()
        let directory = try TemporaryDirectory(prefix: "hook-events")
        let wav = PodcastFixture.withCuePoints(FollowTests.long.bytes, cues: [(0, "Opening"), (48_000, "The interview")])
        let a = try directory.write(wav, as: "a.wav")
        let socket = directory.file("socket")
        var environment = try Self.configured([
            "hook = pause tee -a \(directory.file("pause.log"))",
            "hook = resume tee -a \(directory.file("resume.log"))",
            "hook = chapter tee -a \(directory.file("chapter.log"))",
        ], in: directory)
        try PlayerProcess.isolate(&environment)
        func lines(_ name: String) -> [[String: Any]] {
            let text = (try? String(contentsOfFile: directory.file(name), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        }
        func waitFor(_ name: String, count: Int) async throws {
            for _ in 0..<500 where lines(name).count < count { try await Task.sleep(for: .milliseconds(20)) }
        }
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        try await Playback.gated {
            let player = try PlayerProcess.start(["play", a, "--ipc", socket, "--device", capture.sinkName], environment: environment)
            try await ControlSocketTests.waitForSocket(socket, player: player)
            try await waitFor("chapter.log", count: 2)
            let paused = try await ControlSocketTests.ctl(socket, ["pause"])
            #expect(paused.status == 0, "\(paused)")
            try await waitFor("pause.log", count: 1)
            let resumed = try await ControlSocketTests.ctl(socket, ["resume"])
            #expect(resumed.status == 0, "\(resumed)")
            try await waitFor("resume.log", count: 1)
            let quit = try await ControlSocketTests.ctl(socket, ["quit"])
            #expect(quit.status == 0, "\(quit)")
            let ended = try await PlayerProcess.result(of: player, timeout: .seconds(20))
            #expect(ended.status == 0 && ended.stderr.isEmpty, "\(ended)")
        }
        _ = await capture.finish(quietFor: .milliseconds(200))
        let chapters = lines("chapter.log")
        #expect(chapters.map { $0["chapter"] as? Double } == [1, 2] && chapters.map { $0["chapter_title"] as? String } == ["Opening", "The interview"],
                "\(chapters)")
        #expect(lines("pause.log").map { $0["event"] as? String } == ["pause"] && lines("resume.log").map { $0["event"] as? String } == ["resume"])
        #expect(lines("pause.log").first?["title"] as? String == "a.wav")
    }
}
