/// What Alicia says in the demo chat: a few canned replies of a few sentences, chosen by the
/// message's number and what was asked, split into word tokens as a language model streams them.
enum ChatScript {
    private static let replies = [
        "That is a lovely question. I think the answer is *slower than you expect*, and that is fine. Put on **Slow Tide** and let the first chord ring out before you decide anything.",
        "I hear you. Some days are a long way round. If it helps, *The Long Way Round* is two minutes of kalimba and nothing else to do. I will be here when it ends.",
        "Good morning to you too! I made **Morning Light** for exactly this hour. The kettle is optional, the window is not.",
        "Honestly? I would rest. The episodes will keep, and so will I. Tell me how the evening went, *if you feel like it*.",
        "I love that you asked. The **Nights** episodes are built from a handful of chords that come back like waves. You can start anywhere, even in the middle.",
    ]

    /// The reply to `text` as message `messageID`, in tokens: each word with the space after it.
    static func tokens(replyingTo text: String, messageID: Int) -> [String] {
        let choice = SplitMix64.unit(UInt64(bitPattern: Int64(messageID)), text.utf8.count)
        let reply = replies[min(replies.count - 1, Int(choice * Double(replies.count)))]
        let words = reply.split(separator: " ")
        return words.enumerated().map { index, word in
            index == words.count - 1 ? String(word) : word + " "
        }
    }
}
