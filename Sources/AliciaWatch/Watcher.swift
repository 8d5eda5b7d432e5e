#if canImport(Glibc)
import Glibc
#endif
import AliciaBackend
import AliciaLocks
import AliciaNotify
import AliciaStore
import AliciaSubscriptions

/// `alicia-player watch`: each round asks the backend for her proactive messages and its tracks, and
/// refreshes the subscribed feeds on their own schedule; what is new becomes desktop
/// notifications. Between rounds it sleeps in one `ppoll` on the bus until the next deadline,
/// taking the actions clicked. One thread: everything here runs on the caller's.
public final class Watcher {
    /// What a clicked action asks for: done by the command line (a running player, or a new one).
    public enum Action: Sendable, Equatable {
        case readAloud(String)
        case play(String)
    }

    public struct Options: Sendable {
        public var interval: Double = 60
        public var once = false
        /// A feed that does not say how often it changes is refreshed this often.
        public var feedInterval: Double = 12 * 3600

        public init(interval: Double = 60, once: Bool = false) {
            self.interval = interval
            self.once = once
        }
    }

    /// The app notifies at most three of her messages at once.
    public static let cap = 3
    static let proactiveKey = "watch.seen.proactive"
    static let tracksKey = "watch.seen.tracks"
    static let feedsKey = "watch.feeds.refreshed-at"

    let options: Options
    let client: BackendClient
    let store: LibraryStore
    let perform: (Action) -> Void
    let say: (String) -> Void
    private var bus: NotificationBus?
    private var capabilities = NotifyCapabilities(actions: false, sound: false)
    private var gate = NotificationGate<Action>()
    private var status = WatchStatus()
    private var failures = 0

    package init(options: Options, client: BackendClient, store: LibraryStore,
                perform: @escaping (Action) -> Void, say: @escaping (String) -> Void) {
        self.options = options
        self.client = client
        self.store = store
        self.perform = perform
        self.say = say
    }

    /// Runs until killed (or one round with `once`: exit 1 when anything failed).
    public func run() -> Int32 {
        while true {
            let healthy = round()
            // A feed that failed is its line and exit 1 for cron, but never slows her messages.
            if options.once { return healthy && status.isHealthy ? 0 : 1 }
            failures = healthy ? 0 : failures + 1
            let delay = WatchBackoff.delay(interval: options.interval, failures: failures)
            Log.info(.cli, "watch: next round in \(delay) s")
            sleep(seconds: delay)
        }
    }

    /// One round: the bus first (nothing is marked seen that could not be shown), then each source.
    /// False when the bus, the backend or the library failed (the next round then waits longer).
    func round() -> Bool {
        guard connect() else { return false }
        let proactive = proactiveRound()
        let episodes = episodesRound()
        return proactive && episodes
    }

    private func note(_ source: String, _ problem: String?) {
        if let line = status.report(source, problem: problem) { say(line) }
    }

    // MARK: The bus

    /// A connection, a server and its capabilities, or the line saying why not.
    private func connect() -> Bool {
        if bus == nil {
            switch NotificationBus.open() {
            case .success(let opened): bus = opened
            case .failure(let error):
                note("notifications", error.message)
                return false
            }
        }
        do throws(NotifyError) {
            guard let bus else { return false }
            capabilities = try bus.capabilities()
            gate.owner = try bus.owner()
            note("notifications", nil)
            return true
        } catch {
            if error.code == -ECONNRESET || error.code == -ENOTCONN { bus = nil }
            note("notifications", error.message)
            return false
        }
    }

    private func post(_ notification: DesktopNotification, _ action: Action) -> Bool {
        guard let bus else { return false }
        var notification = notification
        if !capabilities.actions { notification.actions = [] }
        if !capabilities.sound { notification.sound = nil }
        do throws(NotifyError) {
            gate.issued(try bus.send(notification), action)
            return true
        } catch {
            note("notifications", error.message)
            return false
        }
    }

    // MARK: Sources

    private func proactiveRound() -> Bool {
        let messages: [ProactiveMessage]
        do {
            messages = try client.proactive(limit: 30)
        } catch {
            note("backend", error.message)
            return false
        }
        note("backend", nil)
        let plan = WatchPlan.plan(messages, id: \.id.text, seen: seen(Self.proactiveKey), cap: Self.cap)
        for message in plan.notify {
            let notification = DesktopNotification(summary: "Alicia", body: message.text,
                                                   actions: [("read-aloud", "Read aloud")], sound: "message-new-instant")
            guard post(notification, .readAloud(message.text)) else { return false }
        }
        return remember(plan.markSeen, under: Self.proactiveKey)
    }

