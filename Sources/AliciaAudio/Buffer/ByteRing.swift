/// A fixed-capacity FIFO of bytes: appends at the back, reads and drops at the
/// front, wrapping around one allocation. Pure arithmetic, no locking: the
/// owner (`StreamBuffer`) guards it.
final class ByteRing {
    private var storage: UnsafeMutableRawBufferPointer
    /// Index in `storage` of the oldest byte.
    private var head = 0
    /// Bytes held.
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity > 0, "ByteRing.init: capacity must be positive")
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    var capacity: Int { storage.count }
    var free: Int { capacity - count }
    var isEmpty: Bool { count == 0 }

    /// Appends as many of `bytes` as fit; returns how many.
    @discardableResult
    func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        let n = min(bytes.count, free)
        guard n > 0, let source = bytes.baseAddress else { return 0 }
        let tail = (head + count) % capacity
        let first = min(n, capacity - tail)
        (storage.baseAddress! + tail).copyMemory(from: source, byteCount: first)
        if n > first {
            storage.baseAddress!.copyMemory(from: source + first, byteCount: n - first)
        }
        count += n
        return n
    }

    /// Copies bytes starting `offset` bytes after the front into `destination`
    /// without removing them; returns how many were copied.
    func copy(from offset: Int, into destination: UnsafeMutableRawBufferPointer) -> Int {
        precondition(offset >= 0, "ByteRing.copy: negative offset")
        let n = min(destination.count, count - offset)
        guard n > 0, let target = destination.baseAddress else { return 0 }
        let start = (head + offset) % capacity
        let first = min(n, capacity - start)
        target.copyMemory(from: storage.baseAddress! + start, byteCount: first)
        if n > first {
            (target + first).copyMemory(from: storage.baseAddress!, byteCount: n - first)
        }
        return n
    }

    /// Drops up to `n` bytes from the front.
    func removeFirst(_ n: Int) {
        let n = min(max(n, 0), count)
        head = (head + n) % capacity
        count -= n
        if count == 0 { head = 0 }
    }

    func removeAll() {
        head = 0
        count = 0
    }

    /// Reallocates to `newCapacity`, keeping the newest bytes that fit.
    /// Not for the steady state: called once a stream's byte rate is known.
    func resize(to newCapacity: Int) {
        precondition(newCapacity > 0, "ByteRing.resize: capacity must be positive")
        guard newCapacity != capacity else { return }
        let keep = min(count, newCapacity)
        let replacement = UnsafeMutableRawBufferPointer.allocate(byteCount: newCapacity, alignment: 16)
        _ = copy(from: count - keep, into: UnsafeMutableRawBufferPointer(rebasing: replacement[0..<keep]))
        storage.deallocate()
        storage = replacement
        head = 0
        count = keep
    }
}
