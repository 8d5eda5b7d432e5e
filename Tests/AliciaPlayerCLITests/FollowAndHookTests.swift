import AliciaJSON
import AliciaLocks
import Testing
@testable import AliciaPlayerCLI
@testable import AliciaControlClient
@testable import AliciaHost

/// `ctl follow`'s options and lines, and the config file's hook lines, without a player.
@Suite struct FollowAndHookTests {
    @Test func followOptionsParse() throws {
        let options = try FollowOptions.parse(["--format", "{title} {position}", "--rate", "5", "--once", "volume"]).get()
        #expect(options.format == "{title} {position}" && options.rate == 5 && options.once && options.properties == ["volume"])
        #expect(options.observed == ["volume", "media-title", "time-pos"])
        #expect(FollowOptions.parse(["--rate", "0.5"]).failureMessage?.contains("from 1 to 3600") == true)
        #expect(FollowOptions.parse(["--json", "--waybar"]).failureMessage?.contains("does not go with") == true)
        #expect(FollowOptions.parse(["--nope"]).failureMessage?.contains("unknown option '--nope'") == true)
        #expect(CtlCommand.check(["follow", "--format"]) == "--format needs a value")
    }

    @Test func linesRender() throws {
        let values: [String: JSONValue] = ["media-title": .string("Slow \"Tide\""), "time-pos": .number(723.4), "duration": .number(2700),
                                           "alicia-state": .string("paused"), "volume": .number(40)]
        #expect(FollowLine.render("{state}: {title} {position}/{duration} {volume}% {percent}", values) == "paused: Slow \"Tide\" 12:03/45:00 40% -")
        var waybar = try FollowOptions.parse(["--waybar", "--format", "{title}"]).get()
        #expect(FollowLine.line(waybar, values) == #"{"text":"Slow \"Tide\"","tooltip":"Slow \"Tide\"\n12:03 / 45:00, paused","class":"paused"}"#)
        waybar.format = nil
        #expect(FollowLine.text("state", [:]) == "stopped")
        let json = try FollowOptions.parse(["--json", "pause", "time-pos"]).get()
        #expect(FollowLine.line(json, ["time-pos": .number(1.5)]) == #"{"pause":null,"time-pos":1.5}"#)
        #expect(FollowLine.final(json) == #"{"event":"shutdown"}"#)
    }

    @Test func hookLinesParse() {
        #expect(Hook.parse(#"item-start notify-send "Now playing" 'a b'"#) == .success(Hook(event: "item-start", arguments: ["notify-send", "Now playing", "a b"])))
        #expect(Hook.parse("item-end  scrobble\t--quiet") == .success(Hook(event: "item-end", arguments: ["scrobble", "--quiet"])))
        #expect(Hook.parse("started x") == .failure(HookProblem("takes an event (item-start, item-end, pause, resume, voice-note, chapter, sleep-ended, error) and a command")))
        #expect(Hook.parse("pause") == .failure(HookProblem("pause needs a command to run")))
        #expect(Hook.parse("pause 'x") == .failure(HookProblem("a quote is not closed")))
    }
}

extension Result {
    var failureMessage: String? {
        if case .failure(let error) = self { return (error as? UsageError)?.message }
        return nil
    }
}
