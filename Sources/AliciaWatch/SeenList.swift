/// Ids already shown (or there before the first run), oldest first, at most `limit` of them: kept as
/// one line each under a key of the library database's `kv` table (`watch.seen.proactive`,
/// `watch.seen.tracks`), so a restarted watcher shows nothing twice.
public struct SeenList: Equatable, Sendable {
    public private(set) var ids: [String]
    public let limit: Int

    /// The app remembers its last 200 ids; the backend is asked for 30 at a time.
    public init(ids: [String] = [], limit: Int = 200) {
        self.limit = limit
        self.ids = Array(ids.suffix(limit))
    }

    /// The list as stored (`nil`: never stored, the first run).
    public init?(stored text: String?, limit: Int = 200) {
        guard let text else { return nil }
        self.init(ids: text.split(separator: "\n").map(String.init), limit: limit)
    }

    public var stored: String { ids.joined(separator: "\n") }

    public func contains(_ id: String) -> Bool { ids.contains(id) }

    /// Adds ids not there yet, dropping the oldest beyond the limit.
    public mutating func insert(_ new: [String]) {
        for id in new where !id.isEmpty && !id.contains("\n") && !ids.contains(id) { ids.append(id) }
        if ids.count > limit { ids.removeFirst(ids.count - limit) }
    }
}

/// What one round does with what the backend listed (newest first): which to notify and which to
/// mark seen. Pure.
public struct WatchPlan<Item>: Sendable where Item: Sendable {
    /// Oldest first, so that the newest ends on top.
    public var notify: [Item]
    public var markSeen: [String]

    /// Her messages and the app's cap of three: on the first run (no list stored) everything there
    /// counts as seen and nothing is shown; after it, the newest `cap` unseen are shown, every unseen
    /// one marked seen.
    public static func plan(_ items: [Item], id: (Item) -> String, seen: SeenList?, cap: Int) -> WatchPlan {
        guard let seen else { return WatchPlan(notify: [], markSeen: items.map(id)) }
        let fresh = items.filter { !seen.contains(id($0)) }
        return WatchPlan(notify: Array(fresh.prefix(cap).reversed()), markSeen: fresh.map(id))
    }
}
