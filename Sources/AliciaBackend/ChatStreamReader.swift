/// Reads `/api/chat`'s event stream as it arrives: the events in order, the reply they add up to,
/// and how the stream ended. Nothing after `done` or `{"error": …}` counts: either ends it.
struct ChatStreamReader {
    enum Ending: Equatable {
        case done
        /// `{"error": …}`, with its words.
        case error(String)
        /// A line, an event or the whole reply past its limit.
        case tooLong(String)
    }

    private var parser = EventStreamParser()
    private(set) var reply = ChatReply()
    private(set) var ending: Ending?
    /// Bytes of event data so far.
    private var received = 0

    var isOver: Bool { ending != nil }

    /// Takes the next bytes of the body; returns the events they complete (none once it is over).
    mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [ChatEvent] {
        guard !isOver else { return [] }
        do throws(EventStreamParser.LineTooLong) {
            return try parser.feed(bytes).compactMap { take($0) }
        } catch {
            let what = error.limit == parser.maximumLineBytes ? "line" : "event"
            ending = .tooLong("an event-stream \(what) longer than \(error.limit) bytes")
            return []
        }
    }

    /// The body ended: an event still open (no blank line after it) counts all the same.
    mutating func finish() -> [ChatEvent] {
        guard !isOver, let last = parser.finish() else { return [] }
        return take(last).map { [$0] } ?? []
    }

    private mutating func take(_ event: EventStreamParser.Event) -> ChatEvent? {
        guard !isOver else { return nil }
        received += event.data.utf8.count
        guard received <= ChatReply.maximumBytes else {
            ending = .tooLong("a reply larger than \(ChatReply.maximumBytes >> 20) MiB")
            return nil
        }
        guard let chat = ChatEvent.decode(event.data) else { return nil }
        switch chat {
        case .token(let piece): reply.text += piece
        case .voice(let path): reply.voice = path
        case .replyID(let id): reply.replyID = id
        case .error(let words): ending = .error(words)
        case .done(let id):
            reply.messageID = id
            ending = .done
        case .unknown(let json): reply.unknown.append(json)
        }
        return chat
    }
}
