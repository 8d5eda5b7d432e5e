import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// Alicia's backend as it speaks today ("Alicia 2.0"): text ids, answering her, the morning
/// briefing, absolute media URLs of another host; against the demo backend in its v2 dialect.
@Suite("Alicia 2.0")
struct AliciaTwoTests {
    static func backend(_ foreign: DemoBackend.ForeignMedia? = nil) throws -> DemoBackend {
        try DemoBackend(token: "two-\(UInt32.random(in: 1000...9999))", dialect: .v2, foreignMedia: foreign)
    }

    @Test("her messages with text ids list with their ids (messages, and chat with no message); reply answers one that asks; react by id")
    func messagesReplyAndReact() async throws {
        let backend = try Self.backend()
        defer { backend.stop() }
        let environment = try BackendCommandTests.isolatedEnvironment(backend)
        let listed = try await Playback.run(["messages"], environment: environment)
        #expect(listed.status == 0 && listed.stdout.contains("pm-318  ") && listed.stdout.contains("asks  You stopped"), "\(listed)")
        let chat = try await Playback.run(["chat"], environment: environment)
        #expect(chat.status == 0 && chat.stdout == listed.stdout, "\(chat)")
        let json = try await Playback.run(["messages", "--json"], environment: environment)
        let messages = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
        let asking = try #require(messages.first { $0["is_ask"] as? Bool == true })
        let id = try #require(asking["id"] as? String)
        let answered = try await Playback.run(["reply", id, "Yes,", "please"], environment: environment)
        #expect(answered.status == 0 && !answered.stdout.isEmpty, "\(answered)")
        #expect(backend.replies.contains { $0.proactiveID == id && $0.text == "Yes, please" }, "\(backend.replies)")
        let reacted = try await Playback.run(["react", "pm-318", "❤️"], environment: environment)
        #expect(reacted.status == 0 && reacted.stdout == "reacted ❤️ to her message pm-318\n", "\(reacted)")
        let bad = try await Playback.run(["reply", "pm-318"], environment: environment)
        #expect(bad.status == 2 && bad.stderr.contains("reply needs"), "\(bad)")
        for result in [listed, chat, json, answered, reacted, bad] {
            #expect(!(result.stdout + result.stderr).contains(backend.token), "the token was shown")
        }
    }

