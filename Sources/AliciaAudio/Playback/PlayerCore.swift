#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Makes the output stream for a format: PulseAudio in use, a recording fake in unit tests.
typealias SinkMaker = @Sendable (_ format: AudioFormat, _ mediaName: String) throws(PlaybackError) -> any AudioSink

/// A player's queue and its persistent output: one feeder thread that opens each entry (an
/// `ItemSource`), runs its frames through the stage chain (format conversion at joins, speed,
/// gain) into one sink that outlives entries, and records in a `FrameMap` what each sink frame
/// holds. The next entry is fetched while the current one plays and its first frame is written
/// right after the current one's last: a join is a write, not a reopen.
///
/// Commands are recorded in `control` and the feeder is woken by interrupting whatever it blocks
/// on (a fetcher read, a sink write or drain, its idle wait). Lock order: `control`, then a
/// fetcher's, PulseAudio's or the event hub's lock; never the reverse.
final class PlayerCore: @unchecked Sendable {
    // @unchecked: `control` is lock-guarded; the fields marked "feeder thread only" are touched by
    // `run` alone; `thread` is written once in `start` and joined once in `shutdown`.

    /// What the feeder is asked to do next.
    enum Request: Equatable {
        /// Play `entry` from `start` (a jump to another entry, or a seek within this one).
        case play(QueueEntryID, Start)
        /// Stop: flush, close the entry and the stream, go idle.
        case stop
    }

    enum Start: Equatable {
        /// The item's own start (`QueueItem.start`, else its beginning).
        case itemStart
        case position(StartPosition)
        case frame(Int64)
        /// Where the listener is when the feeder takes it: the device is stopped first and its exact
        /// frame read back (a speed change: nothing heard twice, nothing skipped).
        case heard
    }

    // Structs, not labelled tuples: an optional tuple is handled through tuple metadata made at run
    // time from its mangled name, and the labels go through libstdc++'s strings, 128 KiB of its code
    // pages for these two fields.
    struct Opened {
        var entry: QueueEntryID
        var format: AudioFormat
        var byteRate: Double
    }

    struct Resting {
        var entry: QueueEntryID
        var frame: Int64
        var format: AudioFormat?
    }

    struct Measurement {
        var figures: LoudnessFigures?
    }

    struct Control {
        var queue = PlayQueue()
        var request: Request?
        var shutdown = false
        /// The feeder waits for a request (after a stop, the end of the queue, or before the first play).
        var idle = true
        var state: PlayerState = .idle
        var paused = false
        var held = false
        var volume = 1.0
        var duck = 1.0
        var duckRamp = 0.0
        var gainChanged = false
        var speed = 1.0
        /// The entry's reader ran dry while playing: the sink is corked until it has refilled.
        var starving = false
        /// The sound server went away: what is tried (nil while it answers).
        var soundServerLost: String?
        /// Where the listener was at the last look at the sink (after every write): where to go on
        /// from if the server goes away, whose last timing info cannot be trusted then.
        var lastHeardPlace: Resting?
        var silenceSkipping: SilenceSkipping = .off
        /// Seconds of skipped silence the listener has passed, per entry and in all.
        var silenceSaved: [QueueEntryID: Double] = [:]
        var silenceSavedTotal = 0.0
        /// The sleep timer; for `.after`, its seconds are what was left at the sink's played frame
        /// `sleepAnchor` (of this segment), so only what the sink plays counts.
        var sleep: SleepTimer = .off
        var sleepAnchor: Int64 = 0
        /// The sink's rate, for the sleep timer's frames (0 without a sink).
        var sinkRate = 0
        var loudness: LoudnessMatching = .off
        /// Whole-item measurements done, by entry (nil figures: it could not be measured).
        var measured: [QueueEntryID: Measurement] = [:]
        /// The loudness gain (dB) set for the entry being written, and the limiter's deepest
        /// reduction so far in it (dB, 0 or less).
        var loudnessGain = 0.0
        var limiterReduction = 0.0
        var sink: (any AudioSink)?
        /// The entry being decoded and the one fetched ahead, for interrupting their reads (their
        /// other fields are the feeder's: read `opened` instead).
        var item: ItemSource?
        var prefetch: ItemSource?
        /// What the feeder knows of the entry it decodes, once it has opened.
        var opened: Opened?
        var map = FrameMap()
        /// The entry heard now; nil before anything played.
        var heard: QueueEntryID?
        /// Where playback rests when no sink holds a position (stopped, failed before playing).
        var resting: Resting?
        var errors: [QueueEntryID: PlaybackError] = [:]
        var truncated: Set<QueueEntryID> = []
        var cues: [PositionCue] = []
        var firedCues: Set<Int> = []
        /// Frame the decoder of `item` produces next.
        var decodedFrame: Int64 = 0
        /// A jump or seek the feeder has taken and not yet begun (it is flushing, opening or moving
        /// the decoder, and the map holds nothing of it yet). A seek asked meanwhile starts from it:
        /// presses that arrive together add up, and a seek pressed right after `n` or enter is
        /// about the entry jumped to, instead of starting from the frame heard before.
        var taken: (entry: QueueEntryID, start: Start)?

        /// The sink frame played now (of this segment): every frame written once it has drained.
        func played() -> Int64 {
            guard let sink else { return 0 }
            return map.playedOut ? map.written : sink.playedFrames()
        }

        /// The seconds of playing a `.after` sleep timer has left; nil for the others.
        func sleepSecondsLeft() -> Double? {
            guard case .after(let seconds) = sleep else { return nil }
            guard sinkRate > 0, sink != nil else { return seconds }
            return max(0, seconds - Double(played() - sleepAnchor) / Double(sinkRate))
        }

        /// Counts a `.after` timer from the frame played now: before the sink is flushed or closed
        /// (its frames count from 0 again), and when it is set.
        mutating func rebaseSleep() {
            if let left = sleepSecondsLeft() { sleep = .after(seconds: left) }
            sleepAnchor = 0
        }

        /// The sink frame (of this segment) at which a `.after` timer ends.
        func sleepDeadline() -> Int64? {
            guard case .after(let seconds) = sleep, sinkRate > 0 else { return nil }
            return sleepAnchor + FrameCount.of(seconds: seconds, rate: sinkRate)
        }

        /// Takes the waiting request, noting a jump or seek in flight.
        mutating func takeRequest() -> Request? {
            defer { request = nil }
            if case .play(let entry, let start)? = request { taken = (entry, start) } else { taken = nil }
            return request
        }
    }

    let configuration: PlayerConfiguration
    let control = ConditionLock(Control())
    let hub: EventHub
    private let makeSink: SinkMaker
    private var thread: NativeThread?

