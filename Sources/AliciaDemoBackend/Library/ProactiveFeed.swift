/// Alicia's recent proactive messages, as `/api/proactive` serves them: a fixed start, newest first,
/// to which `DemoBackend.addProactive(text:isAsk:)` adds. Ids are numbers in v1 and `pm-<number>`
/// in v2, where the questions are asks (`is_ask`: the answer goes to `/api/reply`).
struct ProactiveFeed: Sendable {
    struct Message: Sendable {
        var number: Int
        /// ISO 8601, UTC.
        var date: String
        var text: String
        var kind: String
        var archetype: String
        var isAsk = false
    }

    /// Newest first.
    private(set) var messages: [Message]

    static let standard = ProactiveFeed(messages: [
        .init(number: 318, date: "2025-06-12T07:41:00Z", text: "Good morning! *Morning Light* is ready whenever you are. Coffee first, though.", kind: "greeting", archetype: "companion"),
        .init(number: 311, date: "2025-06-11T21:05:00Z", text: "You stopped *Slow Tide* at 31 minutes last night. Want to pick it up where you fell asleep?", kind: "resume", archetype: "caretaker", isAsk: true),
        .init(number: 297, date: "2025-06-10T18:20:00Z", text: "I wrote the notes for *Paper Boats*. The audio is still drying.", kind: "update", archetype: "storyteller"),
        .init(number: 284, date: "2025-06-09T12:02:00Z", text: "Quick one: did the long way round turn out to be worth it?", kind: "question", archetype: "curious", isAsk: true),
        .init(number: 270, date: "2025-06-07T09:15:00Z", text: "A new run of episodes for the evening is up: **Nights**.", kind: "announcement", archetype: "storyteller"),
        .init(number: 262, date: "2025-06-05T22:48:00Z", text: "It is late. The interlude is only 45 seconds, if you need a breath before bed.", kind: "nudge", archetype: "caretaker"),
        .init(number: 251, date: "2025-06-03T16:30:00Z", text: "I have been thinking about lanterns. More on that soon.", kind: "musing", archetype: "dreamer"),
        .init(number: 240, date: "2025-06-01T08:00:00Z", text: "Season 1 starts today. Thank you for listening. 🌅", kind: "announcement", archetype: "companion"),
    ])

    /// Adds a message above the others, numbered after the newest.
    mutating func add(text: String, isAsk: Bool, date: String) -> Message {
        let number = (messages.map(\.number).max() ?? 0) + 1
        let message = Message(number: number, date: date, text: text, kind: isAsk ? "question" : "note", archetype: "companion", isAsk: isAsk)
        messages.insert(message, at: 0)
        return message
    }

    /// The newest `limit` messages, in the dialect's shape.
    func latest(_ limit: Int, in dialect: DemoBackend.Dialect) -> [DemoAPI.ProactiveMessage] {
        messages.prefix(max(0, limit)).map { message in
            DemoAPI.ProactiveMessage(id: dialect == .v1 ? .number(message.number) : .text(Self.id(of: message, in: dialect)),
                                     date: message.date, text: message.text, kind: message.kind, archetype: message.archetype,
                                     isAsk: dialect == .v1 ? nil : message.isAsk)
        }
    }

    /// The message a client names by its id (as the dialect writes it).
    func message(id: String, in dialect: DemoBackend.Dialect) -> Message? {
        messages.first { Self.id(of: $0, in: dialect) == id }
    }

    static func id(of message: Message, in dialect: DemoBackend.Dialect) -> String {
        dialect == .v1 ? String(message.number) : "pm-\(message.number)"
    }
}