    @Test("the Studio shows her messages by their text ids, and r answers the one that asks")
    func studioAnswers() async throws {
        try await Playback.gated {
            try StudioTests.requireTmux()
            let backend = try Self.backend()
            defer { backend.stop() }
            let id = backend.addProactive(text: "Shall I make tomorrow's episode shorter?", isAsk: true)
            let player = try PlayerProcess.executablePath()
            let tmux = try StudioTests.Tmux(command: "'\(player)' studio", environment: try StudioTests.environment([
                "ALICIA_BASE_URL": backend.baseURL, "ALICIA_TOKEN": backend.token,
            ]))
            _ = try await tmux.waitFor("her question") { $0.contains("Alicia asks: Shall I make tomorrow") && $0.contains("(r answers)") }
            try tmux.keys("r")
            _ = try await tmux.waitFor("the answer line") { $0.contains("Answer Alicia:") }
            try tmux.keys("-l", "Yes, a little")
            try tmux.keys("Enter")
            _ = try await tmux.waitFor("her answer on the panel") { $0.contains("You: Yes, a little") }
            // The panel shows the answer as it is sent; the backend has it once the request is through
            // (on a loaded machine, later): waited for, bounded.
            for _ in 0..<300 where !backend.replies.contains(where: { $0.proactiveID == id }) {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(backend.replies.contains { $0.proactiveID == id && $0.text == "Yes, a little" }, "\(backend.replies)")
            try tmux.keys("q")
            #expect(try await StudioTests.status(tmux) == "0", "\(tmux.screen())")
        }
    }

    @Test("play briefing plays today's briefing to its end; still preparing it is one line and exit 1; none today, one line and exit 1")
    func briefing() async throws {
        let backend = try Self.backend()
        defer { backend.stop() }
        let environment = try BackendCommandTests.isolatedEnvironment(backend)
        let capture = try await PipeSinkCapture(format: .s16le, rate: 44_100, channels: 2)
        let played = try await Playback.run(["play", "briefing", "--device", capture.sinkName], environment: environment)
        let heard = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 2)
        #expect(played.status == 0 && !heard.isEmpty, "\(played)")
        backend.briefingState = .preparing
        let preparing = try await Playback.run(["play", "briefing"], environment: environment)
        #expect(preparing.status == 1 && preparing.stderr == "alicia-player: today's briefing is still being prepared: try again in a few minutes\n",
                "\(preparing)")
        backend.briefingState = .unavailable
        let none = try await Playback.run(["play", "briefing"], environment: environment)
        #expect(none.status == 1 && none.stderr.hasPrefix("alicia-player: there is no briefing today"), "\(none)")
        #expect(none.stderr.split(separator: "\n").count == 1)
    }

    @Test("a playlist episode whose absolute URL names a host that does not answer plays from our base URL; neither token is shown")
    func foreignHostFallsBack() async throws {
        // A port nothing listens on: the phone's host "does not answer from here".
        let closed = try LoopbackPort.refusing()
        let backend = try Self.backend(DemoBackend.ForeignMedia(base: "http://127.0.0.1:\(closed.port)", token: "phone-secret-\(closed.port)"))
        defer { backend.stop() }
        let environment = try BackendCommandTests.isolatedEnvironment(backend)
        let capture = try await PipeSinkCapture(format: .s16le, rate: 44_100, channels: 2)
        // Drive home: a synthesis, then the episode Morning Light (3:00), whose last seconds play.
        let directory = try TemporaryDirectory(prefix: "foreign")
        let script = try directory.write(Array("play playlist:1\nnext\nseek 2:56\nwait end\n".utf8), as: "drive.txt")
        let played = try await Playback.run(["script", script, "--device", capture.sinkName],
                                            environment: environment, timeout: .seconds(120))
        let heard = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 2)
        #expect(played.status == 0 && !heard.isEmpty, "\(played)")
        let shown = played.stdout + played.stderr
        #expect(!shown.contains("phone-secret") && !shown.contains(backend.token), "a token was shown: \(shown)")
        #expect(backend.requests.contains { $0.path.hasPrefix("/api/audio/") }, "nothing was asked of our backend")
    }

    @Test("chat: her error ends the reply with her words kept and exit 1; a stream cut short is exit 1; sent again, the same text goes with the same request id")
    func chatThatStops() async throws {
        let backend = try DemoBackend(token: "two-\(UInt32.random(in: 1000...9999))",
                                      faults: .init(chat: .errorEvent(afterTokens: 4, message: "I lost the thread")), dialect: .v2)
        defer { backend.stop() }
        let environment = try BackendCommandTests.isolatedEnvironment(backend)
        var state = environment
        state["XDG_STATE_HOME"] = try TemporaryDirectory(prefix: "chat-state").path
        let first = try await Playback.run(["chat", "tell me about lanterns"], environment: state)
        #expect(first.status == 1 && first.stderr.contains("Alicia: I lost the thread"), "\(first)")
        #expect(first.stdout.split(separator: " ").count >= 3, "her words so far were not kept: \(first)")
        let again = try await Playback.run(["chat", "tell me about lanterns"], environment: state)
        #expect(again.status == 1, "\(again)")
        let ids = backend.requests.filter { $0.path.hasPrefix("/api/chat") }.compactMap(\.requestID)
        #expect(ids.count == 2 && ids[0] == ids[1], "a resend went with another request id: \(ids)")
        let other = try await Playback.run(["chat", "something else"], environment: state)
        let later = backend.requests.filter { $0.path.hasPrefix("/api/chat") }.compactMap(\.requestID)
        #expect(other.status == 1 && later.count == 3 && later[2] != later[0], "\(later)")

        let cut = try DemoBackend(token: "two-\(UInt32.random(in: 1000...9999))", faults: .init(chat: .cutShort(afterTokens: 3)), dialect: .v2)
        defer { cut.stop() }
        let stopped = try await Playback.run(["chat", "hello"], environment: try BackendCommandTests.isolatedEnvironment(cut))
        #expect(stopped.status == 1 && stopped.stderr.split(separator: "\n").count == 1, "\(stopped)")
    }

    @Test("the Studio: today's briefing is a line at the top and b plays it; her readings are a shelf, and one plays from it")
    func studioBriefingAndReadings() async throws {
        try await Playback.gated {
            try StudioTests.requireTmux()
            let backend = try Self.backend()
            defer { backend.stop() }
            let capture = try await PipeSinkCapture(format: .s16le, rate: 44_100, channels: 2)
            let player = try PlayerProcess.executablePath()
            let tmux = try StudioTests.Tmux(command: "'\(player)' studio --device \(capture.sinkName)", rows: 40, environment: try StudioTests.environment([
                "ALICIA_BASE_URL": backend.baseURL, "ALICIA_TOKEN": backend.token,
            ]))
            _ = try await tmux.waitFor("the briefing line and the readings shelf") {
                $0.contains("Today's briefing is ready") && $0.contains("Her readings")
            }
            try tmux.keys("b")
            _ = try await tmux.waitFor("the briefing playing") { screen in
                screen.split(separator: "\n").contains { $0.contains("▶") && $0.contains("briefing") || $0.contains("Briefing") }
            }
            try tmux.keys("G")
            try tmux.keys("Enter")
            _ = try await tmux.waitFor("a reading playing") { $0.contains("reflection") }
            try tmux.keys("q")
            #expect(try await StudioTests.status(tmux) == "0", "\(tmux.screen())")
            _ = await capture.finish(quietFor: .milliseconds(200))
            #expect(backend.requests.contains { $0.path.hasPrefix("/api/morning_briefing/audio/") }, "the briefing was not fetched")
        }
    }
}
