import AliciaTestSupport
import Foundation
import Testing

/// `--accessible`: the Studio as linear text, driven in a real pseudo-terminal (tmux), its raw
/// output recorded byte for byte (`pipe-pane`), against a test PulseAudio sink.
@Suite("The accessible Studio in a terminal", .serialized)
struct AccessibleTests {
    /// A 16 s episode with three chapters (RIFF cue points) and a WebVTT transcript beside it, and
    /// a one-second voice note.
    static func episode(in directory: TemporaryDirectory) throws -> (episode: String, note: String) {
        let rate: UInt32 = 48_000
        let wav = PodcastFixture.withCuePoints(WAVFixture(seconds: 16).bytes, cues: [
            (0, "Cold open"), (5 * rate, "The interview"), (10 * rate, "Listener mail"),
        ])
        let episode = try directory.write(wav, as: "episode.wav")
        try directory.write(Array("""
            WEBVTT

            00:00.500 --> 00:01.900
            Hello and welcome.

            00:02.000 --> 00:04.000
            <v Alicia>First question.

            00:06.000 --> 00:07.000
            A second point.

            00:11.000 --> 00:12.500
            Goodbye for now.
            """.utf8), as: "episode.vtt")
        let note = try directory.write(WAVFixture(seconds: 1, seed: 9).bytes, as: "note.wav")
        return (episode, note)
    }

