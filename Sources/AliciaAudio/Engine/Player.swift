#if canImport(Glibc)
import Glibc
#endif
import Synchronization

// Thread map (keep it true):
// | thread            | owns                                  | waits on                                   |
// | caller (UI, CLI)  | nothing of the output; it writes the core's commands (`PlayerCore.command`) and reads its status | a subscription (condition or eventfd in its poll loop) |
// | alicia-fetch      | one entry's curl easy + multi handles (one thread per open entry: the one playing, the one prefetched) | `curl_multi_poll`, woken by `curl_multi_wakeup` |
// | alicia-feeder     | `FeederState`: the stage chain (converter, speed, loudness, gain), skip silence, the running loudness meter, the chunk buffer; the entries' decoders, the sink's write side; it publishes the status (the frame map, the entry heard, errors) | a fetcher's condition, PulseAudio's mainloop condition, its one wait on the core's condition (`awaitRequest`: a request, or a resume after the sleep timer, a whole-item loudness measure at a start, a step of the sound server's backoff) |
// | alicia-loudness   | (matched loudness on) a measuring fetcher, decoder and libebur128 state of an item ahead | its job condition, a fetcher's condition; results go into the status |
// | libpulse mainloop | nothing of ours                       | callbacks only record state and signal     |
// Commands and status share the core's lock (`PlayerCore.shared`); a request asked wakes whatever
// the feeder blocks on; nothing sleeps on a guess.

/// A player: a queue of entries played gaplessly into one persistent output. Each entry is
/// fetched with Range requests and decoded by libsndfile; the output (stage chain and PulseAudio
/// stream) lives across entries. Commands return at once; state is read with `snapshot()`;
/// changes arrive through subscriptions (`subscribe()`), each of which sees every event.
public final class Player: Sendable {
    let core: PlayerCore
    /// The subscription behind `nextEvent`, for callers that read events one by one.
    private let defaultEvents: PlayerSubscription

    public convenience init(configuration: PlayerConfiguration = PlayerConfiguration()) {
        self.init(configuration: configuration, output: .pulse(configuration))
    }

    /// A player writing to the sinks `makeSink` makes (a recording fake in unit tests), which hold
    /// `downstreamSeconds` of audio between the feeder and the listener.
    convenience init(configuration: PlayerConfiguration, makeSink: @escaping SinkMaker, downstreamSeconds: Double = 0) {
        self.init(configuration: configuration,
                  output: OutputDevice(serverName: "the recording sink", downstreamSeconds: downstreamSeconds, makeSink: makeSink))
    }

    /// A player on `output`: PulseAudio, or a recording output in-process (no sound server).
    package init(configuration: PlayerConfiguration, output: OutputDevice) {
        let hub = EventHub()
        defaultEvents = hub.subscribe()
        core = PlayerCore(configuration: configuration, hub: hub, output: output)
        core.start()
    }

    deinit {
        core.shutdown()
    }

    // MARK: The queue

    /// Replaces the queue with `items` and plays the one at `index` (from `start`, else its own start).
    public func play(_ items: [QueueItem], at index: Int = 0, from start: StartPosition? = nil) {
        core.command { c, _ in
            let ids = c.replaceQueue(with: items)
            c.ask(ids.indices.contains(index) ? .play(ids[index], start.map { .position($0) } ?? .itemStart) : .stop)
        }
        core.post(nil, .queueChanged)
    }

    /// Replaces the queue with one location and plays it.
    public func play(_ location: MediaLocation, from start: StartPosition? = nil, title: String? = nil) {
        play([QueueItem(location: location, title: title ?? location.display)], from: start)
    }

    /// Where `add` puts an item.
    public enum Placement: Sendable {
        case end
        /// Right after the entry heard now.
        case next
    }

