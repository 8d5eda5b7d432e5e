import AliciaLocks
// Joins: what follows the entry being written is opened (fetched ahead while it plays) and its
// first frame is written right after that entry's last. Feeder thread only.
extension PlayerCore {
    /// Opens what follows `source` and sets the chain for it, so its first frame is written right
    /// after `source`'s last; nil when nothing follows. Entries that cannot be opened or joined are
    /// made known once and passed over; a request meanwhile is thrown.
    func join(after source: ItemSource) throws(Detour) -> ItemSource? {
        var after = source.entry
        while let next = shared.withLock({ $0.commands.queue.entry(after: after) }) {
            after = next.id
            guard let opened = try openNext(next, after: source) else {
                // The looping entry could not go back to its start: the queue ends there.
                if next.id == source.entry { return nil }
                continue
            }
            guard let format = opened.format, let sinkFormat = feeder.sinkFormat,
                  let sink = shared.withLock({ $0.status.sink }) else { return nil }
            if opened !== source, output.fixedFormat == nil, Self.needsBetterOutput(format, than: sinkFormat) {
                // Each item at its own quality: the output is reopened rather than this one lose.
                guard let error = try reopenOutput(for: opened, after: source.entry, title: next.item.title, sink: sink) else { return opened }
                report(error, of: next.id)
                opened.close()
                continue
            }
            guard let error = try prepareJoin(to: opened, format: format, sinkFormat: sinkFormat, sink: sink) else { return opened }
            report(error, of: next.id)
            if opened !== source { opened.close() }
        }
        return nil
    }

    /// The source for `next`, opened: `source` again at its start (a looping entry), the one
    /// prefetched, or a new one; nil when it cannot be opened (made known).
    private func openNext(_ next: QueueEntry, after source: ItemSource) throws(Detour) -> ItemSource? {
        if next.id == source.entry {
            // The entry loops: play it again from its start.
            guard let error = try positioned(source.position(at: 0)) else { return source }
            report(error, of: next.id)
            return nil
        }
        let made: ItemSource
        if let ready = usablePrefetch(for: next) {
            made = ready
        } else {
            do {
                // It plays from its start, as a prefetch would: the window streams from the header
                // on. (Made without it, after an entry that failed at the join, it fetched only its
                // header while its start gate waited for two seconds of audio: the rest of the
                // queue was silent, forever.)
                made = try makeSource(next.id, next.item, ahead: true)
            } catch {
                report(error, of: next.id)
                return nil
            }
        }
        shared.withLock { s in
            s.status.prefetch = nil
            s.status.item = made
            if s.commands.hasRequest { made.interruptReader() }
        }
        if made.format == nil {
            Log.info(.engine, "join: \(next.id) is not ready, waiting for its header")
        }
        let failure: PlaybackError?
        do throws(Detour) {
            failure = try open(made)
        } catch {
            source.close()
            throw error
        }
        if let failure {
            report(failure, of: next.id)
            made.close()
            shared.withLock { $0.status.item = source }
            return nil
        }
        source.close()
        return made
    }

    /// Sets the chain for `next` (a converter when its format is not the stream's), moves its
    /// decoder to its start and maps what follows; nil, or why it cannot join.
    private func prepareJoin(to next: ItemSource, format: AudioFormat, sinkFormat: AudioFormat, sink: any AudioSink) throws(Detour) -> PlaybackError? {
        // What the stages still hold of the last entry goes out first, so the map's boundary is exact.
        if let chain = feeder.chain { try wrote(chain.flush { self.write($0, to: sink) }, for: next.entry) }
        let ratio: Double
        do {
            ratio = try convert(format, into: sinkFormat)
        } catch {
            return error
        }
        if format.streamFormat != sinkFormat {
            Log.info(.engine, "join: \(next.entry) converted from \(format.sampleRate) Hz, \(format.channels) ch to \(sinkFormat.sampleRate) Hz, \(sinkFormat.channels) ch")
        }
        let frame = next.frame(for: next.item.start)
        if let error = try positioned(next.position(at: frame)) { return error }
        try startEntry(next, at: frame, sameEntry: false, joined: true)
        shared.withLock { s in
            s.status.map.begin(entry: next.entry, format: format, sourceStart: frame, ratio: ratio * s.commands.speed)
            s.status.decodedFrame = frame
            s.commands.sleep.joined()
        }
        return nil
    }

    /// When the entry decoding now has about its read-ahead left, the next one starts fetching, so
    /// the join finds its header and first seconds there.
    func prefetchIfDue(_ source: ItemSource) {
        guard let format = source.format, let frames = format.frames ?? source.completeFrames else { return }
        let prefetched = feeder.prefetched
        let due = shared.withLock { s -> QueueEntry? in
            guard s.status.prefetch == nil, prefetched != s.commands.queue.entry(after: source.entry)?.id else { return nil }
            let left = Double(frames - s.status.decodedFrame) / Double(format.sampleRate)
            guard left <= configuration.readAheadSeconds else { return nil }
            guard let next = s.commands.queue.entry(after: source.entry), next.id != source.entry else { return nil }
            return next
        }
        guard let due else { return }
        feeder.prefetched = due.id
        do {
            let made = try makeSource(due.id, due.item, ahead: true)
            Log.info(.engine, "prefetching \(due.id) (\(due.item.location.display))")
            shared.withLock { $0.status.prefetch = made }
            feeder.loudness.prefetching(due.id, due.item)
        } catch {
            // Reported when the join reaches it.
            Log.info(.engine, "prefetch of \(due.id) failed: \(error.message)")
        }
    }
}
