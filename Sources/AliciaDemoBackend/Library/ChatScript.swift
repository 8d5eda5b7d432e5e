/// What Alicia says in the demo chat: a few canned replies of a few sentences, chosen by the words
/// of the message (a greeting, a long day, the night, a wish to calm down, a question about the
/// show), else by the message's number, and split into word tokens as a language model streams them.
enum ChatScript {
    /// A reply and the words (lower case, whole words) that call for it.
    private struct Reply {
        var keys: [String]
        var text: String
    }

    private static let keyed = [
        Reply(keys: ["morning", "hello", "hi", "hey", "coffee", "kettle", "breakfast", "wake"],
              text: "Good morning to you too! I made **Morning Light** for exactly this hour. The kettle is optional, the window is not."),
        Reply(keys: ["tired", "sad", "hard", "rough", "long", "day", "week", "work", "lost"],
              text: "I hear you. Some days are a long way round. If it helps, *The Long Way Round* is two minutes of kalimba and nothing else to do. I will be here when it ends."),
        Reply(keys: ["night", "tonight", "sleep", "late", "dark", "dream", "evening", "bed"],
              text: "I love that you asked. The **Nights** episodes are built from a handful of chords that come back like waves. You can start anywhere, even in the middle."),
        Reply(keys: ["calm", "relax", "slow", "breathe", "anxious", "stress", "stressed", "quiet"],
              text: "That is a lovely question. I think the answer is *slower than you expect*, and that is fine. Put on **Slow Tide** and let the first chord ring out before you decide anything."),
        Reply(keys: ["rest", "break", "stop", "pause", "enough"],
              text: "Honestly? I would rest. The episodes will keep, and so will I. Tell me how the evening went, *if you feel like it*."),
        Reply(keys: ["episode", "episodes", "season", "new", "next", "recommend", "listen", "play", "music"],
              text: "There is a whole **Season 1** to wander through, and *A Short Interlude* if you only have a minute. Tell me the mood and I will pick one."),
    ]

    /// For a message none of the words call for: by its number, so the next one differs.
    private static let unkeyed = [
        "Tell me more? I am listening, and I have all the time the episode has.",
        "Mm, I like that. It makes me think of *Paper Boats*: small, and further than it looks.",
        "I am not sure I follow, but I would like to. Say it another way?",
    ]

    /// The reply to `text` as message `messageID`: the reply whose words the message holds most of
    /// (the first such on a tie), else one of the others by the message's number.
    static func reply(to text: String, messageID: Int) -> String {
        let words = Set(text.lowercased().split { !$0.isLetter }.map(String.init))
        let scored = keyed.map { reply in reply.keys.filter(words.contains).count }
        if let best = scored.max(), best > 0, let index = scored.firstIndex(of: best) {
            return keyed[index].text
        }
        return unkeyed[abs(messageID) % unkeyed.count]
    }

    /// The reply to `text` as message `messageID`, in tokens: each word with the space after it.
    static func tokens(replyingTo text: String, messageID: Int) -> [String] {
        let words = reply(to: text, messageID: messageID).split(separator: " ")
        return words.enumerated().map { index, word in
            index == words.count - 1 ? String(word) : word + " "
        }
    }
}