    // Feeder thread only.
    private var sinkFormat: AudioFormat?
    private var chain: StageChain?
    private var speedStage: SpeedStage?
    private var gainStage: GainStage?
    /// Shortens pauses in the entry's own frames, before the chain (nil while skip silence is off).
    private var skipper: SilenceSkipper?
    private var loudnessStage: LoudnessStage?
    /// Matched loudness of the entry being written: its running measurement (when no whole-item
    /// figures are known), whether that started at its first frame, and the gain aimed at.
    private var runningMeter: LoudnessMeter?
    private var runningFromStart = false
    private var loudnessEntry: QueueEntryID?
    private var loudnessAim: Double?
    /// The matching the gain was set for (a change plays on from the frame heard, like a speed).
    private var appliedMatching: LoudnessMatching?
    /// Frames the running meter had when the gain was last revised.
    private var revisedAt: Int64 = 0
    /// Made by the feeder when first needed; shut down by `shutdown` after the feeder has joined.
    private var analyzer: LoudnessAnalyzer?
    /// The converter in front of the chain while an entry in another format plays.
    private var converter: FormatConverter?
    private var buffer: UnsafeMutableRawPointer?
    private var bufferBytes = 0
    /// Frames the next read may decode: fewer than a chunk when the sleep timer ends inside it, so
    /// that at 1× the last frame written is the timer's last.
    private var readLimit = PlayerCore.chunkFrames
    /// The entry a prefetch was last started for (once each, even when it failed).
    private var prefetched: QueueEntryID?

    /// A sink has been open once: a server that goes away later is waited for, not a failure.
    private var hadSoundServer = false

    /// Frames decoded per write to the sink: 2048 (43 ms at 48 kHz).
    static let chunkFrames = 2048
    /// Gain changes by the listener ramp over 20 ms: no click, no audible lag.
    static let volumeRamp = 0.02

    init(configuration: PlayerConfiguration, hub: EventHub, makeSink: @escaping SinkMaker) {
        self.configuration = configuration
        self.hub = hub
        self.makeSink = makeSink
    }

    /// An entry's source, fetching with the configured network policy, corking the output while
    /// its reader has run dry.
    private func makeSource(_ entry: QueueEntryID, _ item: QueueItem, ahead: Bool = false) throws(PlaybackError) -> ItemSource {
        try ItemSource(entry: entry, item: item, ahead: ahead, network: configuration.network) { [weak self] starving in
            self?.rebuffer(starving)
        }
    }

    /// The reader ran dry (true: cork, state buffering) or has refilled (false: uncork; the next
    /// write makes it playing again). Called on the feeder thread, outside the fetcher's lock.
    private func rebuffer(_ starving: Bool) {
        let (sink, changed) = control.update { c -> ((any AudioSink)?, QueueEntryID??) in
            guard c.starving != starving else { return (nil, nil) }
            c.starving = starving
            var changed: QueueEntryID?? = nil
            if starving && c.state == .playing {
                c.state = .buffering
                changed = .some(c.heard)
            }
            return (c.sink, changed)
        }
        sink?.setBuffering(starving)
        if let entry = changed { post(entry, .stateChanged(.buffering)) }
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
        control.update { c in
            c.shutdown = true
            interrupt(c)
        }
        // A feeder stuck inside a decoder's C code (no interruption reaches it there) is left to
        // the process's exit rather than holding the exit forever.
        if let thread, !thread.join(within: feederPatience) {
            feederStuck.store(true, ordering: .relaxed)
            Log.warning(.engine, "the feeder did not stop: left running")
            return
        }
        thread = nil
        analyzer?.shutdown()
        analyzer = nil
    }

    // MARK: Commands (any thread; `control` held)

    /// Wakes the feeder from whatever it blocks on. Lock held.
    func interrupt(_ c: Control) {
        c.item?.interruptReader()
        c.prefetch?.interruptReader()
        c.sink?.interrupt()
    }

    /// Asks the feeder to do `request` next (a newer one replaces an older one not yet taken).
    func ask(_ request: Request, _ c: inout Control) {
        c.request = request
        if case .play = request {
            if c.state == .ended || c.state == .failed || c.state == .idle {
                c.state = c.paused ? .paused : .loading
            }
        }
        interrupt(c)
    }

    func post(_ entry: QueueEntryID?, _ kind: PlayerEvent.Kind) {
        hub.post(PlayerEvent(entry: entry, kind: kind))
    }

    /// Where playback stands: the heard entry and its frame. Lock held (takes PulseAudio's lock
    /// after it, as the lock order allows).
    func location(_ c: Control) -> FrameMap.Location? {
        if let sink = c.sink, let location = c.map.locate(sink.playedFrames()) { return location }
        return nil
    }

    // MARK: Feeder thread

    private func run() {
        while true {
            let request = control.withLock(waitingUntil: { $0.request != nil || $0.shutdown }) { c -> Request? in
                guard !c.shutdown else { return nil }
                c.idle = false
                clearInterrupts(c)
                return c.takeRequest()
            }
            guard var next = request else { break }
            while true {
                let following: Request?
                switch next {
                case .stop:
                    stopPlayback()
                    following = nil
                case .play(let entry, let start):
                    following = play(entry, from: start)
                }
                guard let following else { break }
                next = following
            }
            control.update { c in c.idle = true }
        }
        stopPlayback()
        buffer?.deallocate()
    }

    private func clearInterrupts(_ c: Control) {
        c.item?.clearInterrupt()
        c.prefetch?.clearInterrupt()
        c.sink?.clearInterrupt()
    }

    /// Takes a newer request, if one waits. Feeder thread.
    private func takeRequest() -> Request? {
        control.withLock { c -> Request? in
            if c.shutdown { return .stop }
            guard c.request != nil else { return nil }
            clearInterrupts(c)
            return c.takeRequest()
        }
    }

    private func stopPlayback() {
        let (item, prefetch, sink) = control.withLock { c -> (ItemSource?, ItemSource?, (any AudioSink)?) in
            defer {
                if let heard = c.heard, let location = location(c) {
                    c.resting = Resting(entry: heard, frame: location.sourceFrame, format: location.format)
                }
                c.rebaseSleep()
                c.item = nil
                c.prefetch = nil
                c.opened = nil
                c.sink = nil
                c.sinkRate = 0
                c.map.reset()
                c.decodedFrame = 0
                c.taken = nil
                if !c.shutdown { c.state = .idle }
            }
            return (c.item, c.prefetch, c.sink)
        }
        item?.close()
        prefetch?.close()
        sink?.close()
        sinkFormat = nil
        chain = nil
        converter = nil
        skipper = nil
        prefetched = nil
    }

