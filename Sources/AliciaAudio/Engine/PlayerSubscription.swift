#if canImport(Glibc)
import Glibc
#endif
import AliciaLocks

/// One reader's view of a player's events: each subscription gets every event posted after it
/// was made, in order. It can be waited on directly (`next(timeout:)`) or through its file
/// descriptor, readable while events wait, so one `poll()` loop serves keys, signals, players and
/// sockets alike.
///
/// A subscription nobody reads keeps at most `capacity` events (the oldest go first, counted in
/// `dropped`), so memory stays bounded.
public final class PlayerSubscription: Sendable {
    private struct Queue {
        var events: [PlayerEvent] = []
        var wakeUps = 0
        var dropped = 0
        var closed = false
        /// A byte is in the pipe.
        var signalled = false
    }

    private let queue = ConditionLock(Queue())
    /// Readable while events (or wake-ups) wait.
    private let pipe = WakePipe()
    public var fileDescriptor: Int32 { pipe.readDescriptor }
    private let hub: EventHub

    static let capacity = 4096

    init(hub: EventHub) {
        self.hub = hub
    }

    /// Stops receiving events. Idempotent; also done when the subscription is freed.
    public func cancel() {
        hub.remove(self)
        queue.update { $0.closed = true }
    }

    /// The next event, waiting up to `timeout` (forever when nil). Nil on timeout, after `wake()`,
    /// or once cancelled.
    public func next(timeout: Duration? = nil) -> PlayerEvent? {
        queue.withLock(waitingUntil: { !$0.events.isEmpty || $0.wakeUps > 0 || $0.closed }, timeout: timeout) { q in
            defer { settle(&q) }
            if !q.events.isEmpty { return q.events.removeFirst() }
            q.wakeUps = max(0, q.wakeUps - 1)
            return nil
        }
    }

    /// Every event waiting now, without blocking.
    public func drain() -> [PlayerEvent] {
        queue.withLock { q in
            defer {
                q.events.removeAll()
                q.wakeUps = 0
                settle(&q)
            }
            return q.events
        }
    }

    /// Ends one wait without an event (a signal handler's way to get a loop's attention).
    public func wake() {
        queue.update { q in
            q.wakeUps += 1
            signal(&q)
        }
    }

    /// Events dropped because nobody read them.
    public var dropped: Int { queue.withLock { $0.dropped } }

    func deliver(_ event: PlayerEvent) {
        queue.update { q in
            guard !q.closed else { return }
            if q.events.count >= Self.capacity {
                q.events.removeFirst()
                q.dropped += 1
            }
            q.events.append(event)
            signal(&q)
        }
    }

    /// Lock held: the descriptor is readable exactly while something waits.
    private func settle(_ q: inout Queue) {
        guard q.signalled, q.events.isEmpty && q.wakeUps == 0 else { return }
        pipe.takeOne()
        q.signalled = false
    }

    private func signal(_ q: inout Queue) {
        guard !q.signalled else { return }
        if pipe.wake() { q.signalled = true }
    }
}

/// Hands each event to every live subscription.
final class EventHub: Sendable {
    private struct Weak: @unchecked Sendable {
        // @unchecked: the reference is only read under `subscribers`' lock.
        weak var subscription: PlayerSubscription?
    }

    private let subscribers = Locked<[Weak]>([])

    func subscribe() -> PlayerSubscription {
        let made = PlayerSubscription(hub: self)
        subscribers.withLock { $0.append(Weak(subscription: made)) }
        return made
    }

    func remove(_ subscription: PlayerSubscription) {
        subscribers.withLock { list in list.removeAll { $0.subscription == nil || $0.subscription === subscription } }
    }

    func post(_ event: PlayerEvent) {
        let live = subscribers.withLock { list -> [PlayerSubscription] in
            list.removeAll { $0.subscription == nil }
            return list.compactMap(\.subscription)
        }
        for subscription in live { subscription.deliver(event) }
    }
}
