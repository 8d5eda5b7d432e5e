import Synchronization
import AliciaLocks

/// A player's queue and its persistent output: one feeder thread that opens each entry (an
/// `ItemSource`), runs its frames through the stage chain (format conversion at joins, speed,
/// gain) into one sink that outlives entries, and records in a `FrameMap` what each sink frame
/// holds. The next entry is fetched while the current one plays and its first frame is written
/// right after the current one's last: a join is a write, not a reopen.
///
/// State by owner, as MPD splits `PlayerControl` from its player thread's `Player` and mpv's
/// `audio/out/buffer.c` sections `struct buffer_state` by who may touch each field: the commands
/// (`PlayerCommands`, written by `Player` through `command`), the status (`PlayerStatus`,
/// published by the feeder), both under one lock (`shared`), and what only the feeder touches
/// (`FeederState`: the chain, the chunk buffer, the features). The feeder is woken by
/// interrupting whatever it blocks on (a fetcher read, a sink write or drain, its one wait). Lock
/// order: `shared`, then a fetcher's, PulseAudio's or the event hub's lock; never the reverse.
final class PlayerCore: @unchecked Sendable {
    // @unchecked: `shared` is lock-guarded; `feeder` is touched by `run` and what it calls alone
    // (and by `shutdown` once the thread has joined); `thread` is written once in `start` and
    // joined once in `shutdown`.

    let configuration: PlayerConfiguration
    let shared: ConditionLock<CoreState>
    let hub: EventHub
    let output: OutputDevice
    private var thread: NativeThread?
    /// Feeder thread only.
    let feeder: FeederState

    /// Frames decoded per write to the sink: 2048 (43 ms at 48 kHz).
    static let chunkFrames = 2048
    /// Gain changes by the listener ramp over 20 ms: no click, no audible lag.
    static let volumeRamp = 0.02

    init(configuration: PlayerConfiguration, hub: EventHub, output: OutputDevice) {
        let shared = ConditionLock(CoreState())
        self.configuration = configuration
        self.shared = shared
        self.hub = hub
        self.output = output
        feeder = FeederState(shared: shared, hub: hub, configuration: configuration, output: output)
        if output.fixedFormat != nil { shared.withLock { $0.status.map.keepHistory() } }
    }

    func start() {
        thread = NativeThread(name: "alicia-feeder") { [self] in run() }
    }

    /// How long a stop or shutdown waits for the feeder after interrupting it: every wait of its own
    /// ends at once, so only a feeder stuck in C code (a decoder's endless loop) takes this long.
    static let stuckFeederPatience = Duration.seconds(3)

    /// Set when a stop or shutdown found the feeder stuck: later ones do not wait for it again.
    let feederStuck = Atomic<Bool>(false)

    /// How long the next stop or shutdown waits for the feeder.
    var feederPatience: Duration { feederStuck.load(ordering: .relaxed) ? .zero : Self.stuckFeederPatience }

    /// Ends the feeder thread and closes everything. Call once.
    func shutdown() {
        let growing = shared.update { s in
            s.commands.shutdown = true
            s.status.interrupt()
            return s.commands.queue.entries.compactMap(\.item.growth)
        }
        // Items still being voiced: their makers stop asking the backend.
        for growth in growing { growth.abandon() }
        // A feeder stuck inside a decoder's C code (no interruption reaches it there) is left to
        // the process's exit rather than holding the exit forever.
        if let thread, !thread.join(within: feederPatience) {
            feederStuck.store(true, ordering: .relaxed)
            Log.warning(.engine, "the feeder did not stop: left running")
            return
        }
        thread = nil
        feeder.loudness.shutdown()
    }

    func post(_ entry: QueueEntryID?, _ kind: PlayerEvent.Kind) {
        hub.post(PlayerEvent(entry: entry, kind: kind))
    }