    /// A jump or a seek: plays `entryID` from `start` until the queue ends (nil) or a newer request
    /// arrives (returned).
    private func play(_ asked: QueueEntryID, from askedStart: Start) -> Request? {
        var entryID = asked
        var start = askedStart
        if case .heard = askedStart {
            (entryID, start) = stopWhereHeard(asked)
            // A command meanwhile (a seek, another speed) starts from where this one goes.
            control.withLock { $0.taken = (entryID, start) }
        }
        guard let queued = control.withLock({ $0.queue.entry(entryID) }) else {
            control.withLock { $0.taken = nil }
            return nil
        }
        let sameEntry = control.withLock { $0.item?.entry == entryID }
        if sameEntry, case .frame(let frame) = start {
            Log.debug(.engine, "seek to frame \(frame) of \(entryID): flushing")
        }
        if let request = flushOutput() { return request }
        var source: ItemSource
        switch adopt(queued, reuseCurrent: sameEntry) {
        case .source(let adopted): source = adopted
        case .request(let request): return request
        case .failed(let error):
            post(entryID, .failed(error))
            return failedEntry(entryID, error: error)
        }
        let format = source.format!
        let frame = startFrame(start, source: source)
        switch source.position(at: frame) {
        case .opened:
            // From the start, the ring fills at once rather than when the decoder first reads past
            // the header (a late answer to that request could underrun). Elsewhere the decoder's
            // first read moves the window there; fetching from the header on would waste the bytes.
            if frame == 0 { source.fetcher.fetchAhead() }
        case .interrupted: return takeRequest() ?? .play(entryID, .frame(frame))
        case .failed(let error):
            post(entryID, .failed(error))
            return failedEntry(entryID, error: error)
        }
        if let sinkFormat, sinkFormat != format.streamFormat {
            closeSink()
        }
        if sinkFormat == nil {
            while let error = openSink(format: format, title: queued.item.title) {
                guard case .noAudioServer = error, hadSoundServer else {
                    post(entryID, .failed(error))
                    return failedEntry(entryID, error: error, fatal: true)
                }
                // The server went away while playing: hold this place and try again.
                if let request = waitForSoundServer(entryID, frame: frame, error: error) { return request }
            }
            soundServerBack()
        }
        converter = nil
        chain?.replaceFront(nil) { $0 is FormatConverter }
        let speed = control.withLock { $0.speed }
        guard speedStage?.setSpeed(speed) ?? false else {
            let error = PlaybackError.audioOutput(reason: "out of memory changing the speed")
            post(entryID, .failed(error))
            return failedEntry(entryID, error: error, fatal: true)
        }
        prepareSkipper(for: format, at: frame, newItem: !sameEntry)
        if let request = beginLoudness(source, format: format, at: frame, sameEntry: sameEntry, joined: false) {
            return request
        }
        let (changedEntry, state) = control.update { c -> (Bool, PlayerState) in
            c.map.begin(entry: entryID, format: format, sourceStart: frame, ratio: speed)
            c.lastHeardPlace = Resting(entry: entryID, frame: frame, format: format)
            c.decodedFrame = frame
            c.taken = nil
            let changed = c.heard != entryID
            c.heard = entryID
            c.resting = nil
            c.errors[entryID] = nil
            c.truncated.remove(entryID)
            c.queue.setCurrent(entryID)
            // Cues of this entry ahead of where it now plays are armed again (a seek back, a replay).
            for cue in c.cues where cue.entry == entryID && Self.frame(of: cue.at, in: format) > frame {
                c.firedCues.remove(cue.id)
            }
            c.state = c.paused ? .paused : .buffering
            return (changed, c.state)
        }
        if changedEntry {
            post(entryID, .entryStarted)
            control.withLock { $0.sink }?.setMediaName(queued.item.title)
        } else {
            post(entryID, .seeked(toFrame: frame))
        }
        post(entryID, .stateChanged(state))
        return feed(source)
    }

    /// Stops the device and reads back where it stopped: the entry and frame to go on from.
    private func stopWhereHeard(_ entry: QueueEntryID) -> (QueueEntryID, Start) {
        guard let sink = control.withLock({ $0.sink }) else {
            let resting = control.withLock { $0.resting }
            if let resting, resting.entry == entry { return (entry, .frame(resting.frame)) }
            return (entry, .itemStart)
        }
        let played = sink.freeze()
        guard let location = control.withLock({ $0.map.locate(played) }) else { return (entry, .itemStart) }
        return (location.entry, .frame(location.sourceFrame))
    }

    private enum Adopted {
        case source(ItemSource)
        case request(Request)
        case failed(PlaybackError)
    }

    /// The source for `entry`, opened: the current one (a seek), the prefetched one, or a new one.
    private func adopt(_ entry: QueueEntry, reuseCurrent: Bool) -> Adopted {
        let (current, prefetch) = control.withLock { c -> (ItemSource?, ItemSource?) in
            (c.item, c.prefetch)
        }
        var source: ItemSource
        prefetched = nil
        let usable = prefetch.flatMap { $0.entry == entry.id && $0.item.location == entry.item.location ? $0 : nil }
        if let prefetch, usable == nil {
            // Fetched for what was to follow the old entry (or from where it no longer plays from).
            prefetch.close()
            control.withLock { $0.prefetch = nil }
        }
        if reuseCurrent, let current {
            source = current
        } else {
            current?.close()
            if let prefetch = usable {
                source = prefetch
                control.withLock { $0.prefetch = nil }
            } else {
                do {
                    source = try makeSource(entry.id, entry.item)
                } catch {
                    control.withLock { $0.item = nil }
                    return .failed(error)
                }
            }
            control.withLock { c in
                c.item = source
                // A command that came while it was being made must reach its reads too.
                if c.request != nil || c.shutdown { source.interruptReader() }
            }
        }
        return open(source)
    }

    /// Opens `source`'s decoder, taking any request that interrupts it.
    private func open(_ source: ItemSource) -> Adopted {
        let downstream = Double(PulseStream.targetLatencyMicroseconds) / 1_000_000
        let alreadyOpen = source.format != nil && source.hasDecoder
        while true {
            switch source.open(readAheadSeconds: configuration.readAheadSeconds,
                               readAheadMaximumBytes: configuration.readAheadMaximumBytes,
                               downstreamSeconds: downstream) {
            case .opened(let format):
                control.withLock { $0.opened = Opened(entry: source.entry, format: format, byteRate: source.byteRate) }
                if !alreadyOpen { post(source.entry, .formatKnown(format)) }
                return .source(source)
            case .interrupted:
                if let request = takeRequest() { return .request(request) }
                source.clearInterrupt()
            case .failed(let error):
                return .failed(error)
            }
        }
    }

