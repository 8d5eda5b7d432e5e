/// A message for `POST /api/chat`: `{text, voice, request_id}`. Send the same value again (same
/// `requestID`) to resend it: the backend then does not make the reply twice.
public struct ChatRequest: Sendable, Equatable {
    public var text: String
    /// Ask for the reply as a voice note too.
    public var voice: Bool
    /// The `request_id`: made once per message, kept across resends.
    public let requestID: UUIDv4

    public init(text: String, voice: Bool, requestID: UUIDv4 = UUIDv4()) {
        self.text = text
        self.voice = voice
        self.requestID = requestID
    }
}

extension ChatRequest: Encodable {
    private enum CodingKeys: String, CodingKey {
        case text, voice
        case requestID = "request_id"
    }
}
