import AliciaJSON

/// The requests of a sync pass, read leniently: a reply's unknown members are ignored, an action
/// that is not one (no URL, an unknown kind, no time) is left out, not the whole reply.
extension SyncClient {
    /// Finds which dialect `account`'s server speaks by asking: Nextcloud's subscriptions, then
    /// gpodder.net's login. A refused password is said as such.
    package static func detectDialect(_ account: SyncAccount) throws(SyncError) -> SyncDialect {
        for dialect in [SyncDialect.nextcloud, .gpodderNet] {
            var trial = account
            trial.dialect = dialect
            let client = try SyncClient(trial)
            let request: SyncDialect.Request = dialect == .nextcloud ? .subscriptions(since: 0) : .login
            let path = dialect.path(request, user: account.user, device: account.device) ?? ""
            let reply = try client.exchange(account.server + path, json: dialect == .gpodderNet ? [] : nil)
            if reply.status == 401 || reply.status == 403 {
                throw SyncError("sync: \(account.server) refused user \(account.user) (HTTP \(reply.status)): the user or the password is wrong",
                                unauthorized: true)
            }
            guard (200..<300).contains(reply.status) else { continue }
            if dialect == .gpodderNet { return dialect }
            if case .array? = JSONValue(parsing: reply.body)?["add"] { return dialect }
        }
        throw SyncError("sync: \(account.server) speaks neither the gpodder.net API nor Nextcloud's GPodder Sync")
    }

    /// gpodder.net: logs in (a check of the password) and makes this device known by its caption.
    package func registerDevice(caption: String) throws(SyncError) {
        guard account.dialect == .gpodderNet else { return }
        _ = try send(.login, json: [])
        let body = JSONValue.object([.init("caption", .string(caption)), .init("type", .string("desktop"))])
        _ = try send(.device, json: body.text() ?? [])
    }

    /// The account's subscription changes since `since` (the server's timestamp from its last
    /// reply; 0 the first time), and the timestamp to ask from next.
    package func subscriptions(since: Int64) throws(SyncError) -> (changes: SubscriptionChanges, timestamp: Int64) {
        let reply = try Self.json(try send(.subscriptions(since: since)), "the subscriptions")
        return (SubscriptionChanges(add: Self.urls(reply["add"]), remove: Self.urls(reply["remove"])),
                Self.timestamp(reply) ?? since)
    }

    /// Every subscription of the account, whichever device made it: what a new device starts from
    /// (gpodder.net keeps subscriptions per device; Nextcloud's are the account's already).
    package func allSubscriptions() throws(SyncError) -> [String] {
        guard account.dialect == .gpodderNet else { return [] }
        return Self.urls(try Self.json(try send(.allSubscriptions), "the account's subscriptions"))
    }

    /// Tells the server this device's subscription changes; its timestamp, and the URLs it
    /// rewrote (`update_urls`: old to new, which the library should take).
    package func upload(_ changes: SubscriptionChanges) throws(SyncError) -> (timestamp: Int64?, updated: [(String, String)]) {
        let body = JSONValue.object([.init("add", .array(changes.add.map { .string($0) })),
                                     .init("remove", .array(changes.remove.map { .string($0) }))])
        let reply = try Self.json(try send(.uploadSubscriptions, json: body.text() ?? []), "the subscription changes")
        return (Self.timestamp(reply), Self.updatedURLs(reply))
    }

    /// The account's episode actions since `since`, every device's, and the timestamp to ask
    /// from next; `skipped` counts the entries that were not actions.
    package func actions(since: Int64) throws(SyncError) -> (actions: [EpisodeAction], timestamp: Int64, skipped: Int) {
        let reply = try Self.json(try send(.actions(since: since)), "the episode actions")
        guard case .array(let entries)? = reply["actions"] else { throw SyncError("sync: the server's episode actions have no list of actions") }
        let actions = entries.compactMap(Self.action)
        return (actions, Self.timestamp(reply) ?? since, entries.count - actions.count)
    }

    /// Uploads `actions` (a batch); the server's timestamp.
    package func upload(_ actions: [EpisodeAction]) throws(SyncError) -> Int64? {
        let body = JSONValue.array(actions.map(Self.json))
        return Self.timestamp(try Self.json(try send(.uploadActions, json: body.text() ?? []), "the episode actions uploaded"))
    }

    // MARK: reading and writing the API's JSON

    static func timestamp(_ reply: JSONValue) -> Int64? {
        reply["timestamp"]?.integerValue.map(Int64.init)
    }

    /// The http(s) URLs of a list; anything else is left out.
    static func urls(_ value: JSONValue?) -> [String] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { item in item.stringValue.flatMap { isWebURL($0) ? $0 : nil } }
    }

    static func updatedURLs(_ reply: JSONValue) -> [(String, String)] {
        guard case .array(let pairs)? = reply["update_urls"] else { return [] }
        return pairs.compactMap { pair in
            guard case .array(let two) = pair, two.count == 2, let old = two[0].stringValue, let new = two[1].stringValue,
                  isWebURL(old), isWebURL(new), old != new else { return nil }
            return (old, new)
        }
    }

    static func isWebURL(_ text: String) -> Bool {
        let lower = text.prefix(8).lowercased()
        return (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && text.utf8.count <= 4096
    }

    static func action(_ value: JSONValue) -> EpisodeAction? {
        guard let podcast = value["podcast"]?.stringValue, isWebURL(podcast), let episode = value["episode"]?.stringValue, isWebURL(episode),
              let kind = value["action"]?.stringValue.flatMap({ EpisodeAction.Kind(rawValue: $0.lowercased()) }),
              let timestamp = value["timestamp"]?.stringValue else { return nil }
        func seconds(_ name: String) -> Int? { value[name]?.integerValue.flatMap { $0 >= 0 ? $0 : nil } }
        let action = EpisodeAction(podcast: podcast, episode: episode, guid: value["guid"]?.stringValue, action: kind,
                                   timestamp: timestamp, started: seconds("started"), position: seconds("position"),
                                   total: seconds("total"), device: value["device"]?.stringValue)
        return action.milliseconds == nil ? nil : action
    }

    static func json(_ action: EpisodeAction) -> JSONValue {
        var members: [JSONValue.Member] = [.init("podcast", .string(action.podcast)), .init("episode", .string(action.episode))]
        if let guid = action.guid { members.append(.init("guid", .string(guid))) }
        members += [.init("action", .string(action.action.rawValue)), .init("timestamp", .string(action.timestamp))]
        for (name, value) in [("started", action.started), ("position", action.position), ("total", action.total)] {
            if let value { members.append(.init(name, .number(Double(value)))) }
        }
        if let device = action.device { members.append(.init("device", .string(device))) }
        return .object(members)
    }
}
