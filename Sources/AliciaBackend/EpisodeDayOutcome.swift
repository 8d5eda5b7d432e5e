internal import AliciaJSON

/// What became of one `POST /api/episode_day` event, in the terms of the outbox that sends them in
/// order (alicia-api.md, "Alicia 2.0"): take it off, drop it, or keep it and try again later.
public enum EpisodeDayOutcome: Sendable, Equatable {
    /// `{"ok": true}`: recorded (or recorded before: the event id makes a resend harmless).
    case accepted
    /// `{"ok": false, "retryable": false}`, or a refusal a resend cannot change (a 4xx such as 400
    /// or 404): drop the event; the words say why.
    case dropped(String)
    /// `{"ok": false, "retryable": true}`, no answer, a network failure, 5xx, 401/403 (a token
    /// that can be fixed), 408, 429: keep the event and send it again later.
    case keep(String)

    /// The outcome of `response` (a status and its body) or of a request that got no answer.
    /// `{"ok": false}` without `retryable` counts as not retryable.
    static func of(_ response: Result<HTTPResponse, BackendError>, endpoint: String) -> EpisodeDayOutcome {
        struct Reply: Decodable { var ok: Bool?; var error: String?; var retryable: Bool? }
        let answer: HTTPResponse
        switch response {
        case .failure(let error): return .keep(error.message)
        case .success(let response): answer = response
        }
        if let failure = answer.failure { return .keep(failure.message) }
        let status = answer.status
        let reply = try? JSON.decode(Reply.self, from: answer.body)
        let words = reply?.error ?? BackendError.httpStatus(status, endpoint: endpoint).message
        switch status {
        case 200..<300:
            switch reply?.ok {
            case true?: return .accepted
            case false?: return reply?.retryable == true ? .keep(words) : .dropped(words)
            case nil: return .keep(BackendError.badReply(endpoint: endpoint, detail: "no \"ok\" in the answer").message)
            }
        case 400..<500:
            return Self.retryableStatuses.contains(status) || reply?.retryable == true ? .keep(words) : .dropped(words)
        default:
            return .keep(words)
        }
    }

    /// 4xx statuses that say "not now" rather than "never": a token to fix, a timeout, too many.
    private static let retryableStatuses: Set<Int> = [401, 403, 408, 425, 429]
}