    /// Alicia's new tracks and the feeds' new episodes: one notification for all of them.
    private func episodesRound() -> Bool {
        var titles: [(title: String, reference: String)] = []
        var healthy = true
        do {
            let tracks = try client.tracks()
            let plan = WatchPlan.plan(tracks, id: { $0.label ?? $0.title }, seen: seen(Self.tracksKey), cap: tracks.count)
            titles += plan.notify.reversed().map { ($0.title, $0.label ?? $0.title) }
            healthy = remember(plan.markSeen, under: Self.tracksKey)
        } catch {
            note("backend", error.message)
            healthy = false
        }
        titles += refreshFeeds()
        guard let newest = titles.first else { return healthy }
        var body = titles.prefix(5).map(\.title).joined(separator: "\n")
        if titles.count > 5 { body += "\nand \(titles.count - 5) more" }
        let summary = titles.count == 1 ? "A new episode" : "\(titles.count) new episodes"
        return post(DesktopNotification(summary: summary, body: body, actions: [("play", "Play")]), .play(newest.reference)) && healthy
    }

    /// The feeds on their own schedule: each show whose feed says how often it changes
    /// (`update_frequency`) once that long has passed since it was last checked, any other every 12
    /// hours; the episodes the refresh added, newest (as it lists them) first. The first refresh
    /// (no time kept under `watch.feeds.refreshed-at`) asks every show, and counts as seen.
    private func refreshFeeds() -> [(title: String, reference: String)] {
        let now = LibraryStore.nowSeconds()
        let last = (try? store.value(forKey: Self.feedsKey)).flatMap { $0.flatMap { Int64($0) } }
        let subscriptions = Subscriptions(store: store)
        guard let shows = try? subscriptions.listed(), !shows.isEmpty else { return [] }
        let due = shows.filter { show in
            guard last != nil, let checked = show.lastChecked else { return true }
            let interval = show.metadata.updateFrequency.map { max(Double($0), 3600) } ?? options.feedInterval
            return Double(now - checked) >= interval
        }
        guard !due.isEmpty else { return [] }
        let report = subscriptions.refresh(due.map(\.url))
        note("feeds", report.problems.first)
        do {
            try store.setValue(String(now), forKey: Self.feedsKey)
        } catch {
            note("library", error.message)
        }
        guard last != nil else { return [] }
        return report.lines.filter { $0.hasPrefix("new: ") }.map { line in
            let reference = String(line.dropFirst(5))
            return (String(reference.split(separator: ":", maxSplits: 1).last ?? Substring(reference)).trimmingPrefix(" "), reference)
        }
    }

    private func seen(_ key: String) -> SeenList? {
        SeenList(stored: (try? store.value(forKey: key)) ?? nil)
    }

    private func remember(_ ids: [String], under key: String) -> Bool {
        var list = seen(key) ?? SeenList()
        list.insert(ids)
        do {
            try store.setValue(list.stored, forKey: key)
            note("library", nil)
            return true
        } catch {
            note("library", error.message)
            return false
        }
    }

    // MARK: Waiting

    /// Sleeps until `seconds` from now: in one `ppoll` on the bus at a time (the actions clicked
    /// handled as they come), or a plain one without a bus.
    private func sleep(seconds: Double) {
        let deadline = Self.monotonic() + seconds
        while true {
            let left = deadline - Self.monotonic()
            guard left > 0 else { return }
            let milliseconds = Int((left * 1000).rounded(.up))
            guard let bus else {
                _ = poll(nil, 0, Int32(clamping: milliseconds))
                continue
            }
            do throws(NotifyError) {
                guard try bus.wait(milliseconds: milliseconds) else { continue }
            } catch {
                self.bus = nil
                note("notifications", error.message)
                continue
            }
            while let signal = bus.next() { take(signal) }
        }
    }

    /// A signal the gate lets through is acted on; any other is only logged.
    private func take(_ signal: NotifySignal) {
        guard let (key, action) = gate.accept(signal) else {
            if case .action(let id, let key, let sender) = signal {
                Log.info(.cli, "watch: ignored action \(key) on notification \(id) from \(sender)")
            }
            return
        }
        switch (key, action) {
        case ("read-aloud", .readAloud), ("play", .play):
            Log.info(.cli, "watch: action \(key) on notification \(signal.id)")
            perform(action)
        default:
            break
        }
    }

    static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

extension String {
    fileprivate func trimmingPrefix(_ prefix: Character) -> String {
        String(drop { $0 == prefix })
    }
}
