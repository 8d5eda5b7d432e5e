/// How patiently a fetcher deals with the network: what it retries, for how long, and what it
/// trusts.
public struct NetworkPolicy: Sendable, Equatable {
    /// Seconds of not reaching the server (every retry failing, no byte coming) after which an
    /// item gives up; 0: never.
    public var giveUpAfter: Double = 120
    /// A transfer that brings no byte for this many seconds (while it is not paused) is dropped and
    /// made again from the next missing byte.
    public var stallTimeout: Double = 10
    /// A CA certificate bundle for HTTPS (nil: the system's).
    public var caFile: String?

    public init() {}

    /// Retries wait 0.25 s, doubling each time, to at most 5 s, with ±25 % jitter.
    static let firstRetry = 0.25
    static let longestRetry = 5.0
    /// Retrying a server that has not answered once yet stops after this long.
    static let firstContactPatience = 5.0

    /// The wait before retry number `attempt` (1-based), jittered by `unit` (0…1).
    static func retryDelay(attempt: Int, unit: Double) -> Double {
        let step = min(longestRetry, firstRetry * Double(1 << min(max(attempt - 1, 0), 10)))
        return min(longestRetry, step * (0.75 + 0.5 * unit))
    }
}
