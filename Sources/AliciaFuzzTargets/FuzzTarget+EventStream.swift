import AliciaBackend

extension FuzzTarget {
    /// `/api/chat`'s `text/event-stream`, split into reads as packets would split it, and each
    /// event's JSON. Property: any split gives the events the whole stream gives.
    static let eventStream = FuzzTarget(name: "event-stream", about: "the chat event-stream parser and ChatEvent JSON") { bytes in
        guard let first = bytes.first else { return }
        // The first byte picks the read size (1–256 bytes).
        let size = Int(first) + 1
        let stream = Array(bytes.dropFirst())
        let split = events(of: stream, splitBy: size)
        let whole = events(of: stream, splitBy: max(1, stream.count))
        precondition(split == whole, "EventStreamParser: reads of \(size) bytes gave other events than the whole stream")
        for event in split ?? [] { _ = ChatEvent.decode(event.data) }
    }

    /// The events of `stream` fed in reads of `size` bytes; nil when a limit was passed. The limits
    /// are small, so the fuzzer reaches them.
    private static func events(of stream: [UInt8], splitBy size: Int) -> [EventStreamParser.Event]? {
        var parser = EventStreamParser(maximumLineBytes: 512, maximumEventBytes: 2048)
        var events: [EventStreamParser.Event] = []
        var start = 0
        while start < stream.count {
            let end = min(start + size, stream.count)
            do {
                events += try parser.feed(stream[start..<end])
            } catch {
                precondition(parser.finish() == nil, "EventStreamParser.finish dispatched an event after a limit was passed")
                return nil
            }
            start = end
        }
        if let last = parser.finish() { events.append(last) }
        return events
    }
}
