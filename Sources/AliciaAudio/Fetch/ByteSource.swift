/// What a blocking read of a `ByteSource` found.
enum ByteRead: Equatable {
    case bytes(Int)
    case endOfFile
    /// `interruptReader()` was called: a seek or stop wants the reading thread.
    case interrupted
    /// The source failed; the error is in `failure`.
    case failed
}

/// Random-access bytes a decoder reads, blocking until they are there. The
/// seam between decoding and fetching: tests put bytes in memory behind it.
protocol ByteSource: AnyObject, Sendable {
    /// The size in bytes; blocks until the first answer says it. Nil when unknown.
    func length() -> Int64?
    /// Reads up to `buffer.count` bytes at `offset`; blocks until at least one is there.
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> ByteRead
    /// Makes a blocked (or the next) `read` return `.interrupted` until `clearInterrupt`.
    func interruptReader()
    func clearInterrupt()
    /// Why the source stopped, if it failed.
    var failure: PlaybackError? { get }
}
