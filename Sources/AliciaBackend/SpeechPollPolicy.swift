#if canImport(Glibc)
import Glibc
#endif

/// How often to ask `/api/speak` again while a text is being voiced, as the app does it: every
/// 1.5 s for the first 20 asks, then every 4 s.
public struct SpeechPollPolicy: Sendable, Equatable {
    /// The pause after each of the first `quickAsks` asks.
    public var quickInterval: Duration = .milliseconds(1500)
    public var quickAsks = 20
    /// The pause after every later ask.
    public var slowInterval: Duration = .seconds(4)

    /// The app's policy.
    public static let app = SpeechPollPolicy()

    /// The pause before the next ask, after `asks` asks so far (1 after the first).
    public func interval(afterAsks asks: Int) -> Duration {
        asks <= quickAsks ? quickInterval : slowInterval
    }

    /// Waits `interval(afterAsks:)` before the next ask: the backend says nothing when a voice is
    /// ready, so the app's cadence is the only thing to wait on (a signal does not cut it short).
    public func wait(afterAsks asks: Int) {
        let pause = interval(afterAsks: asks).components
        var span = timespec(tv_sec: Int(pause.seconds), tv_nsec: Int(pause.attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&span, &left) != 0 && errno == EINTR { span = left }
    }
}
