/// The shared conversation `/api/history` serves: a few turns from before, then what the chat and
/// `/api/reply` add while the backend runs; the last 120.
struct DemoHistory: Sendable {
    private(set) var messages: [DemoAPI.HistoryMessage]
    private var lastNumber: Int

    static let limit = 120

    static let standard: DemoHistory = {
        var history = DemoHistory(messages: [], lastNumber: 0)
        history.append(role: "user", content: "Good morning, Alicia", source: "ios", at: "2025-06-12T07:40:00Z")
        history.append(role: "assistant", content: "Good morning to you too! I made **Morning Light** for exactly this hour.", source: "ios",
                       at: "2025-06-12T07:40:02Z", replyID: DemoUUID.make(seed: 1))
        return history
    }()

    mutating func append(role: String, content: String, source: String, at time: String, replyID: String? = nil) {
        lastNumber += 1
        messages.append(DemoAPI.HistoryMessage(id: "turn-\(lastNumber)", ts: time, role: role, content: content, source: source, reply_id: replyID))
        if messages.count > Self.limit { messages.removeFirst(messages.count - Self.limit) }
    }
}