    /// Adds `item` to the queue; when nothing plays (idle, ended, failed) and `startIfIdle`, it
    /// plays at once. Returns its id.
    @discardableResult
    public func add(_ item: QueueItem, _ placement: Placement = .end, startIfIdle: Bool = false) -> QueueEntryID {
        let id = core.command { c, s -> QueueEntryID in
            let id = placement == .end ? c.queue.append(item) : c.queue.insertNext(item)
            let resting = s.state == .idle || s.state == .ended || s.state == .failed
            // A stop not yet taken (a clear just before) leaves the player resting too: the item
            // plays in its place, rather than waiting in a stopped queue.
            if startIfIdle && ((resting && c.request == nil) || c.request == .stop) {
                c.ask(.play(id, .itemStart))
            } else if s.item != nil && s.item?.entry != s.heard, c.queue.entry(after: s.heard ?? id)?.id == id {
                // It now follows the entry heard, which another was already joined to: play on from
                // the frame heard, so the join goes to this one.
                replayHeard(&c, s)
            }
            return id
        }
        core.post(id, .queueChanged)
        return id
    }

    /// Removes an entry; removing the one playing moves on to what followed it.
    @discardableResult
    public func remove(_ id: QueueEntryID) -> Bool {
        let removed = core.command { c, s -> Bool in
            let following = c.queue.entry(after: id).flatMap { $0.id == id ? nil : $0 }
            guard c.queue.remove(id) else { return false }
            if id == s.heard {
                c.ask(following.map { .play($0.id, .itemStart) } ?? .stop)
            } else if id == s.item?.entry {
                replayHeard(&c, s)
            }
            return true
        }
        if removed { core.post(id, .queueChanged) }
        return removed
    }

    /// Moves an entry to `position` in the queue.
    @discardableResult
    public func move(_ id: QueueEntryID, to position: Int) -> Bool {
        let moved = core.command { c, s -> Bool in
            let before = s.heard.flatMap { c.queue.entry(after: $0)?.id }
            guard c.queue.move(id, to: position) else { return false }
            let after = s.heard.flatMap { c.queue.entry(after: $0)?.id }
            if before != after, s.item != nil, s.item?.entry != s.heard { replayHeard(&c, s) }
            return true
        }
        if moved { core.post(id, .queueChanged) }
        return moved
    }

    /// Plays a queued entry from `location` from now on (its download finished: the cached file
    /// instead of the backend's URL). False when there is no such entry, or it is heard, being
    /// decoded or being jumped to (its bytes are coming from where it was). A fetch started ahead
    /// for it from the old location is dropped when the join reaches it.
    @discardableResult
    public func relocate(_ id: QueueEntryID, to location: MediaLocation) -> Bool {
        core.command { c, s -> Bool in
            guard id != s.heard, id != s.item?.entry, s.taken?.entry != id else { return false }
            return c.queue.relocate(id, to: location)
        }
    }

    /// Empties the queue and stops.
    public func clear() {
        core.command { c, _ in
            c.queue.clear()
            c.ask(.stop)
        }
        core.post(nil, .queueChanged)
    }

    public var queue: PlayQueue { core.read { $0.commands.queue } }

    public func setLoop(_ mode: LoopMode) {
        core.command { c, _ in c.queue.loop = mode }
        core.post(nil, .queueChanged)
    }

    /// Entries leave the queue once heard to their end (the voice-note player's queue).
    public func setConsume(_ consume: Bool) {
        core.command { c, _ in c.queue.consume = consume }
    }

    /// Plays the entry `id` from its start.
    @discardableResult
    public func jump(to id: QueueEntryID, from start: StartPosition? = nil) -> Bool {
        core.command { c, _ -> Bool in
            guard c.queue.entry(id) != nil else { return false }
            c.ask(.play(id, start.map { .position($0) } ?? .itemStart))
            return true
        }
    }

    /// Plays the entry after the one heard now (not the one being decoded ahead of a join: a
    /// press just before an entry ends moves exactly one entry). False when there is none.
    @discardableResult
    public func next() -> Bool { skip { queue, from in queue.skipTarget(after: from) } }

    /// Plays the entry before the one heard now, from its start. False when there is none.
    @discardableResult
    public func previous() -> Bool { skip { queue, from in queue.skipTarget(before: from) } }

