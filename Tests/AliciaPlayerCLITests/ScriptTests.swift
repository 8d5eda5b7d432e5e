import Testing
@testable import AliciaPlayerCLI
import AliciaLocks
import AliciaSession
@testable import AliciaLibrary
@testable import AliciaHost
@testable import AliciaStudio

@Suite struct ScriptParserTests {
    private func parse(_ text: String) -> Script { Script.parse(Array(text.utf8)) }

    private func requests(_ line: String) -> [CommandRequest]? {
        guard case .requests(let made)? = parse(line).lines.first?.command else { return nil }
        return made
    }

    /// Every script verb is a line of the one grammar: what each makes is what the socket's own
    /// command line makes.
    @Test func everyVerbIsALineOfTheGrammar() {
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
            seek 1:20
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
            get time-pos
            cycle alicia-skip-silence

            quit
            """)
        #expect(script.problems.isEmpty, "\(script.problems)")
        #expect(script.lines.count == 29)
        #expect(script.lines.first?.number == 2, "line numbers count comments and blank lines")
        #expect(requests("play a.wav \"long way\"") == [.load(reference: "a.wav", mode: .replace), .load(reference: "long way", mode: .append)])
        #expect(requests("append b.wav") == [.load(reference: "b.wav", mode: .appendPlay)])
        #expect(requests("previous") == [.perform(.previous)])
        #expect(requests("pause") == [.setProperty("pause", .string("yes"))])
        #expect(requests("toggle") == [.perform(.toggleOrSkipNote)])
        #expect(requests("seek +30") == [.perform(.seek(.by(30)))])
        #expect(requests("seek 1:20") == [.perform(.seek(.to(80)))])
        #expect(requests("seek 12") == [.perform(.seek(.by(12)))], "a bare number is relative, as mpv's seek")
        #expect(requests("chapter +1") == [.add("chapter", 1)])
        #expect(requests("chapter -1") == [.add("chapter", -1)])
        #expect(requests("chapter 2") == [.setProperty("chapter", .string("2"))])
        #expect(requests("volume +5") == [.add("volume", 5)])
        #expect(requests("speed 1.5x") == [.setProperty("speed", .string("1.5"))])
        #expect(requests("say hello there, Alicia") == [.perform(.say("hello there, Alicia", voice: true))])
        #expect(requests("voice voice-1.wav") == [.voice(reference: "voice-1.wav")])
        #expect(requests("quit") == [.perform(.quit(status: 0, savePosition: false))])
        #expect(parse("echo  done now").lines.first?.command == .echo("done now"))
        #expect(parse("wait 200ms").lines.first?.command == .wait(.seconds(0.2)))
    }

    @Test(arguments: [
        ("sek 10", "unknown command 'sek'"),
        ("append", "append needs something to play"),
        ("next 2", "next takes no arguments"),
        ("seek", "seek takes a number of seconds"),
        ("seek soon", "seek: 'soon' is not a time"),
        ("chapter soon", "chapter 'soon' is not +1, -1, N"),
        ("chapter", "chapter takes one of"),
        ("volume 200", "volume '200' is not a level from 0 to 150"),
        ("speed 4", "speed '4' is not a speed from 0.5 to 3"),
        ("wait forever", "wait 'forever' is not"),
        ("wait 2 3", "wait takes one"),
        ("say", "say takes the text"),
        ("play \"unclosed", "a quote is not closed"),
        ("voice a b", "voice takes a reference"),
        ("get nosuch", "no property 'nosuch'"),
        ("observe_property 1 pause", "observe_property is for control socket clients"),
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
