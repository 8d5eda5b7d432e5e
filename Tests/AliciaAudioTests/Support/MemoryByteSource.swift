@testable import AliciaAudio
import AliciaLocks

/// A `ByteSource` over bytes in memory: the decoder's seam without a network.
/// Counts reads, and can hand out at most `chunk` bytes per read to exercise
/// callers that must loop.
final class MemoryByteSource: ByteSource {
    let bytes: [UInt8]
    let chunk: Int
    private let state = Locked<(interrupted: Bool, reads: Int)>((false, 0))

    init(_ bytes: [UInt8], chunk: Int = .max) {
        self.bytes = bytes
        self.chunk = chunk
    }

    func length() -> Int64? { Int64(bytes.count) }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> ByteRead {
        let interrupted = state.withLock { s -> Bool in
            s.reads += 1
            return s.interrupted
        }
        if interrupted { return .interrupted }
        guard offset < Int64(bytes.count) else { return .endOfFile }
        let n = min(buffer.count, bytes.count - Int(offset), chunk)
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + Int(offset), byteCount: n)
        }
        return .bytes(n)
    }

    func interruptReader() { state.withLock { $0.interrupted = true } }
    func clearInterrupt() { state.withLock { $0.interrupted = false } }
    var failure: PlaybackError? { nil }
    var reads: Int { state.withLock { $0.reads } }
}
