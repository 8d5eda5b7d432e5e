/// Which request id a message gets, as the app gives it: the same text sent again within ten
/// minutes of a send that was not settled (it failed, or its delivery could not be confirmed) is
/// the same request; anything else is a new one. Settle a request once its reply is whole or it was
/// refused: sending that text again is then a new message.
public struct ChatRequestMemory: Sendable {
    /// Seconds a resend keeps the request's id (the app's ten minutes).
    public static let window = 600.0

    private var pending: (request: ChatRequest, sentAt: Double)?

    public init() {}

    /// The request for `text` sent at `now` (seconds on any steady clock), remembered until settled.
    public mutating func request(text: String, voice: Bool, now: Double) -> ChatRequest {
        if let pending, pending.request.text == text, now - pending.sentAt >= 0, now - pending.sentAt <= Self.window {
            let again = ChatRequest(text: text, voice: voice, requestID: pending.request.requestID)
            self.pending = (again, now)
            return again
        }
        let request = ChatRequest(text: text, voice: voice)
        pending = (request, now)
        return request
    }

    /// A request sent before (by an earlier run) whose reply was not confirmed: the same text sent
    /// again within the window goes with its id.
    public mutating func remember(_ request: ChatRequest, sentAt: Double) {
        pending = (request, sentAt)
    }

    /// What `outcome` means for the remembered request: done or rejected settles it; a failure or
    /// an unconfirmed delivery keeps it for a resend.
    public mutating func settle(_ request: ChatRequest, by outcome: ChatOutcome) {
        guard pending?.request.requestID == request.requestID else { return }
        switch outcome {
        case .done, .rejected: pending = nil
        case .failed, .unconfirmed: break
        }
    }
}
