import AliciaSession
import AliciaStore

/// Episode actions: positions heard elsewhere taken where they are newer, positions heard here sent.
extension SyncPass {
    /// The account's actions since the last pass: per episode the newest `play` with a position,
    /// taken when it is newer than the position kept here (AntennaPod's rule), never when older.
    func receiveActions(_ state: inout SyncState, _ report: inout Report, index: ReferenceIndex) throws(SyncError) {
        let (actions, timestamp, skipped) = try client.actions(since: state.actionsSince)
        report.actionsReceived = actions.count
        report.skipped = skipped
        var newest: [String: (ms: Int64, action: EpisodeAction)] = [:]
        for action in actions where action.action == .play && action.position != nil {
            guard let ms = action.milliseconds else { continue }
            let key = index.key(for: action)
            if let seen = newest[key], seen.ms >= ms { continue }
            newest[key] = (ms, action)
        }
        for (key, (ms, action)) in newest {
            let position = Double(action.position ?? 0)
            let total = action.total.flatMap { $0 > 0 ? Double($0) : nil }
            let played = PositionStore.isPlayed(position: position, duration: total)
            let saved = SavedPosition(position: played ? 0 : position, duration: total, played: played, updated: Double(ms) / 1000)
            if positions.adopt(key, saved) {
                state.last[key] = SyncState.Mark(ms: ms, at: action.position ?? 0)
                report.positionsTaken += 1
            }
        }
        if report.positionsTaken > 0 && !positions.save() {
            throw SyncError("sync: the positions taken from the server could not be saved (\(positions.warnings.last ?? "the state directory"))")
        }
        state.actionsSince = timestamp
        try state.save(store)
    }

    /// What was heard (and downloaded) here since the last upload, as `play` (and `download`)
    /// actions of this device, oldest first, in batches; the marks move after each batch taken.
    func sendActions(_ state: inout SyncState, _ report: inout Report, index: ReferenceIndex) throws(SyncError) {
        try sendNew(&state, &report, index: index)
        let plays = SyncQueue.plays(positions: positions, state: state, index: index, device: client.account.device)
        for start in stride(from: 0, to: plays.count, by: batch) {
            let part = plays[start..<min(plays.count, start + batch)]
            _ = try client.upload(part.map(\.action))
            for play in part { state.last[play.key] = SyncState.Mark(ms: play.ms, at: play.action.position ?? 0) }
            state.uploadedMS = part.last?.ms ?? state.uploadedMS
            report.actionsSent += part.count
            try state.save(store)
        }
        try sendDownloads(&state, &report, index: index)
    }

    /// The episodes refreshes found since the last upload and still new, as `new` actions (gPodder
    /// marks them new on its side), in batches.
    private func sendNew(_ state: inout SyncState, _ report: inout Report, index: ReferenceIndex) throws(SyncError) {
        let found = index.byKey.values.filter { $0.isNew && $0.firstSeen > state.newSince }.sorted { $0.firstSeen < $1.firstSeen }
        for start in stride(from: 0, to: found.count, by: batch) {
            let part = found[start..<min(found.count, start + batch)]
            _ = try client.upload(part.map { reference in
                EpisodeAction(podcast: reference.showURL, episode: reference.episodeURL, guid: reference.guid, action: .new,
                              timestamp: EpisodeAction.timestamp(Int(reference.firstSeen)), device: client.account.device)
            })
            state.newSince = part.last?.firstSeen ?? state.newSince
            report.actionsSent += part.count
            try state.save(store)
        }
    }

