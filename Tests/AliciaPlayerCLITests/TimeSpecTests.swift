import Testing
import AliciaAudio
@testable import AliciaPlayerCLI
import AliciaSession
import AliciaLocks
@testable import AliciaLibrary
@testable import AliciaHost
@testable import AliciaStudio

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

    /// Guards issue 17: the clocks showed `0:00 … -2:59 / 3:00`; shown elapsed plus shown remaining is the shown total.
    @Test(arguments: [(0.0, 180.0, 180.0), (0.4, 180, 180), (83.9, 180, 97), (179.99, 180, 1), (180, 180, 0), (200, 180, 0),
                      (10.5, 127.5, 117), (-1, 60, 60)])
    func remainingAddsUpWithElapsed(position: Double, duration: Double, expected: Double) {
        let remaining = TimeSpec.remaining(position: position, duration: duration)
        #expect(remaining == expected)
        if position >= 0 && position <= duration {
            #expect(position.rounded(.down) + remaining == duration.rounded(.down))
        }
    }

    @Test(arguments: [(1500.0, 3000.0, 2.0, "12:30"), (0, 180, 1.5, "2:00"), (83, 180, 1.5, "1:04"), (0, 60, 0.5, "2:00"), (0, 60, 1, "1:00")])
    func listeningTimeIsWhatRemainsOverTheSpeed(position: Double, duration: Double, speed: Double, clock: String) {
        #expect(TimeSpec.clock(TimeSpec.listeningRemaining(position: position, duration: duration, speed: speed)) == clock)
    }

    @Test(arguments: [(0.0, "0:00"), (59.9, "0:59"), (125, "2:05"), (3723, "1:02:03"), (36000, "10:00:00"), (-3, "0:00")])
    func formatsAClock(seconds: Double, expected: String) {
        #expect(TimeSpec.clock(seconds) == expected)
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

    @Test func atAnotherSpeedTheListeningTimeLeftShows() {
        var fast = snapshot(position: 1500, duration: 3000)
        fast.speed = 2
        #expect(ProgressLine.render(fast, width: 100).contains("-12:30 at 2×"))
    }

    /// Guards issue 26: `play X | cat` left `▶ 0:19 / 0:20 … buffered 0 s`, its bar ending `▏▏`.
    @Test func endedIsTheFinalState() {
        let line = ProgressLine.render(snapshot(position: 19.9, duration: 20, state: .ended), width: 60)
        #expect(line.hasPrefix("■ 0:20 / 0:20"), "\(line)")
        #expect(!line.contains("buffered") && !line.contains("▏▏"), "\(line)")
        #expect(line.hasSuffix("█▏"), "\(line)")
    }

    @Test func anUnknownDurationShowsDashes() {
        let line = ProgressLine.render(snapshot(position: 5, duration: nil, state: .buffering), width: 80)
        #expect(line.contains("0:05 / --:--"))
        #expect(line.contains("buffering"))
    }
}