    /// An entry's source, fetching with the configured network policy, corking the output while
    /// its reader has run dry. `ahead`: it plays from its start, so its window streams from the
    /// header on.
    func makeSource(_ entry: QueueEntryID, _ item: QueueItem, ahead: Bool = false) throws(PlaybackError) -> ItemSource {
        try ItemSource(entry: entry, item: item, ahead: ahead, network: configuration.network) { [weak self] starving in
            self?.rebuffer(starving)
        }
    }

    /// The reader ran dry (true: cork, state buffering) or has refilled (false: uncork; the next
    /// write makes it playing again). Called on the feeder thread, outside the fetcher's lock.
    private func rebuffer(_ starving: Bool) {
        let (sink, changed) = shared.update { s -> ((any AudioSink)?, QueueEntryID??) in
            guard s.status.starving != starving else { return (nil, nil) }
            s.status.starving = starving
            var changed: QueueEntryID?? = nil
            if starving && s.status.state == .playing {
                s.status.state = .buffering
                changed = .some(s.status.heard)
            }
            return (s.status.sink, changed)
        }
        sink?.setBuffering(starving)
        if let entry = changed { post(entry, .stateChanged(.buffering)) }
    }

    // MARK: Feeder thread

    private func run() {
        loop: while true {
            var next: Request? = shared.awaitRequest()
            while let request = next {
                switch request {
                case .quit: break loop
                case .stop:
                    stopPlayback()
                    next = nil
                case .play(let entry, let start):
                    next = play(entry, from: start)
                }
            }
            shared.update { $0.status.idle = true }
        }
        stopPlayback(quitting: true)
    }

    private func stopPlayback(quitting: Bool = false) {
        let (item, prefetch, sink) = shared.withLock { s -> (ItemSource?, ItemSource?, (any AudioSink)?) in
            defer {
                if let heard = s.status.heard, let location = s.status.location() {
                    s.status.resting = PlayerStatus.Resting(entry: heard, frame: location.sourceFrame, format: location.format)
                }
                s.rebaseSleep()
                s.status.item = nil
                s.status.prefetch = nil
                s.status.opened = nil
                s.status.sink = nil
                s.status.sinkRate = 0
                s.status.map.reset()
                s.status.decodedFrame = 0
                s.status.taken = nil
                if !quitting { s.status.state = .idle }
            }
            return (s.status.item, s.status.prefetch, s.status.sink)
        }
        item?.close()
        prefetch?.close()
        sink?.close()
        feeder.dropChain()
        feeder.skip.stop()
        feeder.prefetched = nil
    }

    /// A jump or a seek: plays `asked` from `askedStart` until the queue ends (nil) or a newer
    /// request arrives (returned).
    private func play(_ asked: QueueEntryID, from askedStart: Start) -> Request? {
        unwinding { () throws(Detour) -> Request? in
            let (entry, start) = askedStart == .heard ? stopWhereHeard(asked) : (asked, askedStart)
            guard let queued = shared.withLock({ s -> QueueEntry? in
                // A command meanwhile (a seek, another speed) starts from where this one goes.
                s.status.taken = s.commands.queue.entry(entry) == nil ? nil : (entry, start)
                return s.commands.queue.entry(entry)
            }) else { return nil }
            let sameEntry = shared.withLock { $0.status.item?.entry == entry }
            if sameEntry, case .frame(let frame) = start {
                Log.debug(.engine, "seek to frame \(frame) of \(entry): flushing")
            }
            if let request = flushOutput() { return request }
            // No stream yet: the sound server's handshake runs while the item's first bytes come.
            if shared.withLock({ $0.status.sink == nil }) { output.prepare() }
            let source = try adopt(queued, reuseCurrent: sameEntry)
            let frame = startFrame(start, source: source)
            let moved: PlaybackError?
            do throws(Detour) {
                moved = try positioned(source.position(at: frame))
            } catch {
                throw .next(shared.takeRequest() ?? .play(entry, .frame(frame)))
            }
            if let moved { return entryFailed(entry, error: moved) }
            // From the start, the ring fills at once rather than when the decoder first reads past
            // the header (a late answer to that request could underrun). Elsewhere the decoder's
            // first read moves the window there; fetching from the header on would waste the bytes.
            if frame == 0 { source.fetcher.fetchAhead() }
            let ratio = try prepareOutput(for: source, title: queued.item.title, at: frame)
            try startEntry(source, at: frame, sameEntry: sameEntry, joined: false)
            began(source, title: queued.item.title, at: frame, ratio: ratio)
            return feed(source)
        }
    }

