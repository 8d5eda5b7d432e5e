/// At most `limit` holders at a time; the others wait in arrival order.
///
/// Real-time playback tests are cheap in CPU but not free; on a 2-core machine, starting every player
/// of the suite at once would make the players' own start-up the likeliest cause of an underrun.
public actor ConcurrencyGate {
    private let limit: Int
    private var holders = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(limit: Int) {
        precondition(limit > 0, "ConcurrencyGate.init: limit must be positive")
        self.limit = limit
    }

    /// Waits for a place; pair with ``leave()``.
    public func enter() async {
        if holders < limit {
            holders += 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Gives the place to the longest waiter, or frees it.
    public func leave() {
        if waiters.isEmpty {
            holders -= 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}
