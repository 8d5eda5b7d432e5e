import AliciaLocks

/// The backend's "stopping" flag, and the one place that sleeps: body producers wait here (a rate
/// limit, a delay between chat tokens), and ``stop()`` wakes every such wait at once, so shutdown
/// never waits out a delay.
final class StopSignal: Sendable {
    private let stopped = ConditionLock(false)

    var isStopped: Bool { stopped.withLock { $0 } }

    /// Sets the flag and wakes every waiter. Idempotent.
    func stop() {
        stopped.update { $0 = true }
    }

    /// Waits out `duration` (a chat delay, a rate limit); false if the backend stopped before or during it.
    func wait(for duration: Duration) -> Bool {
        guard duration > .zero else { return !isStopped }
        return stopped.withLock(waitingUntil: { $0 }, timeout: duration) { !$0 }
    }
}