    /// Stops the device and reads back where it stopped: the entry and frame to go on from.
    private func stopWhereHeard(_ entry: QueueEntryID) -> (QueueEntryID, Start) {
        guard let sink = shared.withLock({ $0.status.sink }) else {
            let resting = shared.withLock { $0.status.resting }
            if let resting, resting.entry == entry { return (entry, .frame(resting.frame)) }
            return (entry, .itemStart)
        }
        let played = sink.freeze()
        guard let location = shared.withLock({ $0.status.map.locate(played) }) else { return (entry, .itemStart) }
        return (location.entry, .frame(location.sourceFrame))
    }

    /// The source for `entry`, opened: the current one (a seek), the prefetched one, or a new one.
    private func adopt(_ entry: QueueEntry, reuseCurrent: Bool) throws(Detour) -> ItemSource {
        feeder.prefetched = nil
        let current = shared.withLock { $0.status.item }
        let prefetch = usablePrefetch(for: entry)
        let source: ItemSource
        if reuseCurrent, let current {
            source = current
        } else {
            current?.close()
            if let prefetch {
                source = prefetch
            } else {
                do {
                    source = try makeSource(entry.id, entry.item)
                } catch {
                    shared.withLock { $0.status.item = nil }
                    throw .next(entryFailed(entry.id, error: error))
                }
            }
            shared.withLock { s in
                if prefetch != nil { s.status.prefetch = nil }
                s.status.item = source
                // A command that came while it was being made must reach its reads too.
                if s.commands.hasRequest { source.interruptReader() }
            }
        }
        if let error = try open(source) { throw .next(entryFailed(entry.id, error: error)) }
        return source
    }

    /// The prefetched source when it is `entry`'s, from where the entry plays from now. Any other is
    /// closed: fetched for what was to follow another entry, or from a location the entry no longer
    /// plays from (`Player.relocate`: it was downloaded meanwhile).
    func usablePrefetch(for entry: QueueEntry) -> ItemSource? {
        guard let prefetch = shared.withLock({ $0.status.prefetch }) else { return nil }
        if prefetch.entry == entry.id && prefetch.item.location == entry.item.location { return prefetch }
        prefetch.close()
        shared.withLock { $0.status.prefetch = nil }
        return nil
    }

    /// Opens `source`'s decoder; nil, or why it cannot. A request that interrupts it is thrown.
    func open(_ source: ItemSource) throws(Detour) -> PlaybackError? {
        let alreadyOpen = source.format != nil && source.hasDecoder
        while true {
            switch source.open(readAheadSeconds: configuration.readAheadSeconds,
                               readAheadMaximumBytes: configuration.readAheadMaximumBytes,
                               downstreamSeconds: output.downstreamSeconds) {
            case .opened(let format):
                shared.withLock { s in
                    s.status.opened = PlayerStatus.Opened(entry: source.entry, format: format, byteRate: source.byteRate)
                    s.status.metadata = s.status.metadata.filter { s.commands.queue.entry($0.key) != nil }
                    s.status.metadata[source.entry] = source.metadata
                }
                if !alreadyOpen { post(source.entry, .formatKnown(format)) }
                return nil
            case .interrupted:
                if let request = shared.takeRequest() { throw .next(request) }
                source.clearInterrupt()
            case .failed(let error):
                return error
            }
        }
    }

