import AliciaLocks

/// Every request the backend answered, for tests and the demo's summary; tokens never enter it.
final class RequestLog: Sendable {
    private let state = Locked(State())

    /// Enough for any test and a long demo session; older entries are dropped in batches.
    private static let capacity = 10_000

    private struct State {
        var entries: [LoggedRequest] = []
        /// How many entries were dropped from the front: entry `n` is at `entries[n - dropped]`.
        var dropped = 0
    }

    /// Appends `entry` and returns its number, for ``addBodyBytes(_:to:)``.
    func record(_ entry: LoggedRequest) -> Int {
        state.withLock { state in
            if state.entries.count >= Self.capacity {
                let drop = Self.capacity / 10
                state.entries.removeFirst(drop)
                state.dropped += drop
            }
            state.entries.append(entry)
            return state.dropped + state.entries.count - 1
        }
    }

    /// Counts `count` more body bytes sent for entry `number` (a streamed body, as it goes).
    func addBodyBytes(_ count: Int, to number: Int) {
        state.withLock { state in
            let index = number - state.dropped
            if state.entries.indices.contains(index) {
                state.entries[index].bodyBytes += count
            }
        }
    }

    var entries: [LoggedRequest] {
        state.withLock { $0.entries }
    }

    /// `target` with the value of every `token` query item replaced by `***`.
    static func redacted(_ target: String) -> String {
        guard let question = target.firstIndex(of: "?") else { return target }
        let items = target[target.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
        let redacted = items.map { item -> String in
            let name = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return name == "token" ? "token=***" : String(item)
        }
        return target[..<question] + "?" + redacted.joined(separator: "&")
    }
}
