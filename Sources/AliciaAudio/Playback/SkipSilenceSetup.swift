import AliciaLocks
/// Skip silence on the feeder's side: the skipper in front of the stage chain (nil while the level
/// is off), made or restarted at an entry's start (`startEntry`), following a level changed while
/// playing before each chunk (`followLevel`), and let out at the entry's end (`endEntry`), so a
/// pause it ends on is shortened too. Its cuts go into the frame map before the frames after them
/// are written. Feeder thread only.
final class SkipSilenceSetup {
    private let shared: ConditionLock<CoreState>
    private(set) var skipper: SilenceSkipper?

    init(shared: ConditionLock<CoreState>) {
        self.shared = shared
    }

    /// A skipper for an entry of `format` starting at `frame` (none while skip silence is off).
    func startEntry(format: AudioFormat, at frame: Int64, newItem: Bool) {
        let level = shared.withLock { $0.commands.silenceSkipping }
        guard level != .off else {
            skipper = nil
            return
        }
        if let skipper, skipper.format == format.streamFormat {
            if skipper.level != level { skipper.setLevel(level) }
            skipper.restart(at: frame, newItem: newItem)
        } else {
            let made = SilenceSkipper(format: format.streamFormat, level: level, pieceFrames: PlayerCore.chunkFrames)
            // The map learns of a cut before the frames after it are written, so the listener can
            // never reach them unmapped. The closure holds the lock, not the core (no cycle).
            let shared = self.shared
            made.onCut = { cut in shared.withLock { $0.status.map.cut(from: cut.from, to: cut.to) } }
            made.restart(at: frame, newItem: true)
            skipper = made
        }
    }

    /// Before each chunk: takes a level changed while playing; a pause held under the old rules is
    /// let out by them first (through `emit`).
    func followLevel(format: AudioFormat, emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        let level = shared.withLock { $0.commands.silenceSkipping }
        guard level != (skipper?.level ?? .off) else { return .done }
        guard let skipper else {
            startEntry(format: format, at: shared.withLock { $0.status.decodedFrame }, newItem: true)
            return .done
        }
        let result = skipper.flush(emit: emit)
        guard case .done = result else { return result }
        if level == .off {
            self.skipper = nil
        } else {
            skipper.setLevel(level)
        }
        return .done
    }

    /// Each chunk of decoded frames: through the skipper when on, then `emit`.
    func process(_ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        guard let skipper else { return emit(input) }
        return skipper.process(input, emit: emit)
    }

    /// The entry's decoding has ended: a pause it ends on goes out shortened.
    func endEntry(emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        skipper?.flush(emit: emit) ?? .done
    }

    /// Playback stopped: a new start makes a new skipper.
    func stop() {
        skipper = nil
    }
}