    private func startFrame(_ start: Start, source: ItemSource) -> Int64 {
        // A live stream starts where it is now: a kept position means nothing in it.
        if source.format?.isLive == true {
            if case .frame(let frame) = start { return max(0, frame) }
            return 0
        }
        switch start {
        case .itemStart, .heard: return source.frame(for: source.item.start)
        case .position(let position): return source.frame(for: position)
        case .frame(let frame):
            // No seek past what has been listed of a growing item.
            guard let frames = source.format?.frames ?? (source.isGrowing ? source.knownFrames : nil) else { return max(0, frame) }
            return min(max(0, frame), frames)
        }
    }

    /// Maps what `source` writes from `frame` on and makes it the entry heard: posted as started
    /// (another entry) or as a seek.
    func began(_ source: ItemSource, title: String, at frame: Int64, ratio: Double) {
        guard let format = source.format else { return }
        let entry = source.entry
        let (changedEntry, state) = shared.update { s -> (Bool, PlayerState) in
            s.status.map.begin(entry: entry, format: format, sourceStart: frame, ratio: ratio)
            s.status.lastHeardPlace = PlayerStatus.Resting(entry: entry, frame: frame, format: format)
            s.status.decodedFrame = frame
            s.status.taken = nil
            let changed = s.status.heard != entry
            s.hear(entry)
            s.status.resting = nil
            s.status.errors[entry] = nil
            s.status.truncated.remove(entry)
            // Cues of this entry ahead of where it now plays are armed again (a seek back, a replay).
            s.armNewCues()
            for cue in s.commands.cues where cue.entry == entry && cue.at.frame(in: format) > frame {
                s.status.firedCues.remove(cue.id)
            }
            s.status.state = s.commands.paused ? .paused : .buffering
            return (changed, s.status.state)
        }
        if changedEntry {
            post(entry, .entryStarted)
            shared.withLock { $0.status.sink }?.setMediaName(title)
        } else {
            post(entry, .seeked(toFrame: frame))
        }
        post(entry, .stateChanged(state))
    }

    // MARK: Feeding, and the features' hooks

    /// Feeds `source` and the entries that follow it, joined, until the queue ends (nil) or a
    /// request arrives (returned).
    private func feed(_ first: ItemSource) -> Request? {
        var source = first
        while true {
            if let request = shared.takeRequest() { return request }
            guard let sink = shared.withLock({ $0.status.sink }), let chain = feeder.chain, let format = source.format else { return nil }
            do throws(Detour) {
                if try feedChunk(source, format: format, chain: chain, sink: sink) { continue }
                source = try finishEntry(source, format: format, chain: chain, sink: sink)
            } catch {
                switch error {
                case .again: continue
                case .next(let request): return request
                }
            }
        }
    }

    /// One chunk of `source`: the hooks before it, a read, the write through skip silence and the
    /// stages, the hooks after it. False once the entry's decoding has ended.
    private func feedChunk(_ source: ItemSource, format: AudioFormat, chain: StageChain, sink: any AudioSink) throws(Detour) -> Bool {
        let entry = source.entry
        try beforeChunk(source, format: format, chain: chain, sink: sink)
        guard source.hasDecoder else {
            if let error = try positioned(source.position(at: shared.withLock { $0.status.decodedFrame })) {
                throw .next(entryFailed(entry, error: error))
            }
            return true
        }
        let buffer = feeder.chunkBuffer(for: format)
        let wanted = feeder.sleep.readLimit
        let frames = source.read(into: buffer, frames: wanted)
        if frames > 0 {
            shared.withLock { $0.status.decodedFrame += Int64(frames) }
            feeder.loudness.followChunk(buffer, frames: frames, format: format, entry: entry)
            let decoded = UnsafeRawBufferPointer(start: buffer, count: frames * format.bytesPerFrame)
            try wrote(feeder.skip.process(decoded) { chain.process($0) { self.write($0, to: sink) } }, for: entry)
            afterChunk(source, sink: sink)
        }
        if frames == wanted { return true }
        if source.interrupted {
            // A command cut a read short: the decoder's state is unknown; it is made again.
            source.dropDecoder()
            return true
        }
        if source.atEndOfKnownParts {
            try waitForVoice(source, chain: chain, sink: sink)
            return true
        }
        return false
    }

