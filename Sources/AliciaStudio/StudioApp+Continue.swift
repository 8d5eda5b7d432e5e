import AliciaAudio
import AliciaLocks
import AliciaSession
import AliciaLibrary

/// Continue listening: the queue kept as it changes (`ContinueListening`), and the Studio opened
/// on it when nothing else was asked for.
extension StudioApp {
    /// While playing, the position is written again after this many seconds (the queue and the
    /// entry at once, a paused position exactly).
    static let continueStep = 5.0

    /// Writes the queue, the entry heard and where, when they changed.
    package func rememberQueue(exact: Bool) {
        // While an entry loads its position is not known yet: what was there stays.
        let state = view.snapshot().state
        guard state != .loading && state != .idle else { return }
        guard let now = ContinueListening.of(view, backend: model.backendName),
              now.differs(from: continued, step: Self.continueStep, exact: exact) else { return }
        if let failure = now.save(to: continuePath) {
            // Said once: the next change tries again without a word.
            if continued != nil || model.status == nil { setStatus("cannot keep the queue for next time: \(failure)", error: true) }
        }
        continued = now
        continuedKey = view.queue.entries.indices.contains(now.current) ? view.queue.entries[now.current].item.positionKey : nil
    }

    /// After the session has saved where the listener was (it closed): the queue kept says the same
    /// place as the positions store. The two were written moments apart, and a loaded machine plays
    /// on between them (SIGHUP: 8.4 s kept, 9.9 s stored).
    package func settleQueuePosition() {
        guard var kept = continued, let key = continuedKey, let saved = session.positions?.position(for: key),
              !saved.played, abs(saved.position - kept.position) >= 0.1 else { return }
        kept.position = saved.position
        if kept.save(to: continuePath) == nil { continued = kept }
    }

    /// Opens on the queue the last Studio left (against the same backend): its entries, the one
    /// heard last at its position, paused. Entries that no longer resolve are left out.
    package func restoreQueue() {
        guard let saved = ContinueListening.load(from: continuePath), saved.backend == model.backendName else { return }
        let resolver = QueueResolver(backend: setup.options.backend, session: setup.backend)
        var items: [QueueItem] = []
        var current: Int?
        for (index, entry) in saved.entries.enumerated() {
            // A read-aloud piece is kept as its playlist: not one item to come back to.
            guard !entry.reference.hasPrefix("playlist:"), case .success(var item) = resolver.item(entry.reference, title: entry.title) else { continue }
            if item.duration == nil { item.duration = entry.duration }
            if index == saved.current { current = items.count }
            items.append(item)
        }
        guard let current else { return }
        continued = saved
        if setup.backend == nil {
            // No library to show: the list is the queue taken up, each length as it was kept.
            restoredItems = items
            for (index, item) in items.enumerated() { itemLengths[index] = item.duration }
            model.library = queueLibrary()
        }
        // Paused before it loads: not a sound until space.
        _ = session.perform(.pause)
        session.perform(.load(LoadPlan(items, index: current, start: .seconds(saved.position))))
        model.nowPlaying = nowPlaying(items[current])
        if let index = model.nowPlaying?.entryIndex, let shown = model.visibleEntries.firstIndex(where: { $0.index == index }) {
            model.selection = shown
        }
        setStatus("continue listening: space plays \(items[current].label ?? items[current].title) from \(TimeSpec.clock(saved.position))")
    }
}
