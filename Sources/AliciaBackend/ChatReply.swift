/// What a chat exchange brought, whole or as far as it came.
public struct ChatReply: Sendable, Equatable {
    /// The reply's text (markdown): all of it after `done`, the words received so far otherwise.
    public var text = ""
    /// The voice note's media path, when one was announced.
    public var voice: String?
    /// The saved reply's id (`{"reply_id": …}`, Alicia 2.0).
    public var replyID: OpaqueID?
    /// The id `/api/react` takes, from `done`.
    public var messageID: OpaqueID?
    /// Events the contract does not name, as their JSON (for diagnostics).
    public var unknown: [String] = []

    public init() {}

    /// The events' data of one reply add up to at most this (a few KiB is usual): a server that
    /// never says `done` cannot grow the reply without bound, one short event at a time.
    public static let maximumBytes = 16 << 20
}
