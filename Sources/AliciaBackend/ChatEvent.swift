internal import AliciaJSON

/// One event of `/api/chat`'s stream (alicia-api.md, "The chat stream" and "Alicia 2.0").
public enum ChatEvent: Sendable, Equatable {
    /// The next piece of the reply (markdown).
    case token(String)
    /// The reply as a voice note: a media path (the token is added when playing it).
    case voice(String)
    /// A saved reply exists, with this id (Alicia 2.0).
    case replyID(OpaqueID)
    /// A problem on her side. It ends the stream as a failure (Alicia 2.0; an older backend went on
    /// after it, and the reply then ends with `done` all the same).
    case error(String)
    /// The end, with the id `/api/react` takes. A `health` beside it is not kept.
    case done(messageID: OpaqueID?)
    /// Valid JSON the contract does not name: ignored, but kept for diagnostics.
    case unknown(String)

    /// Decodes one event's data (`{"t": …}`, `{"voice": …}`, `{"reply_id": …}`, `{"error": …}`,
    /// `{"done": true, …}`); nil when it is not JSON. Fields it does not know are ignored.
    public static func decode(_ data: String) -> ChatEvent? {
        struct Wire: Decodable {
            var t: String?
            var voice: String?
            var reply_id: OpaqueID?
            var error: String?
            var done: Bool?
            var message_id: OpaqueID?
        }
        guard let wire = try? JSON.decode(Wire.self, from: data.utf8) else {
            // Valid JSON of another shape: an `error` of any kind still ends the stream; the rest
            // is unknown, not garbage.
            guard let value = JSONValue(parsing: data.utf8) else { return nil }
            if let error = value["error"], error != .null { return .error(error.stringValue ?? "an error of another shape: \(data)") }
            return .unknown(data)
        }
        if let token = wire.t { return .token(token) }
        if let voice = wire.voice { return .voice(voice) }
        if let error = wire.error { return .error(error) }
        if wire.done == true { return .done(messageID: wire.message_id) }
        if let replyID = wire.reply_id { return .replyID(replyID) }
        return .unknown(data)
    }
}