    /// The entry failed: record it and go on with the one after it, or stop there.
    private func failedEntry(_ entryID: QueueEntryID, error: PlaybackError, fatal: Bool = false) -> Request? {
        Log.info(.engine, "\(entryID) failed: \(error.message)")
        let next = control.update { c -> QueueEntryID? in
            c.taken = nil
            c.errors[entryID] = error
            var after = fatal ? nil : c.queue.entry(after: entryID).flatMap { $0.id == entryID ? nil : $0 }
            // A looping queue whose every entry failed last time it was tried ends here: going round
            // again would spin (a missing file fails at once), as it once did, with 100 % CPU, an
            // event storm and a `stop` that never returned.
            if after != nil, c.queue.entries.allSatisfy({ c.errors[$0.id] != nil }) { after = nil }
            if c.heard == nil || c.heard == entryID || after == nil {
                c.heard = entryID
                c.queue.setCurrent(entryID)
            }
            if c.queue.consume { c.queue.remove(entryID) }
            if after == nil { c.state = .failed }
            return after?.id
        }
        // A command that came meanwhile (a stop, a jump) goes first: entries that fail at once
        // must not keep this thread from it.
        if let next { return takeRequest() ?? .play(next, .itemStart) }
        post(entryID, .stateChanged(.failed))
        post(nil, .queueEnded)
        return nil
    }

    /// Drops what the sink holds and what the stages hold: a new segment starts.
    private func flushOutput() -> Request? {
        let sink = control.withLock { $0.sink }
        chain?.reset()
        guard let sink else { return nil }
        switch sink.flush() {
        case .done: break
        case .interrupted: return takeRequest()
        case .failed(let error):
            Log.info(.output, "flush failed: \(error.message)")
            closeSink()
        }
        control.withLock { c in
            // Until the new segment is mapped, the listener stands where the old one stopped.
            if let heard = c.heard, let location = c.map.locate(sink.playedFrames()), location.entry == heard {
                c.resting = Resting(entry: heard, frame: location.sourceFrame, format: location.format)
            }
            c.rebaseSleep()
            c.map.reset()
        }
        return nil
    }

    private func openSink(format: AudioFormat, title: String) -> PlaybackError? {
        let streamFormat = format.streamFormat
        let sink: any AudioSink
        do {
            sink = try makeSink(streamFormat, title)
        } catch {
            return error
        }
        sinkFormat = streamFormat
        speedStage = SpeedStage(format: streamFormat, blockFrames: Self.chunkFrames)
        let gain = GainStage(format: streamFormat, blockFrames: Self.chunkFrames)
        gainStage = gain
        let loudness = LoudnessStage(format: streamFormat, blockFrames: Self.chunkFrames)
        loudnessStage = loudness
        loudnessEntry = nil
        chain = StageChain([speedStage!, loudness, gain])
        let held = control.update { c -> Bool in
            c.rebaseSleep()
            c.sink = sink
            c.sinkRate = streamFormat.sampleRate
            c.map.reset()
            sink.setPaused(c.paused)
            gain.setTarget(c.volume * c.duck, ramp: 0)
            c.gainChanged = false
            if c.shutdown || c.request != nil { sink.interrupt() }
            return c.held
        }
        // A server round trip: not under the lock the UI's snapshots take. A release that came
        // meanwhile found this sink not held yet: let go here.
        if held {
            sink.setHeld(true)
            if !control.withLock({ $0.held }) { sink.setHeld(false) }
        }
        return nil
    }

    private func closeSink() {
        let sink = control.withLock { c -> (any AudioSink)? in
            defer {
                c.rebaseSleep()
                c.sink = nil
                c.sinkRate = 0
                c.map.reset()
            }
            return c.sink
        }
        sink?.close()
        sinkFormat = nil
        chain = nil
        converter = nil
    }

    private func startFrame(_ start: Start, source: ItemSource) -> Int64 {
        switch start {
        case .itemStart, .heard: return source.frame(for: source.item.start)
        case .position(let position): return source.frame(for: position)
        case .frame(let frame):
            guard let frames = source.format?.frames else { return max(0, frame) }
            return min(max(0, frame), frames)
        }
    }

    /// A buffer for one chunk of `format`, allocated once (and again only for a larger frame).
    private func chunkBuffer(for format: AudioFormat) -> UnsafeMutableRawPointer {
        let bytes = Self.chunkFrames * format.bytesPerFrame
        if let buffer, bufferBytes >= bytes { return buffer }
        buffer?.deallocate()
        let made = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
        buffer = made
        bufferBytes = bytes
        return made
    }

    /// Feeds `source` and the entries that follow it, joined, until the queue ends (nil) or a
    /// request arrives (returned).
    private func feed(_ first: ItemSource) -> Request? {
        var source = first
        while true {
            if let request = takeRequest() { return request }
            guard let sink = control.withLock({ $0.sink }), let chain, let format = source.format else { return nil }
            applyGain()
            switch followSkipLevel(format: format, chain: chain, sink: sink) {
            case .done: break
            case .interrupted: continue
            case .failed(let error): return outputFailed(error, entry: source.entry)
            }
            switch followSleep(source, format: format, chain: chain, sink: sink) {
            case .awake: break
            case .resumed: continue
            case .request(let request): return request
            }
            let buffer = chunkBuffer(for: format)
            guard source.hasDecoder else {
                let at = control.withLock { $0.decodedFrame }
                switch source.position(at: at) {
                case .opened: continue
                case .interrupted: continue
                case .failed(let error):
                    post(source.entry, .failed(error))
                    return failedEntry(source.entry, error: error)
                }
            }
            let wanted = readLimit
            let frames = source.read(into: buffer, frames: wanted)
            if frames > 0 {
                control.withLock { $0.decodedFrame += Int64(frames) }
                followLoudness(buffer, frames: frames, format: format, entry: source.entry)
                let result = process(UnsafeRawBufferPointer(start: buffer, count: frames * format.bytesPerFrame),
                                     chain: chain, sink: sink)
                switch result {
                case .done: markPlaying()
                case .interrupted: continue
                case .failed(let error): return outputFailed(error, entry: source.entry)
                }
                observe(sink)
                if let move = sink.takeMove() {
                    Log.info(.output, "the stream moved from sink '\(move.from)' to '\(move.to)'")
                    post(source.entry, .outputMoved(move))
                }
                prefetchIfDue(source)
            }
            if frames == wanted { continue }
            if source.interrupted {
                // A command cut a read short: the decoder's state is unknown; it is made again.
                source.dropDecoder()
                continue
            }
            // This entry's decoding has ended; a pause it ends on is shortened first.
            if let skipper {
                let result = skipper.flush { chain.process($0) { self.write($0, to: sink) } }
                switch result {
                case .done: break
                case .interrupted: continue
                case .failed(let error): return outputFailed(error, entry: source.entry)
                }
            }
            let decoded = control.withLock { $0.decodedFrame }
            finishRunningMeasure(source, decoded: decoded)
            if let fetchFailure = source.failure, let frames = format.frames, decoded < frames {
                // The network gave up part-way: what was there has been written; it ends here, failed.
                control.withLock { $0.map.end(at: decoded) }
                return endOfQueue(after: source, sink: sink, failure: fetchFailure)
            }
            let truncated = source.isTruncated || (format.frames.map { decoded < $0 } ?? false)
            let sleepsHere = control.withLock { c -> Bool in
                c.map.end(at: decoded)
                if truncated { c.truncated.insert(source.entry) }
                return c.sleep == .endOfEntries(1)
            }
            if sleepsHere {
                // The timer ends with this entry: the next one does not start until a resume.
                switch fallAsleep(source.entry, chain: chain, sink: sink) {
                case .awake, .resumed: break
                case .request(let request): return request
                }
            }
            switch join(after: source) {
            case .joined(let next): source = next
            case .request(let request): return request
            case .ended, .skip: return endOfQueue(after: source, sink: sink, failure: nil)
            }
        }
    }

