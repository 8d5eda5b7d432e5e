internal import AliciaJSON

/// One event of `/api/chat`'s stream.
public enum ChatEvent: Sendable, Equatable {
    /// The next piece of the reply (markdown).
    case token(String)
    /// The reply as a voice note: a media path (the token is added when playing it).
    case voice(String)
    /// A problem on her side; the stream may go on.
    case error(String)
    /// The end, with the id `/api/react` takes.
    case done(messageID: Int?)
    /// Valid JSON the contract does not name: ignored, but kept for diagnostics.
    case unknown(String)

    /// Decodes one event's data (`{"t": …}`, `{"voice": …}`, `{"error": …}`, `{"done": true, …}`).
    public static func decode(_ data: String) -> ChatEvent? {
        struct Wire: Decodable {
            var t: String?
            var voice: String?
            var error: String?
            var done: Bool?
            var message_id: Int?
        }
        guard let wire = try? JSON.decode(Wire.self, from: data.utf8) else { return nil }
        if let token = wire.t { return .token(token) }
        if let voice = wire.voice { return .voice(voice) }
        if let error = wire.error { return .error(error) }
        if wire.done == true { return .done(messageID: wire.message_id) }
        return .unknown(data)
    }
}

/// What a chat exchange came to.
public struct ChatReply: Sendable, Equatable {
    public var text = ""
    public var voice: String?
    public var messageID: Int?
    public var errors: [String] = []
    /// The stream ended with a `done` event (a stream that just closes is finished all the same).
    public var sawDone = false

    /// The events' data of one reply add up to at most this (a few KiB is usual): a server that
    /// never says `done` cannot grow the reply without bound, one short event at a time.
    public static let maximumBytes = 16 << 20
}

extension BackendClient {
    /// `POST /api/chat`: sends `text`, calls `onEvent` for each event as it
    /// arrives (on this thread), and returns the whole reply.
    public func chat(_ text: String, voice: Bool, onEvent: @escaping (ChatEvent) -> Void) throws(BackendError) -> ChatReply {
        struct Request: Encodable { var text: String; var voice: Bool }
        let body = try Self.requestBody(Request(text: text, voice: voice), endpoint: "/api/chat")
        var parser = EventStreamParser()
        var reply = ChatReply()
        var tooLong: EventStreamParser.LineTooLong?
        var received = 0
        func handle(_ event: EventStreamParser.Event) {
            received += event.data.utf8.count
            guard received <= ChatReply.maximumBytes else { return }
            guard let chat = ChatEvent.decode(event.data) else { return }
            switch chat {
            case .token(let piece): reply.text += piece
            case .voice(let path): reply.voice = path
            case .error(let message): reply.errors.append(message)
            case .done(let id):
                reply.messageID = id
                reply.sawDone = true
            case .unknown: break
            }
            onEvent(chat)
        }
        _ = try streamingPost("/api/chat", body: body) { bytes in
            do throws(EventStreamParser.LineTooLong) {
                for event in try parser.feed(bytes) { handle(event) }
                return !reply.sawDone && received <= ChatReply.maximumBytes
            } catch {
                tooLong = error
                return false
            }
        }
        if received > ChatReply.maximumBytes {
            throw .badReply(endpoint: "/api/chat", detail: "a reply larger than \(ChatReply.maximumBytes >> 20) MiB")
        }
        if let tooLong {
            let what = tooLong.limit == parser.maximumLineBytes ? "line" : "event"
            throw .badReply(endpoint: "/api/chat", detail: "an event-stream \(what) longer than \(tooLong.limit) bytes")
        }
        if !reply.sawDone, let last = parser.finish() { handle(last) }
        return reply
    }

    /// `POST /api/react`: reacts to one of Alicia's messages.
    public func react(messageID: Int, emoji: String) throws(BackendError) {
        struct Request: Encodable { var message_id: Int; var emoji: String }
        _ = try post("/api/react", json: Request(message_id: messageID, emoji: emoji))
    }
}
