/// Which signals count: only those sent by the unique name that owns org.freedesktop.Notifications
/// (any process on the bus can send an `ActionInvoked`), and only about a notification this watcher
/// was given by `Notify`. Pure: the bus asks it.
public struct NotificationGate<Payload: Sendable>: Sendable {
    /// The server's unique name, as `GetNameOwner` last answered (nil: not known, nothing counts).
    public var owner: String?
    /// The notifications this watcher posted and still open, oldest first, with what each is about.
    private(set) var issued: [(id: UInt32, payload: Payload)] = []
    /// At most this many are remembered: an older one's action then does nothing.
    public let limit: Int

    public init(limit: Int = 64) {
        self.limit = limit
    }

    /// A notification the server accepted, under the id it gave.
    public mutating func issued(_ id: UInt32, _ payload: Payload) {
        issued.removeAll { $0.id == id }
        issued.append((id, payload))
        if issued.count > limit { issued.removeFirst(issued.count - limit) }
    }

    public var issuedCount: Int { issued.count }

    /// What an action is about, when it counts: its key and the notification's payload. A closed
    /// notification (from the owner) is forgotten.
    public mutating func accept(_ signal: NotifySignal) -> (key: String, payload: Payload)? {
        guard let owner, signal.sender == owner, let index = issued.firstIndex(where: { $0.id == signal.id }) else { return nil }
        switch signal {
        case .action(_, let key, _):
            return (key, issued[index].payload)
        case .closed:
            issued.remove(at: index)
            return nil
        }
    }
}