    /// Decoded frames through skip silence (when on) and the chain into the sink.
    private func process(_ input: UnsafeRawBufferPointer, chain: StageChain, sink: any AudioSink) -> SinkResult {
        guard let skipper else { return chain.process(input) { self.write($0, to: sink) } }
        return skipper.process(input) { chain.process($0) { self.write($0, to: sink) } }
    }

    /// A skipper for an entry of `format` starting at `frame` (nil while skip silence is off).
    private func prepareSkipper(for format: AudioFormat, at frame: Int64, newItem: Bool) {
        let level = control.withLock { $0.silenceSkipping }
        guard level != .off else {
            skipper = nil
            return
        }
        if let skipper, skipper.format == format.streamFormat {
            if skipper.level != level { skipper.setLevel(level) }
            skipper.restart(at: frame, newItem: newItem)
        } else {
            let made = SilenceSkipper(format: format.streamFormat, level: level, pieceFrames: Self.chunkFrames)
            // The map learns of a cut before the frames after it are written, so the listener can
            // never reach them unmapped. The closure holds the lock, not the core (no cycle).
            let control = self.control
            made.onCut = { cut in control.withLock { $0.map.cut(from: cut.from, to: cut.to) } }
            made.restart(at: frame, newItem: true)
            skipper = made
        }
    }

    /// Takes a level changed while playing: a pause held under the old rules is let out by them first.
    private func followSkipLevel(format: AudioFormat, chain: StageChain, sink: any AudioSink) -> SinkResult {
        let level = control.withLock { $0.silenceSkipping }
        guard level != (skipper?.level ?? .off) else { return .done }
        guard let skipper else {
            prepareSkipper(for: format, at: control.withLock { $0.decodedFrame }, newItem: true)
            return .done
        }
        let result = skipper.flush { chain.process($0) { self.write($0, to: sink) } }
        guard case .done = result else { return result }
        if level == .off {
            self.skipper = nil
        } else {
            skipper.setLevel(level)
        }
        return .done
    }

    private enum Sleep {
        /// Not asleep: play on.
        case awake
        /// Slept and was resumed: play on from where it paused.
        case resumed
        /// Slept (or was about to) and a request came: take it.
        case request(Request?)
    }

    /// Sets the sleep timer's fade for what is written next, and falls asleep at its end.
    private func followSleep(_ source: ItemSource, format: AudioFormat, chain: StageChain, sink: any AudioSink) -> Sleep {
        readLimit = Self.chunkFrames
        let (deadline, written, rate, ratio) = control.withLock { c -> (Int64?, Int64, Int, Double) in
            var deadline = c.sleepDeadline()
            let ratio = c.map.spans.last?.ratio ?? 1
            if c.sleep == .endOfEntries(1), let frames = format.frames {
                // Where this entry's last frame will be written, at the ratio it is written at.
                deadline = c.map.written + Int64((Double(max(0, frames - c.decodedFrame)) / ratio).rounded())
            }
            return (deadline, c.map.written, c.sinkRate, ratio)
        }
        guard let deadline, rate > 0 else {
            gainStage?.fade = nil
            return .awake
        }
        gainStage?.fade = GainStage.Fade(end: deadline, length: Int64(SleepTimer.fadeSeconds * Double(rate)))
        let left = deadline - written
        if left > 0 && left * Int64(ratio.rounded(.up)) < Int64(Self.chunkFrames) {
            readLimit = max(1, Int((Double(left) * ratio).rounded()))
        }
        guard written >= deadline, control.withLock({ $0.sleep != .endOfEntries(1) }) else { return .awake }
        return fallAsleep(source.entry, chain: chain, sink: sink)
    }

    /// The timer has ended (the fade is at silence): lets what is written play out, then pauses
    /// there and waits for a resume or a request. The position stays where it paused.
    private func fallAsleep(_ entry: QueueEntryID, chain: StageChain, sink: any AudioSink) -> Sleep {
        switch chain.flush(into: { self.write($0, to: sink) }) {
        case .done: break
        case .interrupted: return .request(takeRequest())
        case .failed(let error): return .request(outputFailed(error, entry: entry))
        }
        switch sink.drain() {
        case .done: break
        case .interrupted: return .request(takeRequest())
        case .failed(let error): return .request(outputFailed(error, entry: entry))
        }
        control.withLock { $0.map.markPlayedOut() }
        observe(sink)
        gainStage?.fade = nil
        let heard = control.update { c -> QueueEntryID? in
            c.sleep = .off
            c.sleepAnchor = 0
            c.paused = true
            c.sink?.setPaused(true)
            c.state = .paused
            return c.heard
        }
        Log.info(.engine, "sleep timer: paused")
        post(heard, .sleepTimerEnded)
        post(heard, .stateChanged(.paused))
        let request = control.withLock(waitingUntil: { $0.request != nil || $0.shutdown || !$0.paused }) { c -> Request?? in
            if c.shutdown { return .some(.stop) }
            guard c.request != nil else { return .none }
            clearInterrupts(c)
            return .some(c.takeRequest())
        }
        guard let request else { return .resumed }
        return .request(request)
    }

    // MARK: Matched loudness (feeder thread)

    /// Local files and single-file items of a player that measures first are measured whole.
    private func wholeMeasureWanted(_ item: QueueItem) -> Bool {
        item.loudness == nil && item.moreParts.isEmpty && (item.location.isFile || configuration.measureLoudnessFirst)
    }

