import Dispatch

extension Duration {
    /// This duration for Dispatch, clamped at zero.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        return .nanoseconds(Int(max(0, nanoseconds)))
    }

    /// This duration in seconds, for messages. Internal: an engine module may well define its own.
    var harnessSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
