import AliciaAudio

/// The session's way to Alicia for `say`: sends a message and reports what comes back. Made by the
/// front end's host from the backend client (the session knows no HTTP); `nil` without a backend.
public struct ChatLink: Sendable {
    /// Sends `text` (asking for a voice note when `voice`) and calls `event` as the reply streams
    /// in, ending with `.replied` or `.failed`. Blocks: the session runs it on a thread of its own.
    /// `cancelled` turns true when the session closes.
    public var send: @Sendable (_ text: String, _ voice: Bool, _ cancelled: @escaping @Sendable () -> Bool,
                                _ event: @escaping @Sendable (SayEvent) -> Void) -> Void

    public init(send: @escaping @Sendable (String, Bool, @escaping @Sendable () -> Bool,
                                           @escaping @Sendable (SayEvent) -> Void) -> Void) {
        self.send = send
    }
}

/// What a chat reports while Alicia answers.
public enum SayEvent: Sendable, Equatable {
    /// The next piece of her reply (Markdown).
    case token(String)
    /// Her reply as a voice note: the session plays it.
    case voice(MediaLocation)
    /// A problem on her side; the reply goes on.
    case problem(String)
    /// The end: her whole reply and the message id `/api/react` takes (opaque text).
    case replied(text: String, messageID: String?)
    /// The message could not be sent or the reply not read.
    case failed(String)
}
