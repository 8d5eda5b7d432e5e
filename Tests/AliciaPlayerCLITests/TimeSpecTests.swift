import Testing
import AliciaAudio
@testable import AliciaPlayerCLI

@Suite struct TimeSpecTests {
    @Test(arguments: [
        ("90", StartPosition.seconds(90)),
        ("1.5", .seconds(1.5)),
        ("2:05", .seconds(125)),
        ("1:02:03", .seconds(3723)),
        ("0:00:30.5", .seconds(30.5)),
        ("50%", .fraction(0.5)),
        ("0%", .fraction(0)),
        ("100%", .fraction(1)),
        (" 7 ", .seconds(7)),
    ])
    func parses(text: String, expected: StartPosition) {
        #expect(TimeSpec.parse(text) == expected)
    }

    @Test(arguments: ["", "abc", "1:60", "1:2:3:4", "-5", "101%", "%", "1.5:00", "1::2", "nan", "inf", "1e3"])
    func rejects(text: String) {
        #expect(TimeSpec.parse(text) == nil)
    }

    @Test(arguments: [(0.0, "0:00"), (59.9, "0:59"), (125, "2:05"), (3723, "1:02:03"), (36000, "10:00:00"), (-3, "0:00")])
    func formatsAClock(seconds: Double, expected: String) {
        #expect(TimeSpec.clock(seconds) == expected)
    }
}

@Suite struct InvocationTests {
    @Test func parsesPlayWithEveryOption() throws {
        let invocation = try Invocation.parse(["play", "http://h/a.wav", "--start", "1:30", "--device=pipe", "--read-ahead", "5"])
        var expected = PlayOptions(reference: "http://h/a.wav")
        expected.start = .seconds(90)
        expected.startText = "1:30"
        expected.device = "pipe"
        expected.readAheadSeconds = 5
        #expect(invocation == .play(expected))
    }

    /// `play A B C` is a queue of three, in order; --loop and --shuffle are flags of `play`.
    @Test func playTakesSeveralReferencesAsAQueue() throws {
        let invocation = try Invocation.parse(["play", "a.wav", "S1E02", "--loop", "http://h/c.wav", "--shuffle"])
        var expected = PlayOptions(references: ["a.wav", "S1E02", "http://h/c.wav"])
        expected.loop = true
        expected.shuffle = true
        #expect(invocation == .play(expected))
        #expect(throws: UsageError("studio does not take --loop")) { try Invocation.parse(["studio", "--loop"]) }
    }

    @Test func optionsMayComeFirstAndDashDashEndsThem() throws {
        let invocation = try Invocation.parse(["play", "--start=50%", "--", "-odd name.wav"])
        guard case .play(let options) = invocation else {
            Issue.record("not a play invocation")
            return
        }
        #expect(options.reference == "-odd name.wav")
        #expect(options.start == .fraction(0.5))
    }

    @Test(arguments: [
        (["--help"], Invocation.help), (["-h"], .help), (["--version"], .version), (["-V"], .version),
    ])
    func helpAndVersion(arguments: [String], expected: Invocation) throws {
        #expect(try Invocation.parse(arguments) == expected)
    }

    @Test(arguments: [
        (["--json"], "no command given (studio, play, queue, script, tracks, notes, demo, voice or chat)"),
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["dance"], "unknown command 'dance'"),
        (["play"], "play needs a URL or a path"),
        (["play", "a.wav", "--frobnicate"], "unknown option '--frobnicate'"),
        (["play", "a.wav", "--start"], "--start needs a value"),
        (["voice", "a.wav", "b.wav"], "voice takes one note, got 'b.wav' too"),
        (["play", "a.wav", "--loop=yes"], "--loop takes no value"),
        (["play", "a.wav", "--read-ahead", "0"], "--read-ahead '0' is not a number of seconds between 0 and 600"),
    ])
    func refuses(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Invocation.parse(arguments) }
    }

    @Test func noArgumentsAtAllMeansTheStudio() throws {
        guard case .studio(_, let implicit) = try Invocation.parse([]) else {
            Issue.record("not the studio")
            return
        }
        #expect(implicit)
        #expect(try Invocation.parse(["studio"]) == .studio(PlayOptions(reference: ""), implicit: false))
    }

    @Test func voiceAtTakesATimeAndAURLThatMayHoldEquals() throws {
        guard case .play(let options) = try Invocation.parse(["play", "a.wav", "--voice-at", "1:30=http://h/n.wav?x=1&token=t",
                                                               "--voice-at=50%=/api/audio/voice-1.wav", "--voice-focus", "duck"]) else {
            Issue.record("not play")
            return
        }
        #expect(options.voiceAt == [VoiceTrigger(at: .seconds(90), reference: "http://h/n.wav?x=1&token=t"),
                                    VoiceTrigger(at: .fraction(0.5), reference: "/api/audio/voice-1.wav")])
        #expect(options.voiceFocus == .duck(decibels: -12))
        #expect(throws: UsageError.self) { try Invocation.parse(["play", "a.wav", "--voice-at", "nonsense"]) }
        #expect(throws: UsageError.self) { try Invocation.parse(["play", "a.wav", "--voice-focus", "loud"]) }
    }

    @Test func chatTakesOneMessage() throws {
        var expected = ChatOptions(text: "hello there")
        expected.voice = true
        expected.react = "❤️"
        #expect(try Invocation.parse(["chat", "hello there", "--voice", "--react", "❤️"]) == .chat(expected))
        #expect(throws: UsageError.self) { try Invocation.parse(["chat"]) }
        #expect(throws: UsageError.self) { try Invocation.parse(["chat", "a", "b"]) }
        #expect(throws: UsageError("tracks does not take --start")) { try Invocation.parse(["tracks", "--start", "5"]) }
    }

    @Test func aMalformedStartSaysWhatWouldDo() {
        #expect(throws: UsageError.self) { try Invocation.parse(["play", "a.wav", "--start", "abc"]) }
        do {
            _ = try Invocation.parse(["play", "a.wav", "--start", "abc"])
        } catch {
            #expect(error.message.contains("m:ss"))
            #expect(error.message.contains("50%"))
        }
    }
}

@Suite struct ProgressLineTests {
    private func snapshot(position: Double, duration: Double?, state: PlayerState = .playing) -> PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        snapshot.state = state
        snapshot.position = position
        snapshot.duration = duration
        snapshot.bufferedAhead = 9.6
        return snapshot
    }

    @Test(arguments: [40, 60, 80, 120])
    func fitsTheWidth(width: Int) {
        let line = ProgressLine.render(snapshot(position: 83, duration: 2700), width: width)
        #expect(line.count < width)
        #expect(line.hasPrefix("▶ 1:23 / 45:00"))
        #expect(line.hasSuffix("buffered 10 s"))
    }

    @Test func theBarIsProportional() {
        #expect(ProgressLine.bar(fraction: 0, width: 12) == "▕          ▏")
        #expect(ProgressLine.bar(fraction: 0.5, width: 12) == "▕█████     ▏")
        #expect(ProgressLine.bar(fraction: 1, width: 12) == "▕██████████▏")
        #expect(ProgressLine.bar(fraction: 0.55, width: 12) == "▕█████▌    ▏")
    }

    @Test func anUnknownDurationShowsDashes() {
        let line = ProgressLine.render(snapshot(position: 5, duration: nil, state: .buffering), width: 80)
        #expect(line.contains("0:05 / --:--"))
        #expect(line.contains("buffering"))
    }
}
