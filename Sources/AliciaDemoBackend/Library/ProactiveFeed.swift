/// Alicia's recent proactive messages, as `/api/proactive` serves them: fixed, newest first.
enum ProactiveFeed {
    static let messages: [DemoAPI.ProactiveMessage] = [
        .init(id: 318, date: "2025-06-12T07:41:00Z", text: "Good morning! *Morning Light* is ready whenever you are. Coffee first, though.", kind: "greeting", archetype: "companion"),
        .init(id: 311, date: "2025-06-11T21:05:00Z", text: "You stopped *Slow Tide* at 31 minutes last night. Want to pick it up where you fell asleep?", kind: "resume", archetype: "caretaker"),
        .init(id: 297, date: "2025-06-10T18:20:00Z", text: "I wrote the notes for *Paper Boats*. The audio is still drying.", kind: "update", archetype: "storyteller"),
        .init(id: 284, date: "2025-06-09T12:02:00Z", text: "Quick one: did the long way round turn out to be worth it?", kind: "question", archetype: "curious"),
        .init(id: 270, date: "2025-06-07T09:15:00Z", text: "A new run of episodes for the evening is up: **Nights**.", kind: "announcement", archetype: "storyteller"),
        .init(id: 262, date: "2025-06-05T22:48:00Z", text: "It is late. The interlude is only 45 seconds, if you need a breath before bed.", kind: "nudge", archetype: "caretaker"),
        .init(id: 251, date: "2025-06-03T16:30:00Z", text: "I have been thinking about lanterns. More on that soon.", kind: "musing", archetype: "dreamer"),
        .init(id: 240, date: "2025-06-01T08:00:00Z", text: "Season 1 starts today. Thank you for listening. 🌅", kind: "announcement", archetype: "companion"),
    ]

    /// The newest `limit` messages.
    static func latest(_ limit: Int) -> [DemoAPI.ProactiveMessage] {
        Array(messages.prefix(max(0, limit)))
    }
}
