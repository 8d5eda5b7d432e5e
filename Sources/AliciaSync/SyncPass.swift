import AliciaCache
import AliciaSession
import AliciaStore
import AliciaSubscriptions

/// One sync with the server, as gPodder and AntennaPod do it: subscriptions both ways (the server's
/// changes since its last timestamp first, then this library's own), then episode actions (the
/// account's since its last timestamp taken where they are newer, then what was heard here since
/// the last upload, in batches). Every step saves the state it reached, so a pass cut short by a
/// failure goes on from there next time and loses nothing: what was not uploaded stays newer than
/// the upload mark.
package struct SyncPass {
    package let client: SyncClient
    package let store: LibraryStore
    package let positions: PositionStore
    /// Subscribes to feeds the account has and the library does not (fetching them).
    package var subscriptions: Subscriptions
    /// Batches of this many actions (AntennaPod uploads 30 at a time).
    package var batch = 30
    /// Alicia's episodes heard in this session, by label (`SyncAgent` gathers them).
    package var aliases: [String: SyncAlias] = [:]
    /// The download cache, whose files go as `download` actions (and, once gone, `delete`).
    package var cache: MediaCache?

    /// What a pass did, for `sync` and `sync status`.
    package struct Report: Equatable, Sendable {
        package var subscribedHere: [String] = []
        package var unsubscribedHere: [String] = []
        package var movedHere = 0
        package var sentAdded = 0
        package var sentRemoved = 0
        package var actionsSent = 0
        package var actionsReceived = 0
        package var positionsTaken = 0
        /// Entries of the server's that were not actions, left out.
        package var skipped = 0
        /// Feeds that could not be fetched: subscribed all the same, filled by the next refresh.
        package var problems: [String] = []
    }

    package init(client: SyncClient, store: LibraryStore, positions: PositionStore) {
        self.client = client
        self.store = store
        self.positions = positions
        subscriptions = Subscriptions(store: store)
    }

    /// Runs the pass; the state is saved as it goes, and the failure that stopped it (if any) is
    /// kept in it as the last error.
    package func run(now: () -> Int64 = { LibraryStore.nowMilliseconds() }) throws(SyncError) -> Report {
        var state = try SyncState.load(store, for: client.account)
        state.aliases.merge(aliases) { _, new in new }
        if state.aliases.count > SyncState.aliasLimit {
            state.aliases = state.aliases.filter { aliases[$0.key] != nil }
        }
        var report = Report()
        do throws(SyncError) {
            try client.registerDevice(caption: "alicia-player on \(client.account.device)")
            try syncSubscriptions(&state, &report)
            // One index of the library's episodes for both directions (after the subscriptions,
            // whose new shows it holds).
            let index = try ReferenceIndex(store, aliases: state.aliases)
            try receiveActions(&state, &report, index: index)
            try sendActions(&state, &report, index: index)
            state.lastError = nil
            state.lastSyncMS = now()
            try state.save(store)
            return report
        } catch {
            state.lastError = error.message
            try? state.save(store)
            throw error
        }
    }

    /// Subscriptions: the server's changes applied here, then this library's sent.
    func syncSubscriptions(_ state: inout SyncState, _ report: inout Report) throws(SyncError) {
        var (remote, timestamp) = try client.subscriptions(since: state.subscriptionsSince)
        if state.subscriptionsSince == 0 { remote.add = Array(Set(remote.add).union(try client.allSubscriptions())).sorted() }
        var known = Set(state.known)
        let local = try showURLs()
        let wanted = remote.add.filter { !local.contains($0) && !remote.remove.contains($0) }
        if !wanted.isEmpty { report.subscribedHere = subscribe(wanted, &report) }
        for url in remote.remove where known.contains(url) && local.contains(url) {
            if try removeShow(url) { report.unsubscribedHere.append(url) }
        }
        known.formUnion(remote.add)
        known.subtract(remote.remove)
        state.subscriptionsSince = timestamp
        state.known = known.sorted()
        try state.save(store)

        let now = try showURLs()
        let changes = SubscriptionChanges(add: now.subtracting(known).sorted(), remove: known.subtracting(now).sorted())
        guard !changes.isEmpty else { return }
        let (sent, updated) = try client.upload(changes)
        report.sentAdded = changes.add.count
        report.sentRemoved = changes.remove.count
        var agreed = now
        for (old, new) in updated where agreed.contains(old) {
            if try moveShow(old, to: new) { report.movedHere += 1 }
            agreed.remove(old)
            agreed.insert(new)
        }
        state.known = agreed.sorted()
        if let sent { state.subscriptionsSince = max(state.subscriptionsSince, sent) }
        try state.save(store)
    }

    /// Subscribes to `urls` (their feeds fetched); one that cannot be fetched now is kept as a show
    /// without episodes, which the next refresh fills, so a feed that is down is never taken for
    /// one the listener dropped. The URLs now in the library.
    private func subscribe(_ urls: [String], _ report: inout Report) -> [String] {
        let outcome = subscriptions.subscribe(urls)
        report.problems += outcome.problems
        var added: [String] = []
        for url in urls {
            do {
                if try store.showID(forURL: url) == nil {
                    // Not a feed that failed to come (a page that named another feed is subscribed under that one).
                    guard outcome.problems.contains(where: { $0.contains(Subscriptions.shown(url)) }) else { continue }
                    _ = try store.upsertShow(url: url)
                }
                added.append(url)
            } catch {
                report.problems.append("\(url): \(error.message)")
            }
        }
        return added
    }

    func showURLs() throws(SyncError) -> Set<String> {
        do {
            return Set(try store.shows().map(\.url))
        } catch {
            throw SyncError("sync: \(error.message)")
        }
    }

    private func removeShow(_ url: String) throws(SyncError) -> Bool {
        do {
            guard let id = try store.showID(forURL: url) else { return false }
            return try store.removeShow(id)
        } catch {
            throw SyncError("sync: \(error.message)")
        }
    }

    private func moveShow(_ old: String, to new: String) throws(SyncError) -> Bool {
        do {
            guard let id = try store.showID(forURL: old), try store.showID(forURL: new) == nil else { return false }
            try store.moveShow(id, to: new)
            return true
        } catch {
            throw SyncError("sync: \(error.message)")
        }
    }
}
