/// Which requests get an injected 500: the n-th request fails when the n-th number of a seeded
/// sequence falls below the rate, so a run with the same seed fails the same requests.
struct FailureSchedule: Sendable {
    let rate: Double
    let seed: UInt64
    private var drawn = 0

    init(rate: Double, seed: UInt64) {
        self.rate = rate
        self.seed = seed
    }

    /// Whether the next request fails.
    mutating func nextFails() -> Bool {
        defer { drawn += 1 }
        return rate > 0 && SplitMix64.unit(seed, drawn) < rate
    }
}