    /// The lines the terminal received, without the shell's.
    static func lines(_ raw: String) -> [String] {
        raw.replacingOccurrences(of: "\r", with: "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A player in tmux whose output is recorded byte for byte (`pipe-pane`) from its first byte.
    struct Recorded {
        let tmux: StudioTests.Tmux
        let capture: PipeSinkCapture
        let directory: TemporaryDirectory
        let raw: String

        /// Everything the terminal received so far.
        func output() -> String { (try? String(contentsOfFile: raw, encoding: .utf8)) ?? "" }
    }

    /// Inside the playback gate: runs the player with the words `command` makes (from the test's
    /// directory and the capture sink's name) in tmux, `extra` added to the Studio tests' environment
    /// and a fresh state directory; it waits until the recording has begun. `body` drives it to its
    /// exit, which must be status 0 with the terminal's modes restored. Everything the terminal
    /// received.
    @discardableResult
    static func recorded(_ extra: [String: String] = [:], running command: (TemporaryDirectory, String) throws -> String,
                         sourceLocation: SourceLocation = #_sourceLocation,
                         _ body: (Recorded) async throws -> Void) async throws -> String {
        try StudioTests.requireTmux()
        return try await Playback.gated {
            let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
            let directory = try TemporaryDirectory(prefix: "accessible")
            defer { directory.remove() }
            let go = directory.file("go")
            let player = try PlayerProcess.executablePath()
            let environment = try StudioTests.environment(extra.merging(["XDG_STATE_HOME": try PlayerProcess.freshStateDirectory()]) { $1 })
            let tmux = try StudioTests.Tmux(command: "while [ ! -e '\(go)' ]; do sleep 0.05; done; '\(player)' "
                + (try command(directory, capture.sinkName)), environment: environment)
            let recorded = Recorded(tmux: tmux, capture: capture, directory: directory, raw: directory.file("raw"))
            try tmux.run(["pipe-pane", "-t", "studio", "-o", "cat >> '\(recorded.raw)'"])
            _ = FileManager.default.createFile(atPath: go, contents: nil)
            try await body(recorded)
            #expect(try await StudioTests.status(tmux) == "0", sourceLocation: sourceLocation)
            #expect(try await StudioTests.terminalRestored(tmux), "terminal modes not restored", sourceLocation: sourceLocation)
            return recorded.output()
        }
    }

    @Test("play --accessible: one line per event, in words, at their times; keys work; no cursor addressing; ctl transcript")
    func linearPlayback() async throws {
        let text = try await Self.recorded(running: { directory, device in
            let (episode, note) = try Self.episode(in: directory)
            return "play --accessible --device \(device) --ipc '\(directory.file("socket"))' --voice-at '7=\(note)' '\(episode)'"
        }) { session in
            let (tmux, socket) = (session.tmux, session.directory.file("socket"))
            func output() -> String { session.output() }
            try await tmux.waitFor("the first cue") { _ in output().contains("Hello and welcome.") }
            // Keys: pause first (the session says so too), so that what the test asks next runs on a
            // paused episode however slow the machine (beside two busy loads a `ctl` took so long
            // that the 16 s episode had ended before the pause was pressed); then play on, faster,
            // the status on demand, slower.
            try tmux.keys("Space")
            try await tmux.waitFor("the pause line") { _ in output().contains("Paused at ") }
            #expect(await session.capture.waitForAudio(timeout: .seconds(30)), "no audio reached the sink")
            #expect(try await ControlSocketTests.ctl(socket, ["get", "pause"]).stdout == "yes\n")
            let transcript = try await ControlSocketTests.ctl(socket, ["transcript"])
            #expect(transcript.status == 0, "\(transcript)")
            #expect(transcript.stdout == """
                0:00  Hello and welcome.
                0:02  Alicia: First question.
                0:06  A second point.
                0:11  Goodbye for now.

                """)
            try tmux.keys("Space")
            try await tmux.waitFor("playing again") { _ in Self.lines(output()).filter { $0.hasPrefix("Playing episode.wav, ") }.count >= 2 }
            try tmux.keys("]")
            try await tmux.waitFor("the speed line") { _ in output().contains("Speed 1.25×") }
            try tmux.keys("Tab")
            try await tmux.waitFor("the status on demand") { _ in Self.lines(output()).contains { $0.hasPrefix("Playing episode.wav, ") && $0.hasSuffix(", at 1.25×") } }
            try tmux.keys("[")
            try await tmux.waitFor("the speed line") { _ in output().contains("Speed 1×") }

            try await tmux.waitFor("the end", timeout: .seconds(60)) { _ in output().contains("End of the queue") }
        }
        #expect(!text.contains("\u{1B}"), "an escape sequence was written: \(text.debugDescription)")
        let lines = Self.lines(text).filter { !$0.isEmpty }
        // Tab asks for the status: said on demand even when nothing moved since the line
        // before (a loaded machine may still be at the second the speed change was said at),
        // so one repeat of a "Playing" line is the answer to it, not a line said twice.
        var demanded = 0
        for (first, second) in zip(lines, lines.dropFirst()) where first == second {
            if second.hasPrefix("Playing episode.wav, ") && demanded == 0 { demanded += 1; continue }
            Issue.record("a line was said twice: \(first)\n\(text.debugDescription)")
        }
        // Each event once, in the order of their times.
        let events = ["Chapter 1: Cold open", "Hello and welcome.", "Alicia: First question.", "Chapter 2: The interview",
                      "A second point.", "Voice note: note.wav, 0:01", "Chapter 3: Listener mail", "Goodbye for now.",
                      "Finished episode.wav", "End of the queue"]
        var last = -1
        for event in events {
            let found = lines.indices.filter { lines[$0] == event }
            #expect(found.count == 1, "'\(event)' said \(found.count) times:\n\(lines.joined(separator: "\n"))")
            if let index = found.first {
                #expect(index > last, "'\(event)' out of order:\n\(lines.joined(separator: "\n"))")
                last = index
            }
        }
        #expect(lines.filter { $0.hasPrefix("Paused at ") }.count == 1, "\(lines)")
    }

    @Test("prompts are lines: a search, its numbered list, and a choice by number; help in words; q quits")
    func promptsAndLists() async throws {
        let text = try await Self.recorded(["ACCESSIBLE": "1"], running: { directory, device in
            let (episode, note) = try Self.episode(in: directory)
            return "play --device \(device) --no-ipc '\(episode)' '\(note)'"
        }) { session in
            let tmux = session.tmux
            func output() -> String { session.output() }
            try await tmux.waitFor("playing") { _ in output().contains("Playing episode.wav, ") }
            try tmux.keys("?")
            try await tmux.waitFor("the keys in words") { _ in output().contains("End of the keys") }
            #expect(output().contains("Left or right: back 15 s or forward 30 s"), "\(output())")
            try tmux.keys("/")
            try await tmux.waitFor("the search prompt") { _ in output().contains("Search titles:") }
            try tmux.keys("-l", "note")
            try tmux.keys("Enter")
            try await tmux.waitFor("the numbered list") { _ in output().contains("Play which? A number or a title") }
            #expect(output().contains("1 match for note\r\n1. note.wav"), "\(output().debugDescription)")
            try tmux.keys("-l", "1")
            try tmux.keys("Enter")
            try await tmux.waitFor("the note playing") { _ in output().contains("Playing note.wav, ") }
            try tmux.keys("q")
        }
        #expect(!text.contains("\u{1B}["), "a control sequence was written: \(text.debugDescription)")
    }

    @Test("off a terminal: play --accessible says its lines to a pipe, and plays on after stdin ends")
    func offATerminal() async throws {
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let directory = try TemporaryDirectory(prefix: "accessible")
        defer { directory.remove() }
        let episode = try directory.write(WAVFixture(seconds: 2).bytes, as: "short.wav")
        try directory.write(Array("1\n00:00:00,300 --> 00:00:01,000\nOne.\n\n2\n00:00:01,200 --> 00:00:01,800\nTwo.\n".utf8), as: "short.srt")
        let result = try await Playback.run(["play", "--accessible", "--no-ipc", "--device", capture.sinkName, episode])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasSuffix("Playing short.wav, 0:00 of 0:02\nOne.\nTwo.\nFinished short.wav\nEnd of the queue\n"),
                "\(result.stdout.debugDescription)")
        #expect(!result.stdout.contains("\u{1B}") && !result.stderr.contains("\u{1B}"))
    }

    @Test("demo --accessible: the library as numbered lines, one chosen by number plays, show notes as lines, q quits")
    func theLibraryOfTheDemo() async throws {
        try StudioTests.requireTmux()
        try await Playback.gated {
            let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
            let directory = try TemporaryDirectory(prefix: "accessible")
            defer { directory.remove() }
            let raw = directory.file("raw")
            let go = directory.file("go")
            let player = try PlayerProcess.executablePath()
            let environment = try StudioTests.environment(["XDG_STATE_HOME": try PlayerProcess.freshStateDirectory()])
            let tmux = try StudioTests.Tmux(command: "while [ ! -e '\(go)' ]; do sleep 0.05; done; '\(player)' demo --accessible "
                + "--no-ipc --device \(capture.sinkName)", environment: environment)
            try tmux.run(["pipe-pane", "-t", "studio", "-o", "cat >> '\(raw)'"])
            _ = FileManager.default.createFile(atPath: go, contents: nil)
            func output() -> String { (try? String(contentsOfFile: raw, encoding: .utf8)) ?? "" }

            try await tmux.waitFor("an episode playing", timeout: .seconds(30)) { _ in output().contains("Playing ") }
            try tmux.keys("l")
            try await tmux.waitFor("the numbered list") { _ in output().contains("Play which? A number or a title") }
            let listed = Self.lines(output())
            let second = listed.first { $0.hasPrefix("2. ") } ?? ""
            #expect(!second.isEmpty, "no second entry: \(listed)")
            let title = String(second.dropFirst(3).prefix { $0 != "," })
            try tmux.keys("-l", "2")
            try tmux.keys("Enter")
            try await tmux.waitFor("the second episode playing") { _ in Self.lines(output()).contains { $0.hasPrefix("Playing \(title), ") } }
            try tmux.keys("i")
            try await tmux.waitFor("the show notes") { _ in output().contains("End of the show notes") || output().contains("Show notes of") && output().contains("Problem") }
            try tmux.keys("q")
            #expect(try await StudioTests.status(tmux) == "0")
            #expect(try await StudioTests.terminalRestored(tmux), "terminal modes not restored")
            #expect(!output().contains("\u{1B}["), "a control sequence was written: \(output().debugDescription)")
        }
    }
}
