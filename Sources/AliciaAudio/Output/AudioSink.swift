/// What a blocking write to a sink found.
enum SinkResult: Equatable {
    case done
    /// `interrupt()` was called: a seek or stop wants the feeder thread.
    case interrupted
    case failed(PlaybackError)
}

/// Where decoded frames go. The feeder thread writes; any thread may pause,
/// interrupt or read the position. The seam between playback and the device.
protocol AudioSink: AnyObject, Sendable {
    /// Queues `bytes` (whole frames), blocking while the device's buffer is full.
    func write(_ bytes: UnsafeRawBufferPointer) -> SinkResult
    /// Corks (true) or uncorks the stream; what is queued stays.
    func setPaused(_ paused: Bool)
    /// Corks for another stream's focus, waiting until the server has: then
    /// `playedFrames` is exact. Independent of `setPaused`.
    func setHeld(_ held: Bool)
    /// Corks (true) while the player waits for the network to refill after running dry, and
    /// uncorks (false): what is queued stays. Independent of `setPaused` and `setHeld`.
    func setBuffering(_ waiting: Bool)
    /// What mixers call the stream (the item playing).
    func setMediaName(_ name: String)
    /// Stops the device where it is (corked, its position read back from it) and returns the exact
    /// frame of the segment it stopped at; the next segment starts held, as after `flush`.
    func freeze() -> Int64
    /// Drops everything queued and starts a new segment: `playedFrames` counts from 0 again.
    func flush() -> SinkResult
    /// Blocks until everything queued has been played.
    func drain() -> SinkResult
    /// As `drain`, for a player that hands the output to another when it ends (the voice-note
    /// player, whose end resumes the episode): it may return as soon as the server says the audio
    /// has played, not only when it acknowledges the drain.
    func drainForHandoff() -> SinkResult
    /// Makes a blocked (or the next) `write`, `flush` or `drain` return `.interrupted`.
    func interrupt()
    func clearInterrupt()
    /// Frames of the current segment the device has actually played.
    func playedFrames() -> Int64
    /// The device ran out of data and waits for more (network stall, slow decode).
    var isStarved: Bool { get }
    /// The device the stream plays on, when it changed since the last call (the server moved the
    /// stream: its sink went away, or someone moved it in a mixer): the old one and the new one.
    func takeMove() -> SinkMove?
    /// Disconnects. Idempotent.
    func close()
}

extension AudioSink {
    /// Sinks that cannot run dry mid-item (test recorders) ignore it.
    func setBuffering(_ waiting: Bool) {}
    /// Sinks that are their own device never move.
    func takeMove() -> SinkMove? { nil }
}

/// A stream moved from one device to another (names as `pactl list short sinks` gives them).
public struct SinkMove: Sendable, Equatable {
    public var from: String
    public var to: String
}

extension AudioSink {
    func drainForHandoff() -> SinkResult { drain() }
}
