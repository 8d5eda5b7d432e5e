/// The source of a body that is produced while it is sent (media, the chat stream).
///
/// The daemon calls ``read(into:)`` from the connection's own thread, one call at a time, until it
/// answers `.end` or `.abort`, or the client goes away. A producer may block in `read` (a rate limit,
/// a delay between chat tokens): with one thread per connection that holds up no one else, and every
/// such wait ends early when the backend stops.
protocol BodyProducer: AnyObject {
    func read(into buffer: UnsafeMutableRawBufferPointer) -> BodyRead
}

/// The outcome of one ``BodyProducer/read(into:)``.
enum BodyRead: Equatable {
    /// This many bytes (at least 1) were written to the front of the buffer.
    case bytes(Int)
    /// The body is complete.
    case end
    /// Drop the connection now (an injected fault, or the backend is stopping).
    case abort
}
