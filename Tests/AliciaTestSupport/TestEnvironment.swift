import Foundation
import Synchronization

/// Facts about the machine the tests run on, and checks that turn a missing service into a failure.
public enum TestEnvironment {
    private static let pulseAudioAnswered = Atomic<Bool>(false)

    /// True under CI (`CI=true`), where every service the tests need must be present.
    public static var isCI: Bool {
        ProcessInfo.processInfo.environment["CI"] == "true"
    }

    /// How much longer every hang guard waits (`ALICIA_HANG_GUARD_SCALE`, 1 unless set): under a
    /// sanitizer everything runs several times slower, and a bound on a wait only tells "hung" from
    /// "done", so it grows with the run, never a figure a test asserts.
    public static let hangGuardScale: Double = {
        guard let text = ProcessInfo.processInfo.environment["ALICIA_HANG_GUARD_SCALE"], let scale = Double(text), scale >= 1 else { return 1 }
        return scale
    }()

    /// Throws a ``HarnessError`` saying `why` unless `condition` holds.
    ///
    /// Use it for what a test needs from the machine: tests fail, they never skip.
    public static func require(_ condition: Bool, _ why: String) throws {
        if !condition {
            throw HarnessError("requirement not met: \(why)")
        }
    }

    /// Throws unless a PulseAudio server answers `pactl info`. Once one has, it is not asked again:
    /// the check runs at the start of many tests, on whatever thread they run on.
    public static func requirePulseAudio() throws {
        if pulseAudioAnswered.load(ordering: .acquiring) { return }
        let reachable = Pactl.isServerReachable()
        if reachable { pulseAudioAnswered.store(true, ordering: .releasing) }
        try require(
            reachable,
            "no PulseAudio server answers `pactl info` (run the tests through scripts/test, which starts one)"
        )
    }

    /// Throws unless an nginx binary can be found.
    public static func requireNginx() throws {
        try require(
            (try? ChildProcess.resolve("nginx")) != nil,
            "nginx is not installed (scripts/test installs nginx-light)"
        )
    }
}
