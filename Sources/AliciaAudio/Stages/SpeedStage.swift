/// Speed at the same pitch (`PitchStretcher` through `SpeedChanger`), in the sink's format. Bypassed at 1×.
/// Feeder thread only.
final class SpeedStage: AudioStage {
    private let format: AudioFormat
    private let blockFrames: Int
    private var changer: SpeedChanger?
    private(set) var speed = 1.0

    init(format: AudioFormat, blockFrames: Int) {
        self.format = format
        self.blockFrames = blockFrames
    }

    /// Plays what comes next at `speed` (dropping what is held); false when memory runs out.
    func setSpeed(_ speed: Double) -> Bool {
        self.speed = speed
        guard speed != 1 else { return true }
        if let changer, changer.reset(speed: speed) { return true }
        changer = SpeedChanger(format: format, maxFrames: blockFrames, speed: speed)
        return changer != nil
    }

    func process(_ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        guard speed != 1, let changer else { return emit(input) }
        // The changer takes at most `blockFrames` frames a call: a converter upstream may hand on more.
        let blockBytes = blockFrames * format.bytesPerFrame
        var offset = 0
        while offset < input.count {
            let count = min(blockBytes, input.count - offset)
            let result = changer.process(UnsafeRawBufferPointer(rebasing: input[offset..<offset + count]), emit: emit)
            guard case .done = result else { return result }
            offset += count
        }
        return .done
    }

    func flush(emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        guard speed != 1, let changer else { return .done }
        let result = changer.finish(emit: emit)
        _ = changer.reset(speed: speed)
        return result
    }

    func reset() {
        if speed != 1, let changer { _ = changer.reset(speed: speed) }
    }
}
