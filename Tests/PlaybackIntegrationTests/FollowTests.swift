import AliciaTestSupport
import Foundation
import Testing

/// The lines a running `ctl follow` (or a status bar's command) has printed, each with when the
/// test first saw it.
final class FeedLines: @unchecked Sendable {
    // @unchecked: used from one test task at a time.
    let child: ChildProcess
    private(set) var lines: [(at: ContinuousClock.Instant, text: String)] = []
    private var consumed = 0

    init(_ child: ChildProcess) {
        self.child = child
    }

    /// Takes in what the child has printed since the last look.
    func update() {
        let bytes = Array(child.stdoutTextSoFar.utf8)
        var start = consumed
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            lines.append((ContinuousClock.now, String(decoding: bytes[start..<newline], as: UTF8.self)))
            start = newline + 1
        }
        consumed = start
    }

    /// Waits (a hang guard: `timeout`, in 20 ms steps) for a line from `index` on that `matches`;
    /// its index.
    func wait(from index: Int = 0, timeout: Duration = .seconds(20), _ what: String = "a line",
              for matches: (String) -> Bool) async throws -> Int {
        let deadline = ContinuousClock.now + timeout * TestEnvironment.hangGuardScale
        while ContinuousClock.now < deadline {
            update()
            if let found = lines.indices.dropFirst(index).first(where: { matches(lines[$0].text) }) { return found }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HarnessError("no \(what) within \(timeout); printed: \(lines.map(\.text)); stderr so far of `\(child.commandLine)`")
    }

    /// Ends the child and what it started (its process group), and collects it.
    func stop() async -> ChildProcess.Result {
        kill(-child.pid, SIGTERM)
        child.send(SIGTERM)
        return await child.wait(timeout: .seconds(10))
    }
}

/// `ctl follow`, `ctl idle` and the status-bar examples of the README and man page, against real
/// players playing into a capture sink.
@Suite("ctl follow and idle")
struct FollowTests {
    static let long = WAVFixture(seconds: 30, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xF1)

