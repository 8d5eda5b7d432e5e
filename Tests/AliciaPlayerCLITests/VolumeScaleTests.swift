import Foundation
import Testing
import AliciaTestSupport
@testable import AliciaPlayerCLI
import AliciaSession
import AliciaLocks
@testable import AliciaLibrary
@testable import AliciaHost
@testable import AliciaStudio

/// Guards issue 17: "vol 80%" was 0.8 of the amplitude (−1.94 dB, which pavucontrol shows as 93 %);
/// the percent is now the mixer's, on PulseAudio's cubic scale.
@Suite struct VolumeScaleTests {
    /// The figures pactl prints for these volumes (`pactl set-sink-volume … 80%` reads back −5.81 dB).
    @Test(arguments: [(100.0, 1.0, 0.0), (80, 0.512, -5.81), (50, 0.125, -18.06), (150, 3.375, 10.57), (0, 0, -Double.infinity)])
    func aPercentIsTheCubeOfItsFraction(percent: Double, linear: Double, decibels: Double) {
        let amplitude = VolumeScale.linear(percent: percent)
        #expect(abs(amplitude - linear) < 1e-12)
        let level = 20 * log10(amplitude)
        #expect(level == decibels || abs(level - decibels) < 0.005, "\(percent)% is \(level) dB")
    }

    /// `pa_sw_volume_from_linear`: the percent is the cube root of the amplitude.
    @Test(arguments: [0.0, 1, 5, 33, 80, 100, 127, 150])
    func theScaleGoesBothWays(percent: Double) {
        #expect(abs(VolumeScale.percent(linear: VolumeScale.linear(percent: percent)) - percent) < 1e-9)
    }

    @Test(arguments: [(-10.0, 0.0), (200, 3.375)])
    func outOfRangeIsClamped(percent: Double, linear: Double) {
        #expect(VolumeScale.linear(percent: percent) == linear)
    }

    @Test(arguments: [
        (100.0, 1, 105.0), (100, -1, 95), (83, 1, 85), (83, -1, 80), (85, 1, 90), (85, -1, 80),
        (0, -1, 0), (150, 1, 150), (148, 1, 150), (2, -1, 0), (100, 3, 115), (100, 0, 100),
    ])
    func stepsAreFivePercentOnMultiplesOfFive(from: Double, steps: Int, expected: Double) {
        #expect(VolumeScale.stepped(from, by: steps) == expected)
    }

    @Test(arguments: [(80.0, "80%"), (82.6, "83%"), (0, "0%"), (150, "150%")])
    func shownAsAWholePercent(percent: Double, text: String) {
        #expect(VolumeScale.text(percent) == text)
    }
}

/// The volume and speed the Studio remembers between runs.
@Suite struct ListenerStateTests {
    @Test func thePathFollowsXDGStateHome() {
        #expect(ListenerState.path(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/alicia-player/state")
        #expect(ListenerState.path(environment: ["HOME": "/h"]) == "/h/.local/state/alicia-player/state")
        #expect(ListenerState.path(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/alicia-player/state")
    }

    @Test(arguments: [
        ("volume = 80\nspeed = 1.25\n", ListenerState(volume: 80, speed: 1.25)),
        ("# c\nspeed = 2\n", ListenerState(volume: nil, speed: 2)),
        ("volume = 400\nspeed = 9\n", ListenerState()),
        ("volume = loud\n", ListenerState()),
        ("not a state file", ListenerState()),
    ])
    func parsesWhatIsValidAndDropsTheRest(text: String, expected: ListenerState) {
        #expect(ListenerState.parse(text) == expected)
    }

    @Test func savesAtomicallyIntoDirectoriesItMakesAndReadsBack() throws {
        let directory = try TemporaryDirectory(prefix: "state")
        let path = directory.file("deep/er/alicia-player/state")
        let state = ListenerState(volume: 65, speed: 1.5)
        #expect(state.save(to: path) == nil)
        #expect(ListenerState.load(from: path) == state)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("volume = 65\nspeed = 1.5\n"))
        // Saved again over the old file; no temporary file is left beside it.
        #expect(ListenerState(volume: 70, speed: nil).save(to: path) == nil)
        #expect(ListenerState.load(from: path) == ListenerState(volume: 70, speed: nil))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("deep/er/alicia-player")) == ["state"])
    }

    @Test func aDirectoryThatCannotBeMadeIsSaid() throws {
        let directory = try TemporaryDirectory(prefix: "state")
        let blocker = try directory.write([], as: "file")
        #expect(ListenerState(volume: 1).save(to: blocker + "/alicia-player/state") != nil)
    }
}
