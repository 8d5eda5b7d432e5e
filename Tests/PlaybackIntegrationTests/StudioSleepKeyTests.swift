import AliciaTestSupport
import Foundation
import Testing

/// The Studio's `z` in a real terminal: a fixed cycle from the preset last chosen, whatever time is left.
@Suite("Studio sleep key", .serialized)
struct StudioSleepKeyTests {
    @Test("z pressed at 0 s, 2 s and 4 s cycles 15 → 30 → 45 minutes")
    func sleepKeyCycles() async throws {
        try StudioTests.requireTmux()
        try await Playback.gated {
            let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
            let player = try PlayerProcess.executablePath()
            let environment = try StudioTests.environment(["XDG_STATE_HOME": try PlayerProcess.freshStateDirectory()])
            let tmux = try StudioTests.Tmux(command: "'\(player)' demo --device \(capture.sinkName)", environment: environment)
            var screen = try await tmux.waitFor("an episode playing") { $0.contains("playing") && StudioTests.elapsed($0) != nil }
            let start = StudioTests.elapsed(screen) ?? 0
            for (step, minutes) in [15, 30, 45].enumerated() {
                // Two seconds of playing between presses: the time left is below the preset by then.
                screen = try await tmux.waitFor("\(step * 2) s in", timeout: .seconds(60)) { (StudioTests.elapsed($0) ?? 0) >= start + step * 2 }
                try tmux.keys("z")
                // The preset, less what a loaded machine took to draw it (never the old one's).
                screen = try await tmux.waitFor("sleep in \(minutes):00") { screen in
                    Self.sleepLeft(screen).map { $0 <= minutes * 60 && $0 > minutes * 60 - 30 } ?? false
                }
            }
            try tmux.keys("q")
            #expect(try await StudioTests.status(tmux) == "0")
            _ = await capture.finish()
        }
    }

    /// The seconds the screen's `sleep in M:SS` says are left.
    static func sleepLeft(_ screen: String) -> Int? {
        guard let range = screen.range(of: #"sleep in \d+:\d\d"#, options: .regularExpression) else { return nil }
        let parts = screen[range].dropFirst("sleep in ".count).split(separator: ":")
        guard parts.count == 2, let minutes = Int(parts[0]), let seconds = Int(parts[1]) else { return nil }
        return minutes * 60 + seconds
    }
}