    /// An entry starts being written at `frame` (a start, a seek, a join): the features set up for
    /// it. A request that comes while loudness is measured first is thrown.
    func startEntry(_ source: ItemSource, at frame: Int64, sameEntry: Bool, joined: Bool) throws(Detour) {
        guard let format = source.format else { return }
        feeder.skip.startEntry(format: format, at: frame, newItem: !sameEntry)
        if let request = feeder.loudness.startEntry(source, format: format, at: frame, sameEntry: sameEntry, joined: joined) {
            throw .next(request)
        }
    }

    /// Before each chunk: the listener's gain, a skip level changed, the sleep timer's fade, and
    /// its end (asleep until a resume, which starts the loop over).
    private func beforeChunk(_ source: ItemSource, format: AudioFormat, chain: StageChain, sink: any AudioSink) throws(Detour) {
        applyGain()
        try wrote(feeder.skip.followLevel(format: format) { chain.process($0) { self.write($0, to: sink) } }, for: source.entry)
        guard feeder.sleep.followChunk(format: format, entry: source.entry, gain: feeder.gainStage) else { return }
        try fallAsleep(source.entry, chain: chain, sink: sink)
        throw .again
    }

    /// After each chunk is written: playing, where the listener is and what it passed, a moved
    /// stream said, the next entry fetched when due.
    private func afterChunk(_ source: ItemSource, sink: any AudioSink) {
        markPlaying()
        observe(sink)
        followLive(source)
        if let move = sink.takeMove() {
            Log.info(.output, "the stream moved from sink '\(move.from)' to '\(move.to)'")
            post(source.entry, .outputMoved(move))
        }
        prefetchIfDue(source)
    }

    /// `source`'s decoding has ended: the hooks at its end, its end mapped; the sleep timer may end
    /// with it; then what follows is joined (returned), or the queue ends here (thrown).
    private func finishEntry(_ source: ItemSource, format: AudioFormat, chain: StageChain, sink: any AudioSink) throws(Detour) -> ItemSource {
        // A pause it ends on is shortened first.
        try wrote(feeder.skip.endEntry { chain.process($0) { self.write($0, to: sink) } }, for: source.entry)
        let decoded = shared.withLock { $0.status.decodedFrame }
        feeder.loudness.endEntry(source, decoded: decoded)
        if let fetchFailure = source.failure, let frames = format.frames, decoded < frames {
            // The network gave up part-way: what was there has been written; it ends here, failed.
            shared.withLock { $0.status.map.end(at: decoded) }
            throw .next(endOfQueue(after: source, sink: sink, failure: fetchFailure))
        }
        // Short of an estimated length is no truncation: the estimate was off, not the file.
        let truncated = source.isTruncated || (!format.framesEstimated && format.frames.map { decoded < $0 } ?? false)
        let sleepsHere = shared.withLock { s -> Bool in
            s.status.map.end(at: decoded)
            if truncated { s.status.truncated.insert(source.entry) }
            return s.commands.sleep.endsWithEntry
        }
        // The timer ends with this entry: the next one does not start until a resume.
        if sleepsHere { try fallAsleep(source.entry, chain: chain, sink: sink) }
        let next: ItemSource?
        do throws(Detour) {
            next = try join(after: source)
        } catch {
            guard case .again = error, shared.withLock({ !$0.commands.hasRequest }) else { throw error }
            next = nil
        }
        guard let next else { throw .next(endOfQueue(after: source, sink: sink, failure: nil)) }
        return next
    }

