import AliciaLocks

/// A sink that is not a device: every frame is handed on as it is written (to a file being
/// rendered), so the player runs as fast as it decodes, never in real time. What is written counts
/// as played at once; nothing waits in it, so a drain or a flush has nothing to do.
package final class StreamSink: AudioSink, Sendable {
    package typealias Consumer = @Sendable (_ bytes: UnsafeRawBufferPointer, _ format: AudioFormat) -> PlaybackError?

    private struct State {
        /// Frames of the current segment (since the last flush).
        var written: Int64 = 0
        var interrupted = false
    }

    private let format: AudioFormat
    private let consume: Consumer
    private let state = Locked(State())

    init(format: AudioFormat, consume: @escaping Consumer) {
        self.format = format
        self.consume = consume
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> SinkResult {
        if state.withLock({ $0.interrupted }) { return .interrupted }
        if let error = consume(bytes, format) { return .failed(error) }
        let frames = Int64(bytes.count / format.bytesPerFrame)
        state.withLock { $0.written += frames }
        return .done
    }

    func setPaused(_ paused: Bool) {}
    func setHeld(_ held: Bool) {}
    func setMediaName(_ name: String) {}
    func freeze() -> Int64 { state.withLock { $0.written } }

    func flush() -> SinkResult {
        state.withLock { s -> SinkResult in
            if s.interrupted { return .interrupted }
            s.written = 0
            return .done
        }
    }

    func drain() -> SinkResult { state.withLock { $0.interrupted } ? .interrupted : .done }
    func interrupt() { state.withLock { $0.interrupted = true } }
    func clearInterrupt() { state.withLock { $0.interrupted = false } }
    func playedFrames() -> Int64 { state.withLock { $0.written } }
    var isStarved: Bool { false }
    func close() {}
}

extension OutputDevice {
    /// Frames handed to `consume` as fast as they are made, in one format for the device's life:
    /// the first item's, as `fix` makes it (a file's encoder may take only some rates).
    package static func stream(fix: @escaping @Sendable (AudioFormat) -> AudioFormat,
                               consume: @escaping StreamSink.Consumer) -> OutputDevice {
        var device = OutputDevice(serverName: "the file", downstreamSeconds: 0) { format, _ throws(PlaybackError) in
            StreamSink(format: format, consume: consume)
        }
        device.fixedFormat = fix
        return device
    }
}

/// Which stretch of a fixed-format device's frames holds which entry's source frames: every span
/// the player wrote since it was made (`Player.timeline()`), and what each entry is about.
package struct OutputTimeline: Sendable {
    package struct Span: Sendable, Equatable {
        package var entry: QueueEntryID
        /// Output frame (from the device's first) where the span begins.
        package var outputStart: Int64
        /// The entry's source frame heard there, its source rate, and source frames per output frame.
        package var sourceStart: Int64
        package var sourceRate: Int
        package var ratio: Double
        /// The span goes on from the one before it after skipped silence (not a new entry).
        package var isCut: Bool

        package init(entry: QueueEntryID, outputStart: Int64, sourceStart: Int64, sourceRate: Int, ratio: Double, isCut: Bool) {
            self.entry = entry
            self.outputStart = outputStart
            self.sourceStart = sourceStart
            self.sourceRate = sourceRate
            self.ratio = ratio
            self.isCut = isCut
        }
    }

    package var spans: [Span] = []
    package var metadata: [QueueEntryID: ItemMetadata] = [:]

    package init(spans: [Span] = [], metadata: [QueueEntryID: ItemMetadata] = [:]) {
        self.spans = spans
        self.metadata = metadata
    }
}

extension Player {
    /// Every span written so far and each entry's metadata; empty on a device that follows its
    /// items (only a fixed-format device keeps them).
    package func timeline() -> OutputTimeline {
        core.read { s in
            let spans = (s.status.map.history ?? []).map {
                OutputTimeline.Span(entry: $0.entry, outputStart: $0.sinkStart, sourceStart: $0.sourceStart,
                                    sourceRate: $0.format.sampleRate, ratio: $0.ratio, isCut: $0.isCut)
            }
            return OutputTimeline(spans: spans, metadata: s.status.metadata)
        }
    }
}