    private func loudnessAnalyzer() -> LoudnessAnalyzer {
        if let analyzer { return analyzer }
        let control = self.control
        let hub = self.hub
        let made = LoudnessAnalyzer { entry, figures in
            control.update { $0.measured[entry] = Measurement(figures: figures) }
            if let figures { hub.post(PlayerEvent(entry: entry, kind: .loudnessMeasured(figures))) }
        }
        analyzer = made
        return made
    }

    /// Sets the loudness gain for `source`, which starts being written at `frame` (a start, a seek,
    /// or a join after another entry): from its known figures (cached, or measured whole, which
    /// the first entry of a start waits for), else from a running measurement. A request that comes
    /// during the wait is returned.
    private func beginLoudness(_ source: ItemSource, format: AudioFormat, at frame: Int64, sameEntry: Bool, joined: Bool) -> Request? {
        guard let stage = loudnessStage else { return nil }
        let matching = control.withLock { $0.loudness }
        guard case .target(let target) = matching else {
            appliedMatching = matching
            if stage.enabled {
                stage.setEnabled(false)
                runningMeter = nil
                loudnessEntry = nil
                loudnessAim = nil
            }
            control.withLock { $0.loudnessGain = 0 }
            return nil
        }
        stage.setEnabled(true)
        let entry = source.entry
        let changed = appliedMatching != matching
        appliedMatching = matching
        if sameEntry && loudnessEntry == entry && !changed {
            // A seek within the entry: the gain stays; a running measure is no longer of the whole.
            if frame != 0 { runningFromStart = false }
            return nil
        }
        loudnessEntry = entry
        var figures = source.item.loudness ?? control.withLock { $0.measured[entry]?.figures }
        if figures == nil && wholeMeasureWanted(source.item) {
            loudnessAnalyzer().measure(entry, source.item)
            // A start waits for the measure (it is of a local file or a short note); a join goes on
            // with a running estimate until it is there.
            if !joined || configuration.measureLoudnessFirst {
                let request = control.withLock(waitingUntil: { $0.measured[entry] != nil || $0.request != nil || $0.shutdown }) { c -> Request? in
                    if c.shutdown { return .stop }
                    guard c.request != nil else { return nil }
                    clearInterrupts(c)
                    return c.takeRequest()
                }
                if let request { return request }
                figures = control.withLock { $0.measured[entry]?.figures }
            }
        }
        runningMeter = nil
        revisedAt = 0
        if let figures {
            aimLoudness(figures.gain(toward: target), immediately: !joined)
        } else {
            runningMeter = LoudnessMeter(channels: format.channels, sampleRate: format.sampleRate)
            runningFromStart = frame == 0
            // Until the estimate settles, the gain stays where it was (the entry before, or 0 dB).
            if !joined { aimLoudness(loudnessAim ?? 0, immediately: true) }
        }
        return nil
    }

    /// Moves the loudness gain to `decibels`: at once at a start (nothing is heard before it), else
    /// over at least a second, and no faster than 5 dB a second (half a decibel per 100 ms: a join
    /// of two episodes 12 dB apart ramps over 2.4 s), so nothing steps and speech never pumps.
    private func aimLoudness(_ decibels: Double, immediately: Bool) {
        loudnessAim = decibels
        loudnessStage?.setGain(decibels: decibels, ramp: immediately ? 0 : max(1, abs(decibels - (loudnessStage?.gainDecibels ?? 0)) / 5))
        control.withLock { $0.loudnessGain = decibels }
    }

    /// After each chunk: the running estimate revised once a second of audio (from 3 s on, when
    /// BS.1770's gating has something to stand on), or the whole-item figures taken once they arrive.
    private func followLoudness(_ buffer: UnsafeMutableRawPointer, frames: Int, format: AudioFormat, entry: QueueEntryID) {
        if let stage = loudnessStage, stage.enabled {
            let reduction = stage.takeDeepestReduction()
            if reduction < 0 { control.withLock { $0.limiterReduction = min($0.limiterReduction, reduction) } }
        }
        guard let meter = runningMeter, case .target(let target) = control.withLock({ $0.loudness }) else { return }
        if let measured = control.withLock({ $0.measured[entry] }), let figures = measured.figures {
            runningMeter = nil
            aimLoudness(figures.gain(toward: target), immediately: false)
            return
        }
        meter.add(buffer, frames: frames, type: format.sampleType)
        guard meter.frames >= 3 * Int64(format.sampleRate), meter.frames - revisedAt >= Int64(format.sampleRate) else { return }
        revisedAt = meter.frames
        guard let figures = meter.figures else { return }
        let gain = figures.gain(toward: target)
        if abs(gain - (loudnessAim ?? 0)) >= 0.5 { aimLoudness(gain, immediately: false) }
    }

    /// An entry measured as it played from its first frame to its last has whole-item figures: they
    /// are posted, for the session to keep.
    private func finishRunningMeasure(_ source: ItemSource, decoded: Int64) {
        guard let meter = runningMeter, runningFromStart, let frames = source.format?.frames, decoded >= frames,
              let figures = meter.figures else { return }
        runningMeter = nil
        control.withLock { $0.measured[source.entry] = Measurement(figures: figures) }
        post(source.entry, .loudnessMeasured(figures))
    }

    private func write(_ bytes: UnsafeRawBufferPointer, to sink: any AudioSink) -> SinkResult {
        let result = sink.write(bytes)
        if case .done = result, let format = sinkFormat {
            control.withLock { $0.map.advance(by: Int64(bytes.count / format.bytesPerFrame)) }
        }
        return result
    }

    private func applyGain() {
        let change = control.withLock { c -> (Double, Double)? in
            guard c.gainChanged else { return nil }
            c.gainChanged = false
            return (c.volume * c.duck, c.duckRamp)
        }
        if let (gain, ramp) = change { gainStage?.setTarget(gain, ramp: ramp) }
    }

    private enum Joined {
        case joined(ItemSource)
        case request(Request)
        /// Nothing follows (or what follows cannot play): the queue ends here.
        case ended
        /// The entry opened but cannot join (no converter, no start): the one after it is tried.
        case skip(PlaybackError)
    }

