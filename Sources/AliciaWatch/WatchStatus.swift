/// The watcher's problems, by source (notifications, backend, feeds): a line when one starts, changes
/// or ends, never one a round. Pure.
public struct WatchStatus: Sendable {
    private var problems: [String: String] = [:]

    public init() {}

    public var isHealthy: Bool { problems.isEmpty }

    /// The line to say, if the state of `source` changed: its problem (nil: fine now).
    public mutating func report(_ source: String, problem: String?) -> String? {
        let before = problems[source]
        guard before != problem else { return nil }
        problems[source] = problem
        if let problem { return "\(source): \(problem)" }
        return "\(source): working again"
    }
}

/// How long to wait before the next round: the interval while all is well; after failed rounds in a
/// row, twice as long each time, up to ten minutes (or the interval, when that is longer). Pure.
public enum WatchBackoff {
    public static let ceiling = 600.0

    public static func delay(interval: Double, failures: Int) -> Double {
        guard failures > 0 else { return interval }
        let factor = Double(1 << min(failures, 10))
        return min(interval * factor, max(interval, ceiling))
    }
}
