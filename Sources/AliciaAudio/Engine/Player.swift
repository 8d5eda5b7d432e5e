import Synchronization

// Thread map (keep it true):
// | thread            | owns                                  | waits on                                   |
// | caller (UI, CLI)  | nothing of the pipeline               | `nextEvent` (a condition), its own I/O     |
// | alicia-fetch      | the curl easy + multi handles         | `curl_multi_poll`, woken by `curl_multi_wakeup` |
// | alicia-feeder     | the decoder, the speed changer, the sink's write side | the fetcher's condition, PulseAudio's mainloop condition |
// | libpulse mainloop | nothing of ours                       | callbacks only record state and signal     |
// Commands from the caller are recorded under a lock and wake whatever the
// feeder blocks on; nothing sleeps on a guess.

/// A player: one stream at a time, fetched with Range requests, decoded by
/// libsndfile, played by PulseAudio. Commands return at once; state is read
/// with `snapshot()`, changes arrive through `nextEvent(timeout:)`.
public final class Player: Sendable {
    private let configuration: PlayerConfiguration
    private let pipeline = Mutex<Pipeline?>(nil)
    /// Kept across streams: the next one plays at the same volume and speed.
    private let volume = Mutex(1.0)
    private let speed = Mutex(1.0)
    private let events = ConditionLock(EventQueue())

    private struct EventQueue {
        var items: [PlayerEvent] = []
        /// `wakeEventWaiters` calls not yet seen by a waiter.
        var wakeUps = 0
    }

    public init(configuration: PlayerConfiguration = PlayerConfiguration()) {
        self.configuration = configuration
    }

    deinit { stop() }

    /// Starts playing `location` (from `start`), replacing what plays now.
    /// A location that cannot even be fetched throws at once; everything else
    /// (network, decoding, the device) arrives as a `.failed` event.
    public func play(_ location: MediaLocation, from start: StartPosition? = nil) throws(PlaybackError) {
        stop()
        let events = self.events
        let made = try Pipeline(location: location, start: start, configuration: configuration) { event in
            events.update { $0.items.append(event) }
        }
        events.update { $0.items.append(.stateChanged(.loading)) }
        let gain = volume.withLock { $0 }
        if gain != 1 { made.setVolume(gain) }
        let pace = speed.withLock { $0 }
        if pace != 1 { made.setSpeed(pace) }
        pipeline.withLock { $0 = made }
        made.begin()
    }

    public func pause() { current?.setPaused(true) }

    public func resume() { current?.setPaused(false) }

    public func togglePause() {
        guard let current else { return }
        current.setPaused(!current.isPaused)
    }

    /// Holds playback (true) for another player's focus, or lets it go; returns
    /// the exact frame where playback stands (after the server has stopped, when
    /// holding). A paused player stays paused when released.
    @discardableResult
    public func setHeld(_ held: Bool) -> Int64? {
        current?.setHeld(held)
    }

    /// Sets the linear gain (1 = as decoded), applied by PulseAudio at once.
    public func setVolume(_ linear: Double) {
        volume.withLock { $0 = linear }
        current?.setVolume(linear)
    }

    /// The speeds `setSpeed` takes: half to three times as fast.
    public static let speedRange = SpeedChanger.range

    /// Plays faster or slower (1 = as recorded) at the same pitch, clamped to `speedRange`; returns
    /// the speed set. The change starts from the frame playing now, with a pause of a few milliseconds.
    @discardableResult
    public func setSpeed(_ speed: Double) -> Double {
        let clamped = min(max(speed, Self.speedRange.lowerBound), Self.speedRange.upperBound)
        self.speed.withLock { $0 = clamped }
        current?.setSpeed(clamped)
        return clamped
    }

    /// Seeks to `seconds` from the start.
    public func seek(to seconds: Double) {
        guard let current, let format = current.snapshot().format else { return }
        current.seek(toFrame: Int64((max(0, seconds) * Double(format.sampleRate)).rounded()))
    }

    /// Seeks `delta` seconds from the position now.
    public func seek(by delta: Double) {
        guard let current else { return }
        seek(to: current.snapshot().position + delta)
    }

    /// Seeks to a fraction (0…1) of the duration.
    public func seek(toFraction fraction: Double) {
        guard let current, let duration = current.snapshot().duration else { return }
        seek(to: duration * min(max(fraction, 0), 1))
    }

    /// Stops and releases the stream. Idempotent.
    public func stop() {
        let stopped = pipeline.withLock { (current: inout Pipeline?) -> Pipeline? in
            defer { current = nil }
            return current
        }
        stopped?.stop()
    }

    public func snapshot() -> PlayerSnapshot {
        current?.snapshot() ?? PlayerSnapshot()
    }

    /// The next event, waiting up to `timeout` (forever when nil) for one.
    /// Returns nil on timeout, or when `wakeEventWaiters` was called.
    public func nextEvent(timeout: Duration?) -> PlayerEvent? {
        events.withLock(waitingUntil: { !$0.items.isEmpty || $0.wakeUps > 0 }, timeout: timeout) { queue in
            if !queue.items.isEmpty { return queue.items.removeFirst() }
            queue.wakeUps = max(0, queue.wakeUps - 1)
            return nil
        }
    }

    /// Ends one `nextEvent` wait without an event: a caller's signal handling
    /// uses it to get its loop's attention.
    public func wakeEventWaiters() { events.update { $0.wakeUps += 1 } }

    private var current: Pipeline? { pipeline.withLock { $0 } }
}
