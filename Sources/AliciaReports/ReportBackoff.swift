/// How long the outbox waits before it sends again an event the backend did not take: 2 s, doubled
/// after each failure up to 5 min, each delay taken at random in its upper fifth (so players that
/// failed together do not all come back in the same second).
package struct ReportBackoff: Sendable, Equatable {
    /// The first delay (seconds).
    package var first: Double
    /// The longest (seconds).
    package var limit: Double
    /// The share of a delay that is random: a delay is between (1 − jitter) × it and it.
    package var jitter: Double

    package init(first: Double = 2, limit: Double = 300, jitter: Double = 0.2) {
        self.first = first
        self.limit = limit
        self.jitter = jitter
    }

    /// The delay after `attempts` sends that did not take (1: the first failure), with `random`
    /// in 0…1 choosing within the jitter.
    package func delay(afterAttempts attempts: Int, random: Double = Double.random(in: 0...1)) -> Double {
        var delay = first
        var doublings = max(0, attempts - 1)
        while doublings > 0 && delay < limit {
            delay *= 2
            doublings -= 1
        }
        return min(delay, limit) * (1 - jitter * min(max(random, 0), 1))
    }
}
