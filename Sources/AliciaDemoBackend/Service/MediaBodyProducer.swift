/// The body of an audio response: bytes `range` of a synthesized WAV, with the media faults applied
/// (a rate limit, a connection dropped after some bytes).
final class MediaBodyProducer: BodyProducer {
    private let cursor: WAVCursor
    private var position: Int
    private let end: Int
    private let faults: DemoBackend.Faults
    private let stopSignal: StopSignal
    /// Body bytes produced so far.
    private var sent = 0
    /// When the first byte went out, for the rate limit.
    private var started: ContinuousClock.Instant?

    init(_ wav: SynthesizedWAV, range: ClosedRange<Int>, faults: DemoBackend.Faults, stopSignal: StopSignal) {
        cursor = WAVCursor(wav)
        position = range.lowerBound
        end = range.upperBound + 1
        self.faults = faults
        self.stopSignal = stopSignal
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> BodyRead {
        guard !stopSignal.isStopped else { return .abort }
        guard position < end else { return .end }
        var count = min(buffer.count, end - position)
        if let limit = faults.closeAfterBodyBytes {
            guard sent < limit else { return .abort }
            count = min(count, limit - sent)
        }
        if let rate = faults.bytesPerSecond {
            // Twentieth-of-a-second chunks: even over a short transfer the rate holds, and each
            // chunk is still large enough to cost little. Chunk n leaves when n chunks' worth of
            // time has passed since the first.
            count = min(count, max(1, rate / 20))
            let now = ContinuousClock.now
            let start = started ?? now
            started = start
            let due = start + .seconds(Double(sent) / Double(rate))
            if due > now, !stopSignal.wait(for: due - now) {
                return .abort
            }
        }
        let written = cursor.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
        guard written > 0 else { return .abort }
        // `Faults.mediaRevision`: a file changed on the server.
        let revision = faults.mediaRevision
        if revision != 0 {
            for offset in 0..<written where position + offset >= SynthesizedWAV.headerSize {
                buffer[offset] ^= revision
            }
        }
        position += written
        sent += written
        return .bytes(written)
    }
}
