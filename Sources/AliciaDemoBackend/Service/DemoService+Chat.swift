internal import AliciaJSON

extension DemoService {
    /// `POST /api/chat`: the reply as a stream of server-sent events.
    ///
    /// The stream opens with a `: keep-alive` comment at once (so the client sees the headers while
    /// Alicia "thinks"), waits `chatStartDelay`, then sends word tokens `chatTokenDelay` apart with
    /// another comment halfway, the voice note if asked (before the last token for even message
    /// numbers, after it for odd ones: the contract allows both), in v2 the saved reply's
    /// `reply_id`, and `done` with the message number. A `request_id` sent again gets the same
    /// message number (and reply) again. `Faults.chat` ends it otherwise.
    func chat(_ request: HTTPRequest) -> HTTPReply {
        return withBody(DemoAPI.ChatRequest.self, of: request) { message in
            if case .status(let status, let words)? = faults.chat { return .error(status, words) }
            let isEmpty = message.text.allSatisfy(\.isWhitespace)
            if dialect == .v2 && isEmpty { return .error(400, "the message is empty") }
            let id = messageNumber(for: message)
            var events: [DemoAPI.ChatEvent] = []
            if isEmpty {
                events.append(.error("I did not catch that: the message was empty."))
            } else {
                events = ChatScript.tokens(replyingTo: message.text, messageID: id).map { .token($0) }
            }
            if message.voice == true {
                let voice = DemoAPI.ChatEvent.voice(path: "/api/audio/voice-\(id).wav")
                events.insert(voice, at: id % 2 == 0 ? max(0, events.count - 1) : events.count)
            }
            if dialect == .v2 { events.append(.replyID(DemoUUID.make(seed: id))) }
            events.append(.done(messageID: id, health: dialect == .v2 ? ["mood": 0.81, "energy": 0.67] : nil))
            return eventStream(applyingFault(to: events))
        }
    }

    /// The message number of a chat: a new one, or the one its `request_id` got before. A new
    /// message and its reply join the history.
    private func messageNumber(for message: DemoAPI.ChatRequest) -> Int {
        if let requestID = message.request_id, let known = conversation.withLock({ $0.chatRequests[requestID] }) {
            return known
        }
        let id = latestMessageID.withLock { latest in
            latest += 1
            return latest
        }
        let now = DemoClock.iso8601(DemoClock.now())
        let reply = ChatScript.reply(to: message.text, messageID: id)
        conversation.withLock { state in
            if let requestID = message.request_id { state.chatRequests[requestID] = id }
            state.history.append(role: "user", content: message.text, source: "chat", at: now)
            state.history.append(role: "assistant", content: reply, source: "chat", at: now, replyID: DemoUUID.make(seed: id))
        }
        return id
    }

    /// `events` as `Faults.chat` cuts them: after its tokens, an error (then `done` in v1 only) or
    /// nothing at all.
    private func applyingFault(to events: [DemoAPI.ChatEvent]) -> [DemoAPI.ChatEvent] {
        let kept: (Int) -> [DemoAPI.ChatEvent] = { count in
            var tokens = 0
            return Array(events.prefix { event in
                guard case .token = event else { return true }
                tokens += 1
                return tokens <= count
            })
        }
        switch faults.chat {
        case .errorEvent(let count, let words)?:
            let head = kept(count) + [.error(words)]
            return dialect == .v1 ? head + events.filter { if case .done = $0 { true } else { false } } : head
        case .cutShort(let count)?:
            return kept(count).filter { if case .done = $0 { false } else { true } }
        case .status?, nil:
            return events
        }
    }

    /// `events` as a chunked `text/event-stream`, paced by the chat delays, with keep-alive comments.
    private func eventStream(_ events: [DemoAPI.ChatEvent]) -> HTTPReply {
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

    /// `POST /api/react`: `{message_id, emoji}`, or in v2 `{proactive_id, emoji}` for a proactive
    /// message (which must exist); recorded and acknowledged.
    func react(_ request: HTTPRequest) -> HTTPReply {
        return withBody(DemoAPI.Reaction.self, of: request) { reaction in
            let allowsProactive = dialect == .v2
            guard reaction.messageID != nil || (allowsProactive && reaction.proactiveID != nil) else {
                return .error(400, allowsProactive ? "a reaction names a message_id or a proactive_id" : "a reaction names a message_id")
            }
            let dialect = self.dialect
            let known = conversation.withLock { state in
                guard let id = reaction.proactiveID, allowsProactive else { return true }
                return state.proactive.message(id: id, in: dialect) != nil
            }
            guard known else { return .error(404, "no proactive message \(reaction.proactiveID ?? "")") }
            conversation.withLock {
                $0.reactions.append(DemoBackend.ReceivedReaction(messageID: reaction.messageID,
                                                                 proactiveID: allowsProactive ? reaction.proactiveID : nil, emoji: reaction.emoji))
            }
            return .json(DemoAPI.Acknowledgement())
        }
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
