import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// The small words a new user reads: chat without Markdown marks, react's confirming line, help's hint.
@Suite("Wording")
struct WordingTests {
    @Test("chat piped prints Alicia's reply without Markdown marks; --react prints one confirming line")
    func chatPlain() async throws {
        let backend = try DemoBackend(token: BackendCommandTests.token)
        defer { backend.stop() }
        let environment = try BackendCommandTests.isolatedEnvironment(backend)
        let reply = try await Playback.run(["chat", "good night", "--react", "❤️"], environment: environment)
        #expect(reply.status == 0, "\(reply)")
        #expect(reply.stdout.contains("The Nights episodes"), "\(reply)")
        #expect(!reply.stdout.contains("**"), "\(reply)")
        #expect(reply.stdout.split(separator: "\n").last?.hasPrefix("reacted ❤️ to message ") == true, "\(reply)")
    }

    @Test("chat on a terminal shows the reply's Markdown as attributes (bold), never its marks")
    func chatStyledOnATerminal() async throws {
        try StudioTests.requireTmux()
        let backend = try DemoBackend(token: BackendCommandTests.token)
        defer { backend.stop() }
        var environment = try BackendCommandTests.isolatedEnvironment(backend)
        environment["TERM"] = "xterm-256color"
        let player = try PlayerProcess.executablePath()
        let tmux = try StudioTests.Tmux(command: "'\(player)' chat 'good night'", columns: 200, environment: environment)
        #expect(try await StudioTests.status(tmux) == "0", "\(tmux.screen())")
        // With its attributes: tmux writes bold as SGR 1 before the word.
        let styled = (try? tmux.run(["capture-pane", "-p", "-e", "-t", "studio"])) ?? ""
        #expect(styled.contains("The \u{1B}[1mNights"), "\(styled.debugDescription)")
        #expect(!styled.contains("**"), "\(styled)")
    }

    @Test("help bogus points to the program's usage; --skip-silence's help is one line")
    func helpWords() async throws {
        let bogus = try await Playback.run(["help", "bogus"])
        #expect(bogus.status == 2, "\(bogus)")
        #expect(bogus.stderrLines.last == "Try 'alicia-player --help'.", "\(bogus)")
        let play = try await Playback.run(["help", "play"])
        let line = play.stdout.split(separator: "\n").first { $0.contains("--skip-silence") }
        #expect(line?.hasSuffix("strong or off") == true, "\(play)")
    }
}
