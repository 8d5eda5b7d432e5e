extension BackendClient {
    /// `POST /api/chat`: sends `request`, calls `onEvent` for each event as it arrives (on this
    /// thread), and says how it ended: done, failed after what came, rejected, or unconfirmed.
    /// Resend a failed or unconfirmed message with the same `request` (its request id).
    public func chat(_ request: ChatRequest, onEvent: @escaping (ChatEvent) -> Void) -> ChatOutcome {
        let endpoint = "/api/chat"
        let body: [UInt8]
        do {
            body = try Self.requestBody(request, endpoint: endpoint)
        } catch {
            return .unconfirmed(error)
        }
        var reader = ChatStreamReader()
        let response: HTTPResponse
        do {
            response = try exchange(endpoint, body: body) { bytes in
                for event in reader.feed(bytes) { onEvent(event) }
                return !reader.isOver
            }
        } catch {
            return .unconfirmed(error)
        }
        if (200..<300).contains(response.status) && response.failure == nil {
            for event in reader.finish() { onEvent(event) }
        }
        return ChatOutcome.of(response, reader: reader, endpoint: endpoint, hadToken: configuration.token != nil)
    }

    /// `POST /api/react` `{message_id, emoji}`: reacts to one of her chat messages.
    public func react(messageID: Int, emoji: String) throws(BackendError) {
        try react(toMessage: OpaqueID(messageID), emoji: emoji)
    }

    /// `POST /api/react` `{message_id, emoji}`, the id sent as the backend gave it (a number stays
    /// a number).
    public func react(toMessage id: OpaqueID, emoji: String) throws(BackendError) {
        struct Request: Encodable { var message_id: OpaqueID; var emoji: String }
        try acknowledged("/api/react", submit("/api/react", json: Request(message_id: id, emoji: emoji)))
    }

    /// `POST /api/react` `{proactive_id, emoji}`: reacts to a proactive message (its id always as
    /// text, as the app sends it).
    public func react(toProactive id: OpaqueID, emoji: String) throws(BackendError) {
        struct Request: Encodable { var proactive_id: String; var emoji: String }
        try acknowledged("/api/react", submit("/api/react", json: Request(proactive_id: id.text, emoji: emoji)))
    }

    /// A reply of `{"ok": false, "error": …}` is the backend's refusal; anything else (an empty
    /// body, `{"ok": true}`, another shape) is taken as done.
    func acknowledged(_ endpoint: String, _ body: [UInt8]) throws(BackendError) {
        struct Reply: Decodable { var ok: Bool?; var error: String? }
        guard let reply = try? decode(Reply.self, from: body, endpoint: endpoint), reply.ok == false else { return }
        throw .backend(endpoint: endpoint, message: reply.error ?? "the backend refused it")
    }
}
