import AliciaLocks

/// Bytes gathered by a reader thread while the test thread writes.
final class ByteCollector: Sendable {
    private let bytes = Locked<[UInt8]>([])

    var count: Int { bytes.withLock { $0.count } }
    var all: [UInt8] { bytes.withLock { $0 } }

    func append(_ more: ArraySlice<UInt8>) {
        bytes.withLock { $0 += more }
    }
}
