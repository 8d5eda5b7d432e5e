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