    private func skip(_ target: (PlayQueue, QueueEntryID) -> QueueEntry?) -> Bool {
        core.command { c, s -> Bool in
            guard let from = self.target(c, s), let entry = target(c.queue, from) else { return false }
            c.ask(.play(entry.id, .itemStart))
            return true
        }
    }

    /// The entry a command is about now: the one asked for last (a jump not yet carried out, so
    /// that a second press moves on from there), else the one heard.
    public var commandTarget: QueueEntryID? { core.read { target($0.commands, $0.status) } }

    /// The entry a command is about: the one asked for last, else the one heard.
    private func target(_ c: PlayerCommands, _ s: PlayerStatus) -> QueueEntryID? {
        if case .play(let entry, _)? = c.request { return entry }
        // A jump the feeder is carrying out: a second press moves on from there.
        if c.request == nil, let taken = s.taken { return taken.entry }
        return s.heard ?? c.queue.currentID
    }

    /// Plays on from the frame heard, dropping what was queued after it. Lock held.
    /// A change of how the stream sounds (speed, loudness) plays on from the frame heard, when
    /// there is a stream and no play is asked already.
    private func replayIfSounding(_ c: inout PlayerCommands, _ s: PlayerStatus) {
        guard s.sink != nil, s.state != .ended, s.state != .failed else { return }
        if case .play? = c.request { return }
        replayHeard(&c, s)
    }

    private func replayHeard(_ c: inout PlayerCommands, _ s: PlayerStatus) {
        guard c.request == nil else { return }
        // During a jump or seek, go on from where it goes (the feeder reads the speed again there).
        if let taken = s.taken, taken.start != .heard {
            c.ask(.play(taken.entry, taken.start))
            return
        }
        guard let heard = s.heard else { return }
        c.ask(.play(heard, .heard))
    }

    // MARK: Transport

    public func pause() { setPaused(true) }

    public func resume() { setPaused(false) }

    public func togglePause() {
        let paused = core.read { $0.commands.paused }
        setPaused(!paused)
    }

    private func setPaused(_ paused: Bool) {
        core.setPaused(paused)
    }

    /// Holds playback (true) for another player's focus, or lets it go; returns the exact frame
    /// where playback stands (after the server has stopped, when holding). A paused player stays
    /// paused when released. The server round trip runs outside the player's lock, so snapshots
    /// are never blocked by it.
    @discardableResult
    public func setHeld(_ held: Bool) -> Int64? {
        core.setHeld(held)
        return snapshot().positionFrames
    }

    /// Sets the listener's linear gain (1 = as decoded), ramped in over 20 ms.
    public func setVolume(_ linear: Double) {
        core.command { c, _ in c.setVolume(linear, ramp: PlayerCore.volumeRamp) }
    }

    /// Lowers the output by `decibels` (0: back to full) over `ramp` seconds, for another player's
    /// focus. The listener's volume is a separate factor: it is not changed.
    public func setDuck(decibels: Double, ramp: Double) {
        core.command { c, _ in c.setDuck(decibels >= 0 ? 1 : pow(10, decibels / 20), ramp: ramp) }
    }

    /// The speeds `setSpeed` takes: half to three times as fast.
    public static let speedRange = SpeedChanger.range

    /// Plays faster or slower (1 = as recorded) at the same pitch, clamped to `speedRange`; returns
    /// the speed set. The change starts from the frame playing now, as a seek does.
    @discardableResult
    public func setSpeed(_ speed: Double) -> Double {
        let clamped = min(max(speed, Self.speedRange.lowerBound), Self.speedRange.upperBound)
        core.command { c, s in
            guard c.speed != clamped else { return }
            c.speed = clamped
            replayIfSounding(&c, s)
        }
        return clamped
    }

    /// Shortens pauses from the next frames decoded on (`.off`: no longer). A pause being held
    /// when the level changes is let out by the old rules. Positions stay in the entry's own time.
    public func setSilenceSkipping(_ level: SilenceSkipping) {
        core.command { c, _ in
            c.silenceSkipping = level
            // The feeder takes it at its next chunk; only its idle wait needs no waking.
        }
    }

