/// One step between the decoder and the sink (format conversion, speed, gain; later skip silence
/// and loudness). Feeder thread only. A stage at unity hands its input on untouched, so the chain
/// as a whole is bit-exact at 1× and 100 %.
protocol AudioStage: AnyObject {
    /// Takes `input` (whole frames of the stage's input format) and hands each block of output to
    /// `emit`, stopping early with `emit`'s result when that is not `.done`.
    func process(_ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult
    /// The end of the input: hands out whatever the stage still holds.
    func flush(emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult
    /// Drops whatever the stage holds (a seek, a jump): the next input is a new signal.
    func reset()
}

/// The stages in order, the last one's output going to the sink. Feeder thread only.
final class StageChain {
    private(set) var stages: [any AudioStage]

    init(_ stages: [any AudioStage]) {
        self.stages = stages
    }

    /// Puts `stage` first (a converter for an item in another format) or takes the first one away.
    func replaceFront(_ stage: (any AudioStage)?, whenFrontIs isFront: (any AudioStage) -> Bool) {
        if let first = stages.first, isFront(first) { stages.removeFirst() }
        if let stage { stages.insert(stage, at: 0) }
    }

    func process(_ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        process(input, from: 0, into: sink)
    }

    /// Flushes every stage in order, so that what each one held passes through those after it.
    func flush(into sink: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        for index in stages.indices {
            let result = stages[index].flush { self.process($0, from: index + 1, into: sink) }
            guard case .done = result else { return result }
        }
        return .done
    }

    func reset() {
        for stage in stages { stage.reset() }
    }

    private func process(_ input: UnsafeRawBufferPointer, from index: Int,
                         into sink: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        guard index < stages.count else { return sink(input) }
        return stages[index].process(input) { self.process($0, from: index + 1, into: sink) }
    }
}
