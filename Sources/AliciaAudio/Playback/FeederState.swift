import AliciaLocks
/// What only the feeder thread touches (`PlayerCore.run` and what it calls), as mpv's AO thread
/// keeps its own fields out of the lock: the output's stage chain and its stages, the chunk buffer,
/// the features' own state, and what was last taken from the commands.
final class FeederState {
    /// The stream's format, while a sink is open.
    var sinkFormat: AudioFormat?
    /// A fixed-format device's format, once the first item has decided it.
    var fixedFormat: AudioFormat?
    /// Converter (at a join of another format), speed, loudness and gain, in order.
    var chain: StageChain?
    var speedStage: SpeedStage?
    var gainStage: GainStage?
    /// The entry a prefetch was last started for (once each, even when it failed).
    var prefetched: QueueEntryID?
    /// `PlayerCommands.gainChanges` as last applied to the gain stage.
    var gainChangesApplied = 0
    /// The live stream's change count last put in the entry's metadata.
    var liveChangesSeen: (entry: QueueEntryID, changes: Int)?
    private var buffer: UnsafeMutableRawPointer?
    private var bufferBytes = 0

    // The features, each called at an entry's start, around each chunk and at an entry's end.
    let loudness: LoudnessMatcher
    let sleep: SleepTimerClock
    let skip: SkipSilenceSetup
    let recovery: SoundServerRecovery

    init(shared: ConditionLock<CoreState>, hub: EventHub, configuration: PlayerConfiguration, output: OutputDevice) {
        loudness = LoudnessMatcher(shared: shared, hub: hub, configuration: configuration)
        sleep = SleepTimerClock(shared: shared)
        skip = SkipSilenceSetup(shared: shared)
        recovery = SoundServerRecovery(shared: shared, hub: hub, serverName: output.serverName)
    }

    deinit { buffer?.deallocate() }

    /// A buffer for one chunk of `format`, allocated once (and again only for a larger frame).
    func chunkBuffer(for format: AudioFormat) -> UnsafeMutableRawPointer {
        let bytes = PlayerCore.chunkFrames * format.bytesPerFrame
        if let buffer, bufferBytes >= bytes { return buffer }
        buffer?.deallocate()
        let made = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
        buffer = made
        bufferBytes = bytes
        return made
    }

    /// A new sink of `format`: a chain of its own.
    func makeChain(for format: AudioFormat) -> GainStage {
        sinkFormat = format
        let speed = SpeedStage(format: format, blockFrames: PlayerCore.chunkFrames)
        speedStage = speed
        let gain = GainStage(format: format, blockFrames: PlayerCore.chunkFrames)
        gainStage = gain
        let loudnessStage = LoudnessStage(format: format, blockFrames: PlayerCore.chunkFrames)
        loudness.attach(loudnessStage)
        chain = StageChain([speed, loudnessStage, gain])
        return gain
    }

    /// The sink closed: its chain goes with it.
    func dropChain() {
        sinkFormat = nil
        chain = nil
    }
}