    /// Opens what follows `source` and sets the chain for it, so its first frame is written right
    /// after `source`'s last. Entries that fail to open are reported and passed over.
    private func join(after source: ItemSource) -> Joined {
        var after = source.entry
        while true {
            let (next, prefetch) = control.withLock { c -> (QueueEntry?, ItemSource?) in
                (c.queue.entry(after: after), c.prefetch)
            }
            guard let next else { return .ended }
            var opened: ItemSource
            if next.id == source.entry {
                // The entry loops: play it again from its start.
                opened = source
                switch source.position(at: 0) {
                case .opened: break
                case .interrupted: return takeRequest().map { .request($0) } ?? .ended
                case .failed(let error):
                    post(next.id, .failed(error))
                    return .ended
                }
            } else {
                // A prefetch for another entry, or from where the entry no longer plays from
                // (`Player.relocate`: it was downloaded meanwhile), is dropped.
                let ready = prefetch.flatMap { $0.entry == next.id && $0.item.location == next.item.location ? $0 : nil }
                if let prefetch, ready == nil {
                    prefetch.close()
                    control.withLock { $0.prefetch = nil }
                }
                let made: ItemSource
                if let ready {
                    made = ready
                } else {
                    do {
                        made = try makeSource(next.id, next.item)
                    } catch {
                        post(next.id, .failed(error))
                        control.withLock { $0.errors[next.id] = error }
                        after = next.id
                        continue
                    }
                }
                control.withLock { c in
                    c.prefetch = nil
                    c.item = made
                    if c.request != nil || c.shutdown { made.interruptReader() }
                }
                if made.format == nil {
                    Log.info(.engine, "join: \(next.id) is not ready, waiting for its header")
                }
                switch open(made) {
                case .source(let ready): opened = ready
                case .request(let request):
                    source.close()
                    return .request(request)
                case .failed(let error):
                    post(next.id, .failed(error))
                    control.withLock { $0.errors[next.id] = error }
                    made.close()
                    control.withLock { $0.item = source }
                    after = next.id
                    continue
                }
                source.close()
            }
            let prepared = prepareJoin(to: opened)
            guard case .skip(let error) = prepared else { return prepared }
            post(next.id, .failed(error))
            control.withLock { $0.errors[next.id] = error }
            after = next.id
            if opened !== source { opened.close() }
        }
    }

    /// Sets the chain for `next` (a converter when its format is not the stream's), moves its
    /// decoder to its start and maps what follows.
    private func prepareJoin(to next: ItemSource) -> Joined {
        guard let format = next.format, let sinkFormat, let sink = control.withLock({ $0.sink }) else { return .ended }
        // What the stages still hold of the last entry goes out first, so the map's boundary is exact.
        if let chain {
            switch chain.flush(into: { self.write($0, to: sink) }) {
            case .done: break
            case .interrupted: return takeRequest().map { .request($0) } ?? .ended
            case .failed(let error): return outputFailed(error, entry: next.entry).map { .request($0) } ?? .ended
            }
        }
        var ratio = 1.0
        if format.streamFormat != sinkFormat {
            do {
                let made = try FormatConverter(from: format, to: sinkFormat, maxInputFrames: Self.chunkFrames)
                converter = made
                ratio = made.ratio
                chain?.replaceFront(made) { $0 is FormatConverter }
                Log.info(.engine, "join: \(next.entry) converted from \(format.sampleRate) Hz, \(format.channels) ch to \(sinkFormat.sampleRate) Hz, \(sinkFormat.channels) ch")
            } catch {
                return .skip(error)
            }
        } else {
            converter = nil
            chain?.replaceFront(nil) { $0 is FormatConverter }
        }
        let frame = next.frame(for: next.item.start)
        switch next.position(at: frame) {
        case .opened: break
        case .interrupted: return takeRequest().map { .request($0) } ?? .ended
        case .failed(let error): return .skip(error)
        }
        prepareSkipper(for: format, at: frame, newItem: true)
        if let request = beginLoudness(next, format: format, at: frame, sameEntry: false, joined: true) {
            return .request(request)
        }
        control.withLock { c in
            c.map.begin(entry: next.entry, format: format, sourceStart: frame, ratio: ratio * c.speed)
            c.decodedFrame = frame
            if case .endOfEntries(let count) = c.sleep, count > 1 { c.sleep = .endOfEntries(count - 1) }
        }
        return .joined(next)
    }

    /// The last entry's frames are written: let them play out, then report the end.
    private func endOfQueue(after source: ItemSource, sink: any AudioSink, failure: PlaybackError?) -> Request? {
        if let chain {
            switch chain.flush(into: { self.write($0, to: sink) }) {
            case .done: break
            case .interrupted: return takeRequest()
            case .failed(let error): return outputFailed(error, entry: source.entry)
            }
        }
        switch sink.drain() {
        case .done: break
        case .interrupted: return takeRequest()
        case .failed(let error): return outputFailed(error, entry: source.entry)
        }
        control.withLock { $0.map.markPlayedOut() }
        observe(sink)
        let (entry, truncated) = control.update { c -> (QueueEntryID?, Bool) in
            guard let heard = c.heard else { return (nil, false) }
            if let failure {
                c.errors[heard] = failure
                c.state = .failed
            } else {
                c.state = .ended
            }
            if c.queue.consume { c.queue.remove(heard) }
            return (heard, c.truncated.contains(heard))
        }
        if let failure {
            post(entry, .failed(failure))
            post(entry, .stateChanged(.failed))
        } else {
            post(entry, .ended(truncated: truncated))
            post(entry, .stateChanged(.ended))
        }
        post(nil, .queueEnded)
        // Ended: the entry stays open (a seek plays it again at once) until the next request.
        return waitForRequest()
    }

    private func waitForRequest() -> Request? {
        control.withLock(waitingUntil: { $0.request != nil || $0.shutdown }) { c -> Request? in
            guard !c.shutdown else { return nil }
            clearInterrupts(c)
            return c.takeRequest()
        }
    }

    /// Waits a step of the reconnect backoff (0.1 s doubling to 1 s, so a server that is back is
    /// found within about a second) unless a request comes first (returned). The place held is
    /// `frame` of `entry`.
    private func waitForSoundServer(_ entry: QueueEntryID, frame: Int64, error: PlaybackError) -> Request? {
        let (attempt, changed) = control.update { c -> (Int, Bool) in
            let first = c.soundServerLost == nil
            if first {
                c.soundServerLost = Self.soundServerName
                reconnectAttempts = 0
            }
            if c.state == .playing { c.state = .buffering }
            if c.heard == entry, let format = c.opened?.format ?? c.map.spans.first?.format {
                c.resting = Resting(entry: entry, frame: frame, format: format)
            }
            return (reconnectAttempts, first)
        }
        if changed {
            Log.info(.output, "\(error.message); trying \(Self.soundServerName) again")
            post(entry, .stateChanged(.buffering))
        }
        reconnectAttempts = attempt + 1
        let wait = Duration.milliseconds(min(1000, 100 << min(attempt, 4)))
        return control.withLock(waitingUntil: { $0.request != nil || $0.shutdown }, timeout: wait) { c -> Request? in
            if c.shutdown { return .stop }
            guard c.request != nil else { return nil }
            clearInterrupts(c)
            return c.takeRequest()
        }
    }