    /// The timer has ended (the fade is at silence): lets what is written play out, then pauses
    /// there and waits for a resume (returns) or a request (thrown). The position stays there.
    private func fallAsleep(_ entry: QueueEntryID, chain: StageChain, sink: any AudioSink) throws(Detour) {
        try wrote(chain.flush { self.write($0, to: sink) }, for: entry)
        try wrote(sink.drain(), for: entry)
        shared.withLock { $0.status.map.markPlayedOut() }
        observe(sink)
        let heard = feeder.sleep.fellAsleep(gain: feeder.gainStage)
        Log.info(.engine, "sleep timer: paused")
        post(heard, .sleepTimerEnded)
        post(heard, .stateChanged(.paused))
        if let request = shared.awaitRequest(orUntil: { !$0.commands.paused }) { throw .next(request) }
    }

    /// Writes into the sink and maps what went in.
    func write(_ bytes: UnsafeRawBufferPointer, to sink: any AudioSink) -> SinkResult {
        let result = sink.write(bytes)
        if case .done = result, let format = feeder.sinkFormat {
            shared.withLock { $0.status.map.advance(by: Int64(bytes.count / format.bytesPerFrame)) }
        }
        return result
    }

    private func applyGain() {
        let applied = feeder.gainChangesApplied
        let change = shared.withLock { s -> (Double, Double, Int)? in
            guard s.commands.gainChanges != applied else { return nil }
            return (s.commands.gain, s.commands.gainRamp, s.commands.gainChanges)
        }
        guard let (gain, ramp, changes) = change else { return }
        feeder.gainChangesApplied = changes
        feeder.gainStage?.setTarget(gain, ramp: ramp)
    }

    /// The last entry's frames are written: let them play out, then report the end.
    func endOfQueue(after source: ItemSource, sink: any AudioSink, failure: PlaybackError?) -> Request? {
        unwinding { () throws(Detour) -> Request? in
            if let chain = feeder.chain { try wrote(chain.flush { self.write($0, to: sink) }, for: source.entry) }
            // The voice-note player's end hands the output back to the episode: by the server's timing.
            let handsOff = shared.withLock { $0.commands.queue.consume }
            try wrote(handsOff ? sink.drainForHandoff() : sink.drain(), for: source.entry)
            shared.withLock { $0.status.map.markPlayedOut() }
            observe(sink)
            let (entry, truncated) = shared.update { s -> (QueueEntryID?, Bool) in
                guard let heard = s.status.heard else { return (nil, false) }
                s.status.state = failure == nil ? .ended : .failed
                s.consume(heard)
                return (heard, s.status.truncated.contains(heard))
            }
            if let failure {
                report(failure, of: entry)
                post(entry, .stateChanged(.failed))
            } else {
                post(entry, .ended(truncated: truncated))
                post(entry, .stateChanged(.ended))
            }
            post(nil, .queueEnded)
            // Ended: the entry stays open (a seek plays it again at once) until the next request.
            return shared.awaitRequest()
        }
    }

    private func markPlaying() {
        let changed = shared.withLock { s -> QueueEntryID?? in
            guard s.status.state == .buffering || s.status.state == .voicing, !s.commands.paused else { return nil }
            s.status.state = .playing
            return .some(s.status.heard)
        }
        if let entry = changed { post(entry, .stateChanged(.playing)) }
    }

    /// Reads what the sink has played against the map and posts what the listener passed. Called
    /// after every write, so events follow the listener within a chunk.
    func observe(_ sink: any AudioSink) {
        let events = shared.withLock { $0.listenerReached(sink.playedFrames()) }
        guard !events.isEmpty else { return }
        for event in events { hub.post(event) }
        if events.contains(where: { $0.kind == .entryStarted }),
           let title = shared.withLock({ s in s.status.heard.flatMap { s.commands.queue.entry($0)?.item.title } }) {
            sink.setMediaName(title)
        }
    }
}

extension AudioFormat {
    /// The stream's format for this item: the same samples, with no length of its own.
    var streamFormat: AudioFormat {
        AudioFormat(sampleRate: sampleRate, channels: channels, sampleType: sampleType, frames: nil)
    }
}