    /// Each file downloaded since the last upload, as a `download` action, and each one removed
    /// since (evicted or cleared), as a `delete` action.
    private func sendDownloads(_ state: inout SyncState, _ report: inout Report, index: ReferenceIndex) throws(SyncError) {
        // The download cache is the truth of what is downloaded (its entries, not the database's index).
        let records = (cache?.entries() ?? []).map { (key: $0.key, completedMS: $0.downloadedMS) }
        let fresh = records.filter { $0.completedMS > state.downloadsMS }.sorted { $0.completedMS < $1.completedMS }
        let kept = Set(records.map(\.key)).filter { index.byKey[$0] != nil }
        let removed = Set(state.downloaded).subtracting(kept).sorted()
        func action(_ key: String, _ kind: EpisodeAction.Kind, at seconds: Int) -> EpisodeAction? {
            index.byKey[key].map { reference in
                EpisodeAction(podcast: reference.showURL, episode: reference.episodeURL, guid: reference.guid, action: kind,
                              timestamp: EpisodeAction.timestamp(seconds), device: client.account.device)
            }
        }
        let now = Int(LibraryStore.nowSeconds())
        let actions = fresh.compactMap { action($0.key, .download, at: Int($0.completedMS / 1000)) }
            + removed.compactMap { action($0, .delete, at: now) }
        guard !fresh.isEmpty || !removed.isEmpty || state.downloaded.count != kept.count else { return }
        if !actions.isEmpty {
            _ = try client.upload(actions)
            report.actionsSent += actions.count
        }
        state.downloadsMS = fresh.last?.completedMS ?? state.downloadsMS
        state.downloaded = kept.sorted()
        try state.save(store)
    }
}

/// The library's episodes by the names a server gives them: position key, media URL, and show and
/// GUID (tracking prefixes change an episode's URL; its GUID stays).
struct ReferenceIndex {
    var byKey: [String: SyncReference] = [:]
    var byURL: [String: SyncReference] = [:]
    var byGUID: [String: SyncReference] = [:]

    init(_ store: LibraryStore, aliases: [String: SyncAlias] = [:]) throws(SyncError) {
        let references: [SyncReference]
        do {
            references = try store.syncReferences()
        } catch {
            throw SyncError("sync: \(error.message)")
        }
        let spoken = aliases.map { SyncReference(positionKey: $0.key, episodeURL: $0.value.episode, guid: $0.value.guid, showURL: $0.value.podcast) }
        for reference in references + spoken {
            byKey[reference.positionKey] = reference
            byURL[reference.episodeURL] = reference
            byGUID[reference.showURL + "\n" + reference.guid] = reference
        }
    }

    /// Where `action`'s position is kept here: its episode's key when the library has it (by GUID
    /// within its show, then by URL), else her episode's label, else its media URL, the key any URL
    /// plays under.
    func key(for action: EpisodeAction) -> String {
        if let guid = action.guid, let reference = byGUID[action.podcast + "\n" + guid] { return reference.positionKey }
        if let reference = byURL[action.episode] { return reference.positionKey }
        return SyncAlias.label(of: action) ?? action.episode
    }
}

/// What waits to be sent: positions saved here since the last upload, of episodes the library
/// knows, that were not taken from the server.
package enum SyncQueue {
    /// How many positions wait (`sync status`).
    package static func waiting(store: LibraryStore, positions: PositionStore, state: SyncState) throws(SyncError) -> Int {
        plays(positions: positions, state: state, index: try ReferenceIndex(store, aliases: state.aliases), device: "").count
    }

    /// The `play` actions of what waits, oldest first, with the keys and save times they come from.
    static func plays(positions: PositionStore, state: SyncState, index: ReferenceIndex,
                      device: String) -> [(ms: Int64, key: String, action: EpisodeAction)] {
        var plays: [(ms: Int64, key: String, action: EpisodeAction)] = []
        for (key, saved) in positions.all {
            let ms = Int64((saved.updated * 1000).rounded(.down))
            guard ms > state.uploadedMS, state.last[key]?.ms != ms, let reference = index.byKey[key] else { continue }
            let total = saved.duration.map { Int($0.rounded()) }
            let position = saved.played ? (total ?? Int(saved.position)) : Int(saved.position)
            let started = state.last[key].map(\.at).flatMap { $0 <= position ? $0 : nil } ?? 0
            plays.append((ms, key, EpisodeAction(podcast: reference.showURL, episode: reference.episodeURL, guid: reference.guid,
                                                 action: .play, timestamp: EpisodeAction.timestamp(Int(ms / 1000)),
                                                 started: started, position: position, total: total, device: device)))
        }
        return plays.sorted { $0.ms < $1.ms }
    }
}
