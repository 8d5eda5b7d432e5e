import AliciaLocks
/// Measures whole items ahead of playing them, on a thread of its own (`alicia-loudness`): local
/// files, and every item of a player told to measure first (voice notes, which are too short for a
/// running estimate to settle). Each measurement reads the item through its own Range fetcher and
/// decoder (the one `DecoderOpener` picks, as for playing), so the playing one is never disturbed. Results go to `deliver`.
final class LoudnessAnalyzer: @unchecked Sendable {
    // @unchecked: `state` is lock-guarded; `thread` is written once in `init` and joined once in
    // `shutdown`.
    private struct Job {
        var entry: QueueEntryID
        var item: QueueItem
    }

    private struct State {
        var jobs: [Job] = []
        var asked: Set<QueueEntryID> = []
        /// The fetcher of the measurement running, for interrupting it at shutdown.
        var reading: RangeFetcher?
        var shutdown = false
    }
    private let state = ConditionLock(State())
    private var thread: NativeThread?
    private let deliver: @Sendable (QueueEntryID, LoudnessFigures?) -> Void

    /// Frames read per call while measuring.
    static let blockFrames = 8192

    init(deliver: @escaping @Sendable (QueueEntryID, LoudnessFigures?) -> Void) {
        self.deliver = deliver
        thread = NativeThread(name: "alicia-loudness") { [self] in run() }
    }

    /// Measures `item` (once per entry); the result is delivered when done.
    func measure(_ entry: QueueEntryID, _ item: QueueItem) {
        state.update { s in
            guard !s.asked.contains(entry) else { return }
            s.asked.insert(entry)
            s.jobs.append(Job(entry: entry, item: item))
        }
    }

    /// Ends the thread (a measurement running is interrupted). Call once.
    func shutdown() {
        state.update { s in
            s.shutdown = true
            s.reading?.interruptReader()
        }
        thread?.join()
        thread = nil
    }

    private func run() {
        while true {
            let job = state.withLock(waitingUntil: { !$0.jobs.isEmpty || $0.shutdown }) { s -> Job? in
                s.shutdown ? nil : s.jobs.removeFirst()
            }
            guard let job else { return }
            let figures = measureWhole(job.item)
            if state.withLock({ $0.shutdown }) { return }
            deliver(job.entry, figures)
        }
    }

    /// The item's figures from every frame of it; nil when it cannot be read or is silent.
    private func measureWhole(_ item: QueueItem) -> LoudnessFigures? {
        guard let fetcher = try? RangeFetcher(location: item.location, readAhead: 1024 * 1024) else { return nil }
        fetcher.fetchAhead()
        fetcher.start()
        defer {
            state.withLock { $0.reading = nil }
            fetcher.close()
        }
        let stop = state.withLock { s -> Bool in
            s.reading = fetcher
            return s.shutdown
        }
        guard !stop, let file = try? DecoderOpener.open(fetcher).decoder else { return nil }
        let format = file.format
        guard let meter = LoudnessMeter(channels: format.channels, sampleRate: format.sampleRate) else { return nil }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.blockFrames * format.bytesPerFrame, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let frames = file.read(into: buffer, frames: Self.blockFrames)
            guard frames > 0 else { break }
            meter.add(buffer, frames: frames, type: format.sampleType)
        }
        if file.interrupted || fetcher.failure != nil { return nil }
        return meter.figures
    }
}