    public var silenceSkipping: SilenceSkipping { core.read { $0.commands.silenceSkipping } }

    /// Matched loudness: every entry brought to the target (LUFS) with its true peak under −1 dBTP,
    /// or `.off` (the samples untouched). A change plays on from the frame heard, as a speed does.
    public func setLoudness(_ matching: LoudnessMatching) {
        core.command { c, s in
            guard c.loudness != matching else { return }
            c.loudness = matching
            replayIfSounding(&c, s)
        }
    }

    public var loudness: LoudnessMatching { core.read { $0.commands.loudness } }

    /// Sets the sleep timer (`.off` cancels it). A `.after` timer counts playing time from now.
    public func setSleepTimer(_ timer: SleepTimer) {
        core.command { c, s in c.sleep.set(timer, played: s.played()) }
    }

    /// The sleep timer, with the seconds of playing left now for `.after`.
    public var sleepTimer: SleepTimer {
        core.read { $0.sleepTimer }
    }

    /// Seeks to `seconds` from the start of the entry heard now (or of the one being jumped to).
    public func seek(to seconds: Double) {
        core.command { c, s in
            switch aim(c, s) {
            case .frame(_, _, let format?) where format.isLive:
                break
            case .frame(let entry, _, let format?):
                var frame = FrameCount.of(seconds: max(0, seconds), rate: format.sampleRate)
                if let frames = format.frames { frame = min(frame, frames) }
                c.ask(.play(entry, .frame(frame)))
            case .opening(let entry, _):
                c.ask(.play(entry, .position(.seconds(max(0, seconds)))))
            case .frame(_, _, nil), nil:
                break
            }
        }
    }

    /// Seeks `delta` seconds from the position last asked for, while that seek is still pending or
    /// being carried out (so presses that arrive together add up), else from the position heard.
    public func seek(by delta: Double) {
        core.command { c, s in
            switch aim(c, s) {
            case .frame(_, _, let format?) where format.isLive:
                break
            case .frame(let entry, let frame, let format?):
                var target = max(0, frame + FrameCount.of(seconds: delta, rate: format.sampleRate))
                if let frames = format.frames { target = min(target, frames) }
                c.ask(.play(entry, .frame(target)))
            case .opening(let entry, let start):
                switch start {
                case .seconds(let seconds)?: c.ask(.play(entry, .position(.seconds(max(0, seconds + delta)))))
                case nil: c.ask(.play(entry, .position(.seconds(max(0, delta)))))
                // A fraction of a length not known yet: the seconds cannot be added to it.
                case .fraction?: break
                }
            case .frame(_, _, nil), nil:
                break
            }
        }
    }

    /// Seeks to a fraction (0…1) of the entry heard now (or of the one being jumped to).
    public func seek(toFraction fraction: Double) {
        let fraction = min(max(fraction, 0), 1)
        core.command { c, s in
            switch aim(c, s) {
            case .frame(_, _, let format?) where format.isLive:
                break
            case .frame(let entry, _, let format?):
                guard let frames = format.frames else { return }
                c.ask(.play(entry, .frame(FrameCount.clamped(Double(frames) * fraction))))
            case .opening(let entry, _):
                c.ask(.play(entry, .position(.fraction(fraction))))
            case .frame(_, _, nil), nil:
                break
            }
        }
    }

    /// Seconds into the entry that a relative seek starts from now: the seek asked for and not yet
    /// carried out, else the position heard (nil while nothing is).
    public var seekOrigin: Double? {
        core.read { state in
            switch aim(state.commands, state.status) {
            case .frame(_, let frame, let format?): return Double(frame) / Double(format.sampleRate)
            case .opening(_, .seconds(let seconds)?): return seconds
            default: return nil
            }
        }
    }

