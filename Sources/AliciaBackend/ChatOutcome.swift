internal import AliciaJSON

/// How a chat exchange ended (alicia-api.md, "Alicia 2.0": `POST /api/chat`).
public enum ChatOutcome: Sendable, Equatable {
    /// `done` came: the reply is whole.
    case done(ChatReply)
    /// The message was taken (the stream began) but the reply failed before its end: an
    /// `{"error": …}` event (its words are the reason), the stream closing without `done` ("the
    /// reply stopped before its end"), or the connection failing. `reply` holds what came so far.
    case failed(ChatReply, reason: String)
    /// A definite refusal: a 4xx other than 408 that says `{"error": …}` (its words, as
    /// `BackendError.backend`), or a 401. Sending the same again will not help.
    case rejected(BackendError)
    /// Delivery could not be confirmed (no answer, a network failure, 408, 5xx, a 4xx without its
    /// words): send the same request again, with the same request id.
    case unconfirmed(BackendError)

    /// What came of the reply, whole or in part; nil when nothing was taken.
    public var reply: ChatReply? {
        switch self {
        case .done(let reply), .failed(let reply, _): return reply
        case .rejected, .unconfirmed: return nil
        }
    }

    /// The outcome of an exchange that got `response` (its status, a non-2xx body, a transfer
    /// failure) and fed its 2xx body to `reader`.
    static func of(_ response: HTTPResponse, reader: ChatStreamReader, endpoint: String, hadToken: Bool) -> ChatOutcome {
        let status = response.status
        guard (200..<300).contains(status) else {
            if status == 401 { return .rejected(hadToken ? .unauthorized : .noToken) }
            if (400..<500).contains(status), status != 408, let words = errorWords(response.body) {
                return .rejected(.backend(endpoint: endpoint, message: words))
            }
            return .unconfirmed(response.failure ?? .httpStatus(status, endpoint: endpoint))
        }
        switch reader.ending {
        case .done?: return .done(reader.reply)
        case .error(let words)?: return .failed(reader.reply, reason: words)
        case .tooLong(let detail)?:
            return .failed(reader.reply, reason: BackendError.badReply(endpoint: endpoint, detail: detail).message)
        case nil:
            if let failure = response.failure { return .failed(reader.reply, reason: failure.message) }
            return .failed(reader.reply, reason: "the reply stopped before its end")
        }
    }

    /// The `error` of a JSON body, when it has one.
    private static func errorWords(_ body: [UInt8]) -> String? {
        guard let words = (try? JSON.decode(BackendRefusal.self, from: body))?.error, !words.isEmpty else { return nil }
        return words
    }
}
