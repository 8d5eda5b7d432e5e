import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// Continue listening: the Studio keeps its queue (entries, the one heard, where) as it changes
/// and the next Studio opens on it, paused, in a real terminal (tmux).
@Suite("Continue listening", .serialized)
struct ContinueListeningTests {
    /// A Studio over the demo backend into a capture sink, with a state directory of its own.
    struct Rig {
        let backend: DemoBackend
        let capture: PipeSinkCapture
        let state: String
        let environment: [String: String]
        let command: String

        init() async throws {
            try StudioTests.requireTmux()
            backend = try DemoBackend(token: "continue-token")
            capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
            let player = try PlayerProcess.executablePath()
            state = try PlayerProcess.freshStateDirectory()
            environment = try StudioTests.environment([
                "XDG_STATE_HOME": state, "ALICIA_BASE_URL": backend.baseURL, "ALICIA_TOKEN": backend.token,
            ])
            command = "'\(player)' studio --device \(capture.sinkName)"
        }
    }

    @Test("the Studio restarted opens on the last episode at its position, paused; space resumes; Q shows the restored queue")
    func restartedStudio() async throws {
        let rig = try await Rig()
        defer { rig.backend.stop() }
        let (capture, state, environment, command) = (rig.capture, rig.state, rig.environment, rig.command)

        var heardAt = 0
        do {
            let tmux = try StudioTests.Tmux(command: command, environment: environment)
            var screen = try await tmux.waitFor("the Studio") { $0.contains("Alicia Studio") && $0.contains("Nothing playing") }
            // The second episode, then the first one added after it: a queue of two.
            try tmux.keys("j")
            try tmux.keys("Enter")
            screen = try await tmux.waitFor("The Long Way Round playing") { $0.contains("▶ The Long Way Round") && $0.contains("playing") }
            screen = try await tmux.waitFor("four seconds in", timeout: .seconds(30)) { (StudioTests.elapsed($0) ?? 0) >= 4 }
            try tmux.keys("Space")
            screen = try await tmux.waitFor("paused") { $0.contains("paused") }
            heardAt = StudioTests.elapsed(screen) ?? 0
            try tmux.keys("q")
            #expect(try await StudioTests.status(tmux) == "0")
        }
        let kept = try String(contentsOfFile: state + "/alicia-player/continue.m3u8", encoding: .utf8)
        #expect(kept.contains("#ALICIA-POSITION:") && kept.contains("S1E02"), "\(kept)")

        let tmux = try StudioTests.Tmux(command: command, environment: environment)
        // The header may be drawn a frame before the progress line under it: wait for both.
        var screen = try await tmux.waitFor("the Studio on the last episode, paused, with its progress") {
            $0.contains("⏸ The Long Way Round") && $0.contains("paused") && StudioTests.elapsed($0) != nil
        }
        let restoredAt = try #require(StudioTests.elapsed(screen), "no progress line:\n\(screen)")
        // Within 2 s: the position shown at the pause is the one heard, and settles once the server has
        // said its latency.
        #expect(abs(restoredAt - heardAt) <= 2, "opened at \(restoredAt) s, left at \(heardAt) s; kept:\n\(kept)\n\(screen)")
        #expect(!screen.contains("Nothing playing"), "\(screen)")
        try tmux.keys("Q")
        screen = try await tmux.waitFor("the restored queue") { $0.contains("Queue ·") }
        #expect(screen.contains("The Long Way Round"), "\(screen)")
        try tmux.keys("Escape")
        // A lone Esc is told from the start of a sequence by the pause after it.
        _ = try await tmux.waitFor("the queue closed") { !$0.contains("Queue ·") }
        try tmux.keys("Space")
        screen = try await tmux.waitFor("playing on from there") { $0.contains("playing") && (StudioTests.elapsed($0) ?? 0) > restoredAt }
        try tmux.keys("q")
        #expect(try await StudioTests.status(tmux) == "0")
        _ = await capture.finish()
    }