    /// Where in `entry` a seek asked for and not yet begun lands (seconds): what a position read now
    /// should say, so a read right after a seek is the seek's (nil: none is pending there). Lock held.
    private static func pendingSeek(in entry: QueueEntryID?, _ c: PlayerCommands, _ s: PlayerStatus) -> Double? {
        var asked = s.taken
        if case .play(let requested, let start)? = c.request { asked = (requested, start) }
        guard let entry, let (target, start) = asked, target == entry else { return nil }
        let format = s.map.spans.first { $0.entry == entry }?.format ?? (s.opened?.entry == entry ? s.opened?.format : nil)
        switch start {
        case .frame(let frame): return format.map { Double(frame) / Double($0.sampleRate) }
        case .position(.seconds(let seconds)): return seconds
        case .position(.fraction(let fraction)): return format?.duration.map { $0 * fraction }
        default: return nil
        }
    }

    /// The entry a jump or seek asked for and not yet begun is about. Lock held.
    private static func pendingEntry(_ c: PlayerCommands, _ s: PlayerStatus) -> QueueEntryID? {
        if case .play(let entry, _)? = c.request { return entry }
        return s.taken?.entry
    }

    /// What a seek starts from.
    private enum Aim {
        /// A frame of an entry, with its format when known.
        case frame(QueueEntryID, Int64, AudioFormat?)
        /// An entry being jumped to whose start frame is not known yet: where it is to start (nil:
        /// its beginning).
        case opening(QueueEntryID, StartPosition?)
    }

    /// What a seek starts from: the request pending, else the jump or seek the feeder is carrying
    /// out, else the frame heard (or where playback rests).
    private func aim(_ c: PlayerCommands, _ s: PlayerStatus) -> Aim? {
        var asked: (entry: QueueEntryID, start: PlayerCore.Start)?
        if case .play(let entry, let start)? = c.request {
            asked = (entry, start)
        } else if c.request == nil {
            asked = s.taken
        }
        if let (entry, start) = asked {
            let format = s.map.spans.first { $0.entry == entry }?.format ?? (s.opened?.entry == entry ? s.opened?.format : nil)
            switch start {
            case .frame(let frame): return .frame(entry, frame, format)
            case .position(let position): return .opening(entry, position)
            case .itemStart: return .opening(entry, c.queue.entry(entry)?.item.start)
            case .heard:
                // Where the listener is, which the feeder is about to read back exactly.
                if let location = s.location() { return .frame(location.entry, location.sourceFrame, location.format) }
                return nil
            }
        }
        if let location = s.location() { return .frame(location.entry, location.sourceFrame, location.format) }
        if let resting = s.resting { return .frame(resting.entry, resting.frame, resting.format) }
        return nil
    }

    /// Posts `.cueReached(id)` once when each cue's position of its entry is heard.
    public func setCues(_ cues: [PositionCue]) {
        core.command { c, _ in c.setCues(cues) }
    }

    /// Stops playback and closes the stream; the queue stays. Returns once the output is closed.
    public func stop() {
        if core.stop() { core.post(nil, .stopped) }
    }