    private var reconnectAttempts = 0

    private func soundServerBack() {
        hadSoundServer = true
        let was = control.update { c -> String? in
            defer { c.soundServerLost = nil }
            return c.soundServerLost
        }
        if was != nil { Log.info(.output, "the sound server is back: playing on") }
    }

    /// The server a player tries to reach, as a person would name it.
    static var soundServerName: String {
        if let server = getenv("PULSE_SERVER").map({ String(cString: $0) }), !server.isEmpty { return server }
        return "the default PulseAudio server"
    }

    /// The stream failed (the server went away, the sink vanished): the player stops there, or,
    /// when the server went away, holds the frame heard and waits for one to come back.
    private func outputFailed(_ error: PlaybackError, entry: QueueEntryID) -> Request? {
        if case .noAudioServer = error, hadSoundServer {
            let place = control.withLock { c -> Resting? in c.lastHeardPlace ?? c.resting }
            Log.info(.output, "output lost: \(error.message)")
            closeSink()
            if let place {
                control.update { c in
                    c.soundServerLost = Self.soundServerName
                    c.resting = place
                    if c.state == .playing { c.state = .buffering }
                }
                post(place.entry, .stateChanged(.buffering))
                // Played on from that frame once a sink opens again (`play` waits for the server).
                return takeRequest() ?? .play(place.entry, .frame(place.frame))
            }
        }
        Log.info(.output, "output failed: \(error.message)")
        let heard = control.update { c -> QueueEntryID? in
            c.errors[c.heard ?? entry] = error
            c.state = .failed
            return c.heard ?? entry
        }
        post(heard, .failed(error))
        post(heard, .stateChanged(.failed))
        closeSink()
        return waitForRequest()
    }

    private func markPlaying() {
        let changed = control.withLock { c -> QueueEntryID?? in
            guard c.state == .buffering && !c.paused else { return nil }
            c.state = .playing
            return .some(c.heard)
        }
        if let entry = changed { post(entry, .stateChanged(.playing)) }
    }

    /// Reads what the sink has played against the map: entries heard to their end, the entry heard
    /// now, cues passed. Called after every write, so events follow the listener within a chunk.
    /// Takes where the listener is now from `sink` (exact while it is held) as the place to go on
    /// from if the server goes away.
    func rememberPlace(heardOn sink: any AudioSink) {
        let played = sink.playedFrames()
        control.withLock { c in
            guard c.sink === sink, let location = c.map.locate(played) else { return }
            c.lastHeardPlace = Resting(entry: location.entry, frame: location.sourceFrame, format: location.format)
        }
    }

    private func observe(_ sink: any AudioSink) {
        var events: [PlayerEvent] = []
        control.withLock { c in
            guard let location = c.map.locate(sink.playedFrames()) else { return }
            c.lastHeardPlace = Resting(entry: location.entry, frame: location.sourceFrame, format: location.format)
            var started = false
            for (index, span) in c.map.spans.prefix(location.span).enumerated() {
                let following = c.map.spans[index + 1]
                if following.isCut {
                    // Skipped silence: the same entry goes on further along; the listener's position jumps.
                    let seconds = Double(following.skipped) / Double(following.format.sampleRate)
                    c.silenceSaved[following.entry, default: 0] += seconds
                    c.silenceSavedTotal += seconds
                    events.append(PlayerEvent(entry: following.entry, kind: .silenceSkipped(
                        fromFrame: following.sourceStart - following.skipped, toFrame: following.sourceStart)))
                    continue
                }
                started = true
                events.append(PlayerEvent(entry: span.entry, kind: .ended(truncated: c.truncated.contains(span.entry))))
                if c.queue.consume && span.entry != location.entry { c.queue.remove(span.entry) }
            }
            c.map.discard(before: location.span)
            if started || c.heard != location.entry {
                c.heard = location.entry
                c.queue.setCurrent(location.entry)
                for cue in c.cues where cue.entry == location.entry { c.firedCues.remove(cue.id) }
                events.append(PlayerEvent(entry: location.entry, kind: .entryStarted))
            }
            for cue in c.cues where cue.entry == location.entry && !c.firedCues.contains(cue.id) {
                if Self.frame(of: cue.at, in: location.format) <= location.sourceFrame {
                    c.firedCues.insert(cue.id)
                    events.append(PlayerEvent(entry: cue.entry, kind: .cueReached(cue.id)))
                }
            }
        }
        for event in events { hub.post(event) }
        if events.contains(where: { $0.kind == .entryStarted }), let title = control.withLock({ c in c.heard.flatMap { c.queue.entry($0)?.item.title } }) {
            sink.setMediaName(title)
        }
    }

    static func frame(of position: StartPosition, in format: AudioFormat) -> Int64 {
        switch position {
        case .seconds(let seconds): return FrameCount.of(seconds: seconds, rate: format.sampleRate)
        case .fraction(let fraction): return FrameCount.clamped(fraction * Double(format.frames ?? Int64.max / 2))
        }
    }

    /// When the entry decoding now has about its read-ahead left, the next one starts fetching, so
    /// the join finds its header and first seconds there.
    private func prefetchIfDue(_ source: ItemSource) {
        guard let format = source.format, let frames = format.frames else { return }
        let due = control.withLock { c -> QueueEntry? in
            guard c.prefetch == nil, prefetched != c.queue.entry(after: source.entry)?.id else { return nil }
            let left = Double(frames - c.decodedFrame) / Double(format.sampleRate)
            guard left <= configuration.readAheadSeconds else { return nil }
            guard let next = c.queue.entry(after: source.entry), next.id != source.entry else { return nil }
            return next
        }
        guard let due else { return }
        prefetched = due.id
        do {
            let made = try makeSource(due.id, due.item, ahead: true)
            Log.info(.engine, "prefetching \(due.id) (\(due.item.location.display))")
            control.withLock { $0.prefetch = made }
            if wholeMeasureWanted(due.item), control.withLock({ $0.loudness != .off && $0.measured[due.id] == nil }) {
                loudnessAnalyzer().measure(due.id, due.item)
            }
        } catch {
            // Reported when the join reaches it.
            Log.info(.engine, "prefetch of \(due.id) failed: \(error.message)")
        }
    }
}

extension AudioFormat {
    /// The stream's format for this item: the same samples, with no length of its own.
    var streamFormat: AudioFormat {
        AudioFormat(sampleRate: sampleRate, channels: channels, sampleType: sampleType, frames: nil)
    }
}
