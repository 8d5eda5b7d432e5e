import Testing
@testable import AliciaPlayerCLI
import AliciaLocks
import AliciaSession
@testable import AliciaLibrary
@testable import AliciaHost
@testable import AliciaStudio

@Suite struct ScriptParserTests {
    private func parse(_ text: String) -> Script { Script.parse(Array(text.utf8)) }

    @Test func everyCommandOfTheVocabulary() {
        let script = parse("""
            # a comment
            play a.wav "long way" S1E02
            append b.wav
            next
            previous
            pause
            resume
            toggle
            seek +30
            seek -15
            seek 1:20
            seek 50%
            chapter +1
            chapter -1
            chapter 2
            volume 80
            volume +5
            mute
            mute off
            speed 1.5x
            voice voice-1.wav
            say hello there, Alicia
            wait
            wait end
            wait voice
            wait 5s
            wait 200ms
            echo  done now
            status

            quit
            """)
        #expect(script.problems.isEmpty, "\(script.problems)")
        let expected: [Script.Command] = [
            .play(["a.wav", "long way", "S1E02"]), .append(["b.wav"]), .next, .previous, .pause, .resume, .toggle,
            .seek(.by(30)), .seek(.by(-15)), .seek(.to(80)), .seek(.toFraction(0.5)),
            .chapter(.by(1)), .chapter(.by(-1)), .chapter(.to(2)),
            .volume(.set(80)), .volume(.by(5)), .mute(.on), .mute(.off), .speed(.set(1.5)), .voice("voice-1.wav"),
            .say("hello there, Alicia"), .wait(.item), .wait(.queue), .wait(.voice), .wait(.seconds(5)), .wait(.seconds(0.2)),
            .echo("done now"), .status, .quit,
        ]
        #expect(script.lines.map(\.command) == expected)
        #expect(script.lines.first?.number == 2, "line numbers count comments and blank lines")
    }

    @Test(arguments: [
        ("sek 10", "unknown command 'sek'"),
        ("play", "play needs something to play"),
        ("next 2", "next takes no argument"),
        ("seek", "seek needs"),
        ("seek soon", "seek 'soon' is not"),
        ("chapter next", "chapter 'next' is not +1, -1 or an index"),
        ("chapter", "chapter needs"),
        ("volume 200", "volume '200' is not a level from 0 to 150"),
        ("speed 4", "speed '4' is not a speed from 0.5 to 3"),
        ("wait forever", "wait 'forever' is not"),
        ("wait 2 3", "wait takes one"),
        ("say", "say needs something to say"),
        ("play \"unclosed", "a quote is not closed"),
        ("voice a b", "voice takes one voice note"),
    ])
    func malformedLinesSayWhatIsWrong(line: String, message: String) {
        let script = parse("play a.wav\n" + line + "\n")
        #expect(script.problems.count == 1, "\(script.problems)")
        #expect(script.problems.first?.line == 2)
        #expect(script.problems.first?.message.hasPrefix(message) == true, "\(script.problems)")
    }

    @Test func linesThatAreNotTextOrTooLongAreProblemsOnTheirLines() {
        let bytes = Array("pause\n".utf8) + [0xC3, 0x28, 0x0A] + [UInt8](repeating: 0x61, count: 70_000) + [0x0A]
        let script = Script.parse(bytes)
        #expect(script.problems.map(\.line) == [2, 3])
    }

    @Test(arguments: [("5s", 5.0), ("5", 5.0), ("1.5", 1.5), ("200ms", 0.2), ("2m", 120.0), ("1:30", 90.0)])
    func durations(text: String, seconds: Double) {
        #expect(Script.duration(text) == seconds)
    }

    @Test func theStatusLineIsStatePositionDurationTitle() {
        #expect(TimeSpec.seconds(83.419) == "83.42")
        #expect(TimeSpec.seconds(0.05) == "0.05")
        #expect(TimeSpec.seconds(7) == "7.00")
    }
}