    static func json(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    @Test("follow --json: attaches when a player starts, reports the pause, time-pos at most once a second, a final line, attaches again after a restart")
    func followAcrossRestarts() async throws {
        try TestEnvironment.requirePulseAudio()
        let directory = try TemporaryDirectory(prefix: "follow")
        let a = try directory.write(Self.long.bytes, as: "a.wav")
        let b = try directory.write(Self.long.bytes, as: "b.wav")
        let socket = directory.file("socket")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        try await Playback.gated {
            let feed = FeedLines(try PlayerProcess.start(["ctl", "--ipc", socket, "follow", "--json", "pause", "time-pos", "media-title"]))
            // Nobody listens yet: it waits.
            try await Task.sleep(for: .milliseconds(300))
            feed.update()
            #expect(feed.lines.isEmpty && feed.child.isRunning, "\(feed.lines.map(\.text))")

            let first = try PlayerProcess.start(["play", a, "--ipc", socket, "--device", capture.sinkName])
            let attached = try await feed.wait(timeout: .seconds(20), "a line for a.wav") { Self.json($0)?["media-title"] as? String == "a.wav" }
            #expect(Self.json(feed.lines[attached].text)?["pause"] as? Bool == false)
            // Playing a few seconds: lines that only move the position come at most once a second.
            let later = try await feed.wait(from: attached, "time-pos past 4 s") { (Self.json($0)?["time-pos"] as? Double ?? 0) >= 4 }
            let moving = Array(feed.lines[(attached + 1)...later])
            // Measured by the positions the lines carry (playback runs in real time), not by when
            // the test read them: a loaded machine may read two lines in one go.
            let positions = moving.compactMap { Self.json($0.text)?["time-pos"] as? Double }
            for (before, after) in zip(positions, positions.dropFirst()) {
                #expect(after - before >= 0.8, "two position lines \(after - before) s of audio apart: \(moving.map(\.text))")
            }
            #expect(moving.count <= 6, "\(moving.map(\.text))")

            #expect(try await PlayerProcess.run(["ctl", "--ipc", socket, "pause"]).status == 0)
            // The pause reaches the feed (within the wait's hang guard). How soon is a figure of the
            // player's, not the test's: a loaded suite has read the line 5 s after it was written.
            let paused = try await feed.wait(from: later, "the pause") { Self.json($0)?["pause"] as? Bool == true }

            #expect(try await PlayerProcess.run(["ctl", "--ipc", socket, "quit"]).status == 0)
            let final = try await feed.wait(from: paused, "the final line") { $0 == #"{"event":"shutdown"}"# }
            #expect(try await PlayerProcess.result(of: first, timeout: .seconds(20)).status == 0)
            #expect(feed.child.isRunning)

            // The next player: the same feed attaches again.
            let second = try PlayerProcess.start(["play", b, "--ipc", socket, "--device", capture.sinkName])
            _ = try await feed.wait(from: final, "a line for b.wav") { Self.json($0)?["media-title"] as? String == "b.wav" }
            #expect(try await PlayerProcess.run(["ctl", "--ipc", socket, "quit"]).status == 0)
            _ = try await PlayerProcess.result(of: second, timeout: .seconds(20))
            _ = try await feed.wait(from: final + 1, "the second final line") { $0 == #"{"event":"shutdown"}"# }
            _ = await feed.stop()
        }
        _ = await capture.finish(quietFor: .milliseconds(200))

        // --once with nobody listening: exit 3 at once.
        let once = try await PlayerProcess.run(["ctl", "--ipc", socket, "follow", "--once"], timeout: .seconds(10))
        #expect(once.status == 3 && once.stderr.contains("no player is listening"), "\(once)")
        let bad = try await PlayerProcess.run(["ctl", "follow", "--rate", "0.1"])
        #expect(bad.status == 2 && bad.stderr.contains("--rate"), "\(bad)")
    }

    @Test("idle blocks until the next change and exits 0; follow --format and --once end with the player")
    func idleAndFormat() async throws {
        try TestEnvironment.requirePulseAudio()
        let directory = try TemporaryDirectory(prefix: "idle")
        let a = try directory.write(Self.long.bytes, as: "a.wav")
        try await SocketPlayer.with([a], in: directory) { player in
            let socket = player.socket
            let format = FeedLines(try PlayerProcess.start(["ctl", "--ipc", socket, "follow", "--once", "--format", "[{state}] {title} {position}/{duration}"]))
            _ = try await format.wait("a playing line") { $0.hasPrefix("[playing] a.wav 0:") && $0.hasSuffix("/0:30") }
            let idle = try PlayerProcess.start(["ctl", "--ipc", socket, "idle"])
            // Idle stays blocked while only the position moves.
            try await Task.sleep(for: .milliseconds(1500))
            #expect(idle.isRunning)
            #expect(try await PlayerProcess.run(["ctl", "--ipc", socket, "volume", "40"]).status == 0)
            let idled = try await PlayerProcess.result(of: idle, timeout: .seconds(10))
            #expect(idled.status == 0 && idled.stdout == "volume 40\n", "\(idled)")
            #expect(try await PlayerProcess.run(["ctl", "--ipc", socket, "pause"]).status == 0)
            _ = try await format.wait("a paused line") { $0.hasPrefix("[paused] a.wav ") }
            #expect(try await PlayerProcess.run(["ctl", "--ipc", socket, "quit"]).status == 0)
            let ended = try await PlayerProcess.result(of: format.child, timeout: .seconds(10))
            #expect(ended.status == 0 && ended.stdout.hasSuffix("\n\n"), "the final line of a format is empty: \(ended)")
            _ = try await player.result(timeout: .seconds(20))
        }
    }

    /// The status-bar modules of the README, each one's command as the bar runs it (`sh -c`).
    static func barCommands() throws -> (waybar: String, polybar: String, i3blocks: String) {
        let readme = try DocumentationTests.text("README.md")
        let lines = readme.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let waybarLine = lines.first(where: { $0.hasPrefix("\"custom/alicia\":") }),
              let module = Self.json(String(waybarLine.dropFirst("\"custom/alicia\":".count))),
              let waybar = module["exec"] as? String, module["return-type"] as? String == "json",
              let polybar = lines.first(where: { $0.hasPrefix("exec = alicia-player") }).map({ String($0.dropFirst("exec = ".count)) }),
              let i3blocks = lines.first(where: { $0.hasPrefix("command=alicia-player") }).map({ String($0.dropFirst("command=".count)) })
        else { throw HarnessError("the README lacks the waybar, polybar or i3blocks module") }
        let page = try DocumentationTests.text("doc/alicia-player.1.scd")
        for command in [waybar, polybar, i3blocks] {
            #expect(page.contains(command), "the man page lacks \(command)")
        }
        return (waybar, polybar, i3blocks)
    }

    @Test("the README's waybar, polybar and i3blocks modules, run as the bars run them against a playing player")
    func statusBarExamples() async throws {
        try TestEnvironment.requirePulseAudio()
        let bars = try Self.barCommands()
        let directory = try TemporaryDirectory(prefix: "bars")
        let a = try directory.write(Self.long.bytes, as: "tide.wav")
        var environment: [String: String] = [:]
        try PlayerProcess.isolate(&environment)
        let binary = URL(fileURLWithPath: try PlayerProcess.executablePath()).deletingLastPathComponent().path
        var barEnvironment = environment
        barEnvironment["PATH"] = binary + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        try await Playback.gated {
            let player = try PlayerProcess.start(["play", a, "--device", capture.sinkName], environment: environment)
            let waybar = FeedLines(try ChildProcess("/bin/sh", ["-c", bars.waybar], environment: barEnvironment))
            let polybar = FeedLines(try ChildProcess("/bin/sh", ["-c", bars.polybar], environment: barEnvironment))
            let i3blocks = FeedLines(try ChildProcess("/bin/sh", ["-c", bars.i3blocks], environment: barEnvironment))
            let shown = try await waybar.wait("waybar's playing line") { line in
                guard let object = Self.json(line) else { return false }
                return (object["text"] as? String)?.hasPrefix("tide.wav 0:") == true && object["class"] as? String == "playing"
                    && (object["tooltip"] as? String)?.contains("0:30") == true
            }
            _ = try await polybar.wait("polybar's line") { $0.hasPrefix("playing: tide.wav 0:") && $0.hasSuffix("/0:30") }
            _ = try await i3blocks.wait("i3blocks' line") { $0.hasPrefix("tide.wav 0:") }
            #expect(try await PlayerProcess.run(["ctl", "pause"], environment: environment).status == 0)
            let paused = try await waybar.wait(from: shown, "waybar's paused line") { Self.json($0)?["class"] as? String == "paused" }
            #expect(try await PlayerProcess.run(["ctl", "quit"], environment: environment).status == 0)
            _ = try await waybar.wait(from: paused, "waybar's empty line") { (Self.json($0)?["text"] as? String) == "" }
            _ = try await polybar.wait(from: 1, "polybar's empty line") { $0.isEmpty }
            _ = try await i3blocks.wait(from: 1, "i3blocks' empty line") { $0.isEmpty }
            _ = try await PlayerProcess.result(of: player, timeout: .seconds(20))
            // They wait for the next player rather than end.
            #expect(waybar.child.isRunning && polybar.child.isRunning && i3blocks.child.isRunning)
            for bar in [waybar, polybar, i3blocks] { _ = await bar.stop() }
        }
        _ = await capture.finish(quietFor: .milliseconds(200))
    }
}