    public func snapshot() -> PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        core.read { state in
            Self.settings(state.commands, state.status, into: &snapshot)
            snapshot.sleepTimer = state.sleepTimer
            Self.place(state.commands, state.status, into: &snapshot)
            snapshot.seekTarget = Self.pendingSeek(in: snapshot.entry, state.commands, state.status)
            snapshot.pendingEntry = Self.pendingEntry(state.commands, state.status)
        }
        snapshot.duration = snapshot.format?.duration
        if let format = snapshot.format {
            snapshot.position = Double(snapshot.positionFrames) / Double(format.sampleRate)
        }
        return snapshot
    }

    /// The snapshot's state and settings. Lock held.
    private static func settings(_ c: PlayerCommands, _ s: PlayerStatus, into snapshot: inout PlayerSnapshot) {
        snapshot.state = s.state
        snapshot.isHeld = c.held
        snapshot.noSoundServer = s.soundServerLost
        snapshot.volume = c.volume
        snapshot.speed = c.speed
        snapshot.queueCount = c.queue.count
        snapshot.silenceSkipping = c.silenceSkipping
        snapshot.silenceSavedTotal = s.silenceSavedTotal
        snapshot.loudness = c.loudness
        snapshot.loudnessGain = s.loudnessGain
        snapshot.limiterReduction = s.limiterReduction
    }

    /// The entry heard, where in it, what is buffered ahead and what its fetcher does. Lock held
    /// (PulseAudio's and the fetcher's are taken after it).
    private static func place(_ c: PlayerCommands, _ s: PlayerStatus, into snapshot: inout PlayerSnapshot) {
        var entry: QueueEntryID?
        if let location = s.location() {
            entry = location.entry
            snapshot.positionFrames = location.sourceFrame
            snapshot.format = location.format
            let played = s.sink.map { $0.playedFrames() } ?? 0
            let ratio = s.map.spans.last?.ratio ?? 1
            let queued = Double(max(0, s.map.written - played)) * ratio / Double(location.format.sampleRate)
            var fetched = 0.0
            if let opened = s.opened, opened.byteRate > 0, let item = s.item {
                fetched = Double(item.fetcher.bufferedBytes) / opened.byteRate
            }
            snapshot.bufferedAhead = queued + fetched
        } else if let resting = s.resting ?? s.lastHeardPlace.flatMap({ $0.entry == s.heard && s.sink == nil ? $0 : nil }) {
            // Resting, or begun with no stream yet (paused before the first one was made): the
            // listener stands where the entry was last begun, not at its frame 0.
            entry = resting.entry
            snapshot.positionFrames = resting.frame
            snapshot.format = resting.format
        } else {
            entry = s.heard
        }
        snapshot.entry = entry ?? c.queue.currentID
        // Opened and not heard yet (the sound server has not played its first frame): its format
        // all the same, so that a live stream is live before its first sound (a seek is refused).
        if snapshot.format == nil, let opened = s.opened, opened.entry == snapshot.entry { snapshot.format = opened.format }
        if let entry = snapshot.entry {
            snapshot.item = c.queue.entry(entry)?.item
            snapshot.metadata = s.metadata[entry]
                ?? snapshot.item.map { ItemMetadata(chapters: $0.chapters, transcript: $0.transcript) } ?? ItemMetadata()
            snapshot.queueIndex = c.queue.index(of: entry)
            snapshot.next = c.queue.entry(after: entry).flatMap { $0.id == entry && c.queue.loop != .entry ? nil : $0 }?.item
            snapshot.error = s.errors[entry]
            snapshot.silenceSaved = s.silenceSaved[entry] ?? 0
            snapshot.truncated = s.truncated.contains(entry)
        }
        if let item = s.item, item.entry == snapshot.entry {
            let fetcher = item.fetcher
            snapshot.fetch = fetcher.statistics
            if s.starving || s.state == .buffering || s.state == .loading {
                snapshot.refill = fetcher.rebufferProgress
                snapshot.reconnectingFor = fetcher.outageSeconds
                if snapshot.reconnectingFor != nil && s.state == .buffering { snapshot.state = .reconnecting }
            }
        }
    }

    // MARK: Events

    /// A new reader of this player's events: it sees every event posted from now on.
    public func subscribe() -> PlayerSubscription { core.hub.subscribe() }

    /// Tells every subscriber that what the player's owner keeps beside it changed (`.ownerChanged`):
    /// observers are pushed the change from an event, never found it by comparing on a timer.
    public func announceChange() { core.hub.post(PlayerEvent(entry: nil, kind: .ownerChanged)) }

    /// The next event of the player's own subscription, waiting up to `timeout` (forever when
    /// nil). Returns nil on timeout, or when `wakeEventWaiters` was called.
    public func nextEvent(timeout: Duration?) -> PlayerEvent? {
        defaultEvents.next(timeout: timeout)
    }

    /// Ends one `nextEvent` wait without an event.
    public func wakeEventWaiters() { defaultEvents.wake() }
}
