import AliciaLocks
// A growing item (a synthesis voiced as it plays) whose reader reached the end of the chunks
// listed so far: what is written plays out, then the feeder waits in silence, in a state of its
// own (`voicing`), until the next chunk is listed, the item is known to end, or a request comes.
// Never a repeated or wrong chunk: nothing is written while it waits. Feeder thread only.
extension PlayerCore {
    /// One wait for the next chunk before the feeder looks at its requests again.
    static let voicingWait = Duration.milliseconds(100)

    /// Waits at the end of `source`'s known parts; returns when it can read on (or has ended).
    func waitForVoice(_ source: ItemSource, chain: StageChain, sink: any AudioSink) throws(Detour) {
        let entry = source.entry
        // While the sink still has audio queued the next chunk may come in time: nothing between.
        if try awaitWhileQueued(source, sink: sink) { return }
        // What is written plays out first, so the silence is only while the voice is behind.
        try wrote(chain.flush { self.write($0, to: sink) }, for: entry)
        try wrote(sink.drain(), for: entry)
        shared.withLock { $0.status.map.markPlayedOut() }
        observe(sink)
        setVoicing(entry, true)
        Log.info(.engine, "\(entry): voicing… (played the \(source.parts.count) chunks listed so far)")
        defer { setVoicing(entry, false) }
        while true {
            if let request = shared.takeRequest() { throw .next(request) }
            switch source.awaitGrowth(patience: Self.voicingWait) {
            case .grown:
                Log.info(.engine, "\(entry): chunk \(source.parts.count) voiced")
                return
            case .finished:
                return
            case .interrupted:
                continue
            }
        }
    }

    /// Waits for the next chunk while the sink has more than `voicingMargin` queued; true when it
    /// came (or the item is known to end), false when the sink is about to run dry without it.
    private func awaitWhileQueued(_ source: ItemSource, sink: any AudioSink) throws(Detour) -> Bool {
        guard let rate = feeder.sinkFormat?.sampleRate, rate > 0 else { return false }
        while true {
            if let request = shared.takeRequest() { throw .next(request) }
            let queued = shared.withLock { $0.status.map.written } - sink.playedFrames()
            guard Double(queued) / Double(rate) > Self.voicingMargin else { return false }
            switch source.awaitGrowth(patience: .milliseconds(20)) {
            case .grown, .finished: return true
            case .interrupted: observe(sink)
            }
        }
    }

    /// Below this much audio queued in the sink, the feeder stops waiting for the next chunk to
    /// come in time and lets the sink play out.
    static let voicingMargin = 0.06

    /// Shows (and posts) the state `voicing` while waiting, and takes it back after: the next write
    /// makes it playing again.
    private func setVoicing(_ entry: QueueEntryID, _ waiting: Bool) {
        let changed = shared.update { s -> Bool in
            if waiting {
                guard !s.commands.paused, s.status.state == .playing || s.status.state == .buffering else { return false }
                s.status.state = .voicing
                return true
            }
            guard s.status.state == .voicing else { return false }
            s.status.state = .buffering
            return false
        }
        if changed { post(entry, .stateChanged(.voicing)) }
    }
}