    @Test("q while playing, then SIGHUP (the terminal closed): each next Studio opens where the positions store says (within 1 s)")
    func theExactPlaceAfterQuitAndHangup() async throws {
        let rig = try await Rig()
        defer { rig.backend.stop() }
        let (capture, state, environment, command) = (rig.capture, rig.state, rig.environment, rig.command)
        /// What continue listening kept, and what the positions store holds for the episode.
        func places() throws -> (kept: Double, stored: Double) {
            let kept = try String(contentsOfFile: state + "/alicia-player/continue.m3u8", encoding: .utf8)
            let line = try #require(kept.split(separator: "\n").first { $0.hasPrefix("#ALICIA-POSITION:") })
            let json = try String(contentsOfFile: state + "/alicia-player/positions.json", encoding: .utf8)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let entries = try #require(object["positions"] as? [String: [String: Any]])
            let episode = try #require(entries.first { $0.key.contains("S1E02") }?.value)
            let stored = try #require((episode["position_ms"] as? NSNumber)?.doubleValue) / 1000
            return (try #require(Double(line.dropFirst("#ALICIA-POSITION:".count))), stored)
        }

        let first = try StudioTests.Tmux(command: command, environment: environment)
        _ = try await first.waitFor("the Studio") { $0.contains("Alicia Studio") && $0.contains("Nothing playing") }
        try first.keys("j")
        try first.keys("Enter")
        _ = try await first.waitFor("four seconds in, playing", timeout: .seconds(30)) { $0.contains("playing") && (StudioTests.elapsed($0) ?? 0) >= 4 }
        try first.keys("q")
        #expect(try await StudioTests.status(first) == "0")
        let quit = try places()
        #expect(quit.kept >= 4 && abs(quit.kept - quit.stored) <= 1, "q while playing: kept \(quit.kept) s, the store \(quit.stored) s")

        let second = try StudioTests.Tmux(command: command, environment: environment)
        _ = try await second.waitFor("the Studio on the episode, paused") { $0.contains("paused") && StudioTests.elapsed($0) != nil }
        try second.keys("Space")
        _ = try await second.waitFor("three seconds further", timeout: .seconds(30)) {
            $0.contains("playing") && Double(StudioTests.elapsed($0) ?? 0) >= quit.kept + 3
        }
        // The terminal closes: the player (the pane's shell's child) gets SIGHUP.
        let shell = try #require(pid_t(try second.run(["list-panes", "-t", "studio", "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)))
        let children = try ChildProcess.runBlocking("pgrep", ["-P", String(shell)]).stdoutText
        let studio = try #require(children.split(separator: "\n").compactMap { pid_t($0) }.first, "no player under the pane")
        kill(studio, SIGHUP)
        _ = try await StudioTests.status(second)
        let hangup = try places()
        #expect(hangup.kept >= quit.kept + 2.5 && abs(hangup.kept - hangup.stored) <= 1,
                "SIGHUP: kept \(hangup.kept) s, the store \(hangup.stored) s (the first run left \(quit.kept) s)")
        _ = await capture.finish()
    }

    @Test("play without arguments on a terminal takes up the local queue last left, paused; none kept is one clear line")
    func playContinuesLocally() async throws {
        try StudioTests.requireTmux()
        let directory = try TemporaryDirectory(prefix: "continue-local")
        let one = try directory.write(WAVFixture(seconds: 1, seed: 81).bytes, as: "one.wav")
        let long = try directory.write(WAVFixture(seconds: 20, seed: 82).bytes, as: "long.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let player = try PlayerProcess.executablePath()
        let state = try PlayerProcess.freshStateDirectory()
        let environment = try StudioTests.environment(["XDG_STATE_HOME": state])

        do {
            // Nothing kept yet: one line, the usage status, no Studio.
            let tmux = try StudioTests.Tmux(command: "'\(player)' play --device \(capture.sinkName)", environment: environment)
            #expect(try await StudioTests.status(tmux) == "2", "\(tmux.screen())")
            #expect(tmux.joinedScreen().contains("no queue to continue"), "\(tmux.joinedScreen())")
        }
        var heardAt = 0
        do {
            let tmux = try StudioTests.Tmux(command: "'\(player)' play '\(one)' '\(long)' --device \(capture.sinkName)", environment: environment)
            // Past the 1 s item: the long one, two seconds in.
            var screen = try await tmux.waitFor("two seconds into the long item", timeout: .seconds(30)) {
                $0.contains("long") && $0.contains("playing") && (StudioTests.elapsed($0) ?? 0) >= 2
            }
            try tmux.keys("Space")
            screen = try await tmux.waitFor("paused") { $0.contains("paused") }
            heardAt = StudioTests.elapsed(screen) ?? 0
            try tmux.keys("q")
            #expect(try await StudioTests.status(tmux) == "0")
        }
        let tmux = try StudioTests.Tmux(command: "'\(player)' play --device \(capture.sinkName)", environment: environment)
        var screen = try await tmux.waitFor("the Studio on the long item, paused, with its progress") {
            $0.contains("⏸") && $0.contains("long") && $0.contains("paused") && StudioTests.elapsed($0) != nil
        }
        let restoredAt = try #require(StudioTests.elapsed(screen), "no progress line:\n\(screen)")
        #expect(abs(restoredAt - heardAt) <= 2, "opened at \(restoredAt) s, left at \(heardAt) s\n\(screen)")
        // The list is the queue taken up: both items.
        #expect(screen.contains("one") && screen.contains("long"), "\(screen)")
        try tmux.keys("Space")
        screen = try await tmux.waitFor("playing on from there") { $0.contains("playing") && (StudioTests.elapsed($0) ?? 0) > restoredAt }
        try tmux.keys("q")
        #expect(try await StudioTests.status(tmux) == "0")
        _ = await capture.finish()
    }
}
