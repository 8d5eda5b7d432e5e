import AliciaTestSupport
import Foundation
import Testing

/// One grammar for every front end: `ctl chapter +1`, a script's `chapter +1`, a Studio key bound in
/// the configuration file to `add chapter 1` and the socket's own `add chapter 1` (a text line, sent
/// by socat) each step one chapter on, from the same place; the bound key shows in the help.
@Suite("One grammar")
struct GrammarTests {
    /// `chapter` as the player reads it, once it reads `wanted` (a bounded wait for the command to
    /// be carried out); the last value read.
    static func chapter(_ socket: String, becomes wanted: String) async throws -> String {
        var last = ""
        for _ in 0..<200 {
            last = try await ControlSocketTests.ctl(socket, ["get", "chapter"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            if last == wanted { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        return last
    }

    /// Back into the first chapter (paused, so nothing moves on), the chapter read as 0.
    static func rewind(_ socket: String) async throws {
        #expect(try await ControlSocketTests.ctl(socket, ["seek", "0.2", "absolute"]).status == 0)
        #expect(try await chapter(socket, becomes: "0") == "0")
    }

    /// A text command line on the socket, as mpv's IPC takes them (socat, not our client).
    static func socketLine(_ socket: String, _ line: String) throws -> String {
        let socat = Process()
        socat.executableURL = URL(fileURLWithPath: try ChildProcess.resolve("socat"))
        socat.arguments = ["-t", "2", "-", "UNIX-CONNECT:" + socket]
        let input = Pipe()
        let output = Pipe()
        socat.standardInput = input
        socat.standardOutput = output
        try socat.run()
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        try input.fileHandleForWriting.close()
        let reply = output.fileHandleForReading.readDataToEndOfFile()
        socat.waitUntilExit()
        return String(decoding: reply, as: UTF8.self)
    }

    @Test("chapter +1 four ways (ctl, a script, a key bound to add chapter 1, the socket's text line) lands on the same chapter; the bound key is in the help")
    func oneChapterOnFourWays() async throws {
        try await Playback.gated {
            try StudioTests.requireTmux()
            let directory = try TemporaryDirectory(prefix: "grammar")
            let wav = try directory.write(ChapterTests.cueWAV(), as: "chapters.wav")
            let config = directory.file("config")
            try FileManager.default.createDirectory(atPath: config + "/alicia", withIntermediateDirectories: true)
            try Data("bind = x add chapter 1\n".utf8).write(to: URL(fileURLWithPath: config + "/alicia/config"))

            // A script: `chapter +1` right after `play` waits for the item to open, then steps.
            let script = try directory.write(Array("play \(wav)\npause\nchapter +1\nget chapter\nquit\n".utf8), as: "step.txt")
            let scriptSink = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
            let scripted = try await Playback.run(["script", script, "--device", scriptSink.sinkName],
                                                  environment: ["XDG_CONFIG_HOME": config])
            #expect(scripted.status == 0 && scripted.stdout == "1\n", "\(scripted)")
            _ = await scriptSink.finish(quietFor: .milliseconds(200))

            let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
            let socket = directory.file("socket")
            let player = try PlayerProcess.executablePath()
            let tmux = try StudioTests.Tmux(command: "'\(player)' play '\(wav)' --ipc '\(socket)' --device \(capture.sinkName)",
                                            environment: try StudioTests.environment(["XDG_CONFIG_HOME": config]))
            _ = try await tmux.waitFor("the first chapter") { $0.contains("ch 1/3 Intro") }
            try tmux.keys("Space")
            _ = try await tmux.waitFor("paused") { $0.contains("paused") }

            try await Self.rewind(socket)
            try tmux.keys("x")
            #expect(try await Self.chapter(socket, becomes: "1") == "1", "the key bound to add chapter 1")

            try await Self.rewind(socket)
            #expect(try await ControlSocketTests.ctl(socket, ["chapter", "+1"]).status == 0)
            #expect(try await Self.chapter(socket, becomes: "1") == "1", "ctl chapter +1")

            try await Self.rewind(socket)
            // A text line that succeeds gets no reply (as mpv's); one that fails gets its error.
            let reply = try Self.socketLine(socket, "add chapter 1")
            #expect(!reply.contains("\"error\""), "\(reply)")
            #expect(try await Self.chapter(socket, becomes: "1") == "1", "the socket's add chapter 1")

            // The socket takes the aliases too: the same line a script writes.
            try await Self.rewind(socket)
            #expect(!(try Self.socketLine(socket, "chapter +1")).contains("\"error\""))
            #expect(try await Self.chapter(socket, becomes: "1") == "1", "the socket's chapter +1")

            try tmux.keys("?")
            let help = try await tmux.waitFor("the help with the bound key") { $0.contains("add chapter 1") }
            #expect(help.split(separator: "\n").contains { $0.contains(" x ") && $0.contains("add chapter 1") }, "\(help)")
            try tmux.keys("Escape")
            _ = try await tmux.waitFor("the help closed") { !$0.contains("add chapter 1") }
            try tmux.keys("q")
            #expect(try await StudioTests.status(tmux) == "0", "\(tmux.screen())")
            _ = await capture.finish(quietFor: .milliseconds(200))
        }
    }
}
