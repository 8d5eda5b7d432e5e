/// The requests of each dialect, as paths under the server's base URL. User and device ids are
/// checked before they get here (`SyncEndpoints.check`), so they need no escaping.
extension SyncDialect {
    /// Where a sync pass asks or tells something.
    package enum Request: Equatable, Sendable {
        /// gpodder.net: log in (answers 200 with the right password); Nextcloud: nothing of its own.
        case login
        /// gpodder.net: make or update this device.
        case device
        case subscriptions(since: Int64)
        /// gpodder.net: every device's subscriptions (the simple API), for a new device's first sync.
        case allSubscriptions
        case uploadSubscriptions
        case actions(since: Int64)
        case uploadActions
    }

    /// The path of `request` for `user` on `device`; nil when the dialect has no such request.
    package func path(_ request: Request, user: String, device: String) -> String? {
        switch (self, request) {
        case (.gpodderNet, .login): return "/api/2/auth/\(user)/login.json"
        case (.gpodderNet, .device): return "/api/2/devices/\(user)/\(device).json"
        case (.gpodderNet, .subscriptions(let since)): return "/api/2/subscriptions/\(user)/\(device).json?since=\(since)"
        case (.gpodderNet, .allSubscriptions): return "/subscriptions/\(user).json"
        case (.gpodderNet, .uploadSubscriptions): return "/api/2/subscriptions/\(user)/\(device).json"
        case (.gpodderNet, .actions(let since)): return "/api/2/episodes/\(user).json?since=\(since)"
        case (.gpodderNet, .uploadActions): return "/api/2/episodes/\(user).json"
        case (.nextcloud, .login), (.nextcloud, .device), (.nextcloud, .allSubscriptions): return nil
        case (.nextcloud, .subscriptions(let since)): return "/index.php/apps/gpoddersync/subscriptions?since=\(since)"
        case (.nextcloud, .uploadSubscriptions): return "/index.php/apps/gpoddersync/subscription_change/create"
        case (.nextcloud, .actions(let since)): return "/index.php/apps/gpoddersync/episode_action?since=\(since)"
        case (.nextcloud, .uploadActions): return "/index.php/apps/gpoddersync/episode_action/create"
        }
    }
}
