/// A failure of the test harness itself or of a precondition a test needs (PulseAudio, nginx, the
/// built binary), worded for the person reading the test log.
///
/// Tests that need a service throw this instead of skipping: a missing PulseAudio server must show up
/// as a red test, never as a silently smaller test run.
public struct HarnessError: Error, CustomStringConvertible, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
