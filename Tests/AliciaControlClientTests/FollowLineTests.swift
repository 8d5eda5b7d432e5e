import AliciaJSON
import AliciaLocks
import Testing
@testable import AliciaControlClient

/// `ctl follow`'s options and lines, without a player.
@Suite struct FollowLineTests {
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
}

extension Result {
    var failureMessage: String? {
        if case .failure(let error) = self { return (error as? UsageError)?.message }
        return nil
    }
}
