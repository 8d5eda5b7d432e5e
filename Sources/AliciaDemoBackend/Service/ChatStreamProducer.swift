/// The body of a chat reply: server-sent events written one at a time, each after its delay.
final class ChatStreamProducer: BodyProducer {
    /// Bytes to send after a pause.
    struct Piece {
        var delay: Duration
        var bytes: [UInt8]
    }

    private let pieces: [Piece]
    private let stopSignal: StopSignal
    /// The piece being sent and how much of it has gone.
    private var index = 0
    private var offset = 0

    init(_ pieces: [Piece], stopSignal: StopSignal) {
        self.pieces = pieces
        self.stopSignal = stopSignal
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> BodyRead {
        while index < pieces.count && pieces[index].bytes.isEmpty {
            index += 1
        }
        guard index < pieces.count else { return .end }
        let piece = pieces[index]
        if offset == 0 {
            guard stopSignal.wait(for: piece.delay) else { return .abort }
        }
        let count = min(buffer.count, piece.bytes.count - offset)
        piece.bytes.withUnsafeBytes { bytes in
            UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
        }
        offset += count
        if offset == piece.bytes.count {
            index += 1
            offset = 0
        }
        return .bytes(count)
    }
}
