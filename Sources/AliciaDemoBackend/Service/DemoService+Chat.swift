internal import AliciaJSON

extension DemoService {
    /// `POST /api/chat`: the reply as a stream of server-sent events.
    ///
    /// The stream opens with a `: keep-alive` comment at once (so the client sees the headers while
    /// Alicia "thinks"), waits `chatStartDelay`, then sends word tokens `chatTokenDelay` apart with
    /// another comment halfway, the voice note if asked (before the last token for even message
    /// numbers, after it for odd ones: the contract allows both), and `done` with the message number.
    func chat(_ request: HTTPRequest) -> HTTPReply {
        let message: DemoAPI.ChatRequest
        do {
            message = try decodeBody(DemoAPI.ChatRequest.self, from: request)
        } catch {
            return .error(error.status, error.message)
        }
        let id = latestMessageID.withLock { latest in
            latest += 1
            return latest
        }
        var events: [DemoAPI.ChatEvent] = []
        if message.text.allSatisfy(\.isWhitespace) {
            events.append(.error("I did not catch that: the message was empty."))
        } else {
            events = ChatScript.tokens(replyingTo: message.text, messageID: id).map { .token($0) }
        }
        if message.voice == true {
            let voice = DemoAPI.ChatEvent.voice(path: "/api/audio/voice-\(id).wav")
            events.insert(voice, at: id % 2 == 0 ? max(0, events.count - 1) : events.count)
        }
        events.append(.done(messageID: id))

        let keepAlive = Array(": keep-alive\n\n".utf8)
        var pieces = [ChatStreamProducer.Piece(delay: .zero, bytes: keepAlive)]
        for (index, event) in events.enumerated() {
            let delay = index == 0 ? faults.chatStartDelay : faults.chatTokenDelay
            pieces.append(ChatStreamProducer.Piece(delay: delay, bytes: Self.serverSentEvent(event)))
            if index == events.count / 2 {
                pieces.append(ChatStreamProducer.Piece(delay: .zero, bytes: keepAlive))
            }
        }
        let producer = ChatStreamProducer(pieces, stopSignal: stopSignal)
        return HTTPReply(
            status: 200,
            headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache")],
            body: .stream(length: nil, producer: producer)
        )
    }

    /// `POST /api/react`: accepted and acknowledged; the demo keeps no reactions.
    func react(_ request: HTTPRequest) -> HTTPReply {
        do {
            _ = try decodeBody(DemoAPI.Reaction.self, from: request)
        } catch {
            return .error(error.status, error.message)
        }
        return .json(DemoAPI.Acknowledgement())
    }

    /// `data: <json>` and the blank line that ends an event.
    private static func serverSentEvent(_ event: DemoAPI.ChatEvent) -> [UInt8] {
        let json: [UInt8]
        do {
            json = try JSON.encode(event)
        } catch {
            // A ChatEvent holds only strings, numbers and booleans; should encoding ever fail, the
            // client is told in the stream's own terms.
            json = Array(#"{"error":"the demo backend could not encode an event"}"#.utf8)
        }
        return Array("data: ".utf8) + json + Array("\n\n".utf8)
    }
}
