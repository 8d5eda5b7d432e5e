import AliciaLocks

/// A sink without a sound server (mpv's `ao_null`, swift-nio's embedded channel): it records every
/// frame written, with the time, and "plays" only when its owner says so (`play(frames:)`), so
/// positions, joins, events and the samples themselves can be checked frame by frame, in-process.
/// Writes block while `capacity` frames wait unplayed, as a device's buffer does.
package final class RecordingSink: AudioSink, @unchecked Sendable {
    // @unchecked: every field is behind `state`'s lock.
    package struct State {
        package var bytes: [UInt8] = []
        package var writes: [(frames: Int, at: ContinuousClock.Instant)] = []
        /// Frames written and played, counted from the sink's opening.
        package var written: Int64 = 0
        package var played: Int64 = 0
        /// Frame (from the opening) where the current segment began: the last flush.
        package var segmentStart: Int64 = 0
        package var interrupted = false
        package var paused = false
        package var held = false
        package var closed = false
        package var flushes = 0
        /// While true, a flush waits before it does anything: the feeder is held in the middle of
        /// a seek, so a test can ask for more while one is being carried out.
        package var holdFlushes = false
        /// Flushes begun (held or not).
        package var flushesBegun = 0
        package var mediaNames: [String] = []
    }

    package let format: AudioFormat
    let capacity: Int64
    let state: ConditionLock<State>

    package init(format: AudioFormat, capacity: Int64 = 8192, mediaName: String) {
        self.format = format
        self.capacity = capacity
        var initial = State()
        initial.mediaNames = [mediaName]
        state = ConditionLock(initial)
    }

    // MARK: The test's side

    /// The device plays up to `frames` more of what was written (fewer when less waits).
    package func play(frames: Int64) {
        state.update { s in s.played = min(s.written, s.played + frames) }
    }

    /// Waits until at least `frames` frames (from the opening) have been written; false on timeout.
    package func waitForWritten(_ frames: Int64, timeout: Duration = .seconds(30)) -> Bool {
        state.withLock(waitingUntil: { $0.written >= frames || $0.closed }, timeout: timeout) { $0.written >= frames }
    }

    package var bytes: [UInt8] { state.withLock { $0.bytes } }
    package var snapshot: State { state.withLock { $0 } }

    // MARK: AudioSink

    func write(_ bytes: UnsafeRawBufferPointer) -> SinkResult {
        let frames = Int64(bytes.count / format.bytesPerFrame)
        defer { state.broadcast() }
        return state.withLock(waitingUntil: { $0.interrupted || $0.closed || $0.written - $0.played + frames <= capacity }) { s -> SinkResult in
            if s.interrupted { return .interrupted }
            if s.closed { return .failed(.audioOutput(reason: "closed")) }
            s.bytes.append(contentsOf: bytes)
            s.written += frames
            s.writes.append((Int(frames), ContinuousClock.now))
            return .done
        }
    }

    func setPaused(_ paused: Bool) { state.update { $0.paused = paused } }
    func setHeld(_ held: Bool) { state.update { $0.held = held } }
    func setMediaName(_ name: String) { state.update { $0.mediaNames.append(name) } }

    func freeze() -> Int64 { state.withLock { $0.played - $0.segmentStart } }

    /// Holds (true) or lets go (false) the flushes to come and any held now.
    package func holdFlushes(_ hold: Bool) { state.update { $0.holdFlushes = hold } }

    /// Waits until `count` flushes have begun; false on timeout.
    package func waitForFlushesBegun(_ count: Int, timeout: Duration = .seconds(30)) -> Bool {
        state.withLock(waitingUntil: { $0.flushesBegun >= count }, timeout: timeout) { $0.flushesBegun >= count }
    }

    func flush() -> SinkResult {
        state.update { $0.flushesBegun += 1 }
        state.withLock(waitingUntil: { !$0.holdFlushes }) { _ in }
        return state.update { s -> SinkResult in
            if s.interrupted { return .interrupted }
            let unplayed = Int(s.written - s.played) * format.bytesPerFrame
            s.bytes.removeLast(unplayed)
            s.written = s.played
            s.segmentStart = s.played
            s.flushes += 1
            return .done
        }
    }

    func drain() -> SinkResult {
        state.withLock(waitingUntil: { $0.played >= $0.written || $0.interrupted || $0.closed }) { s -> SinkResult in
            s.interrupted ? .interrupted : .done
        }
    }

    func interrupt() { state.update { $0.interrupted = true } }
    func clearInterrupt() { state.update { $0.interrupted = false } }

    func playedFrames() -> Int64 { state.withLock { $0.played - $0.segmentStart } }

    var isStarved: Bool { state.withLock { $0.played >= $0.written } }

    func close() { state.update { $0.closed = true } }
}

/// Makes `RecordingSink`s for a player and keeps them, newest last.
package final class RecordingSinks: @unchecked Sendable {
    // @unchecked: `made` is behind its lock.
    private let made = ConditionLock<[RecordingSink]>([])

    package init() {}

    var maker: SinkMaker {
        { (format, name) throws(PlaybackError) -> any AudioSink in
            let sink = RecordingSink(format: format, mediaName: name)
            self.made.update { $0.append(sink) }
            return sink
        }
    }

    package var all: [RecordingSink] { made.withLock { $0 } }

    /// An output onto these sinks, holding `downstreamSeconds` between the feeder and the listener.
    package func output(downstreamSeconds: Double = 0) -> OutputDevice {
        OutputDevice(serverName: "the recording sink", downstreamSeconds: downstreamSeconds, makeSink: maker)
    }

    /// The newest sink, waiting for one to be made.
    package func current(timeout: Duration = .seconds(30)) -> RecordingSink? {
        made.withLock(waitingUntil: { !$0.isEmpty }, timeout: timeout) { $0.last }
    }
}
