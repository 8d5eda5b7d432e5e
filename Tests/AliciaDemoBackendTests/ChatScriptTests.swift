import Testing
@testable import AliciaDemoBackend

/// Guards issue 17: the demo's chat recommended Slow Tide whatever was said.
@Suite struct ChatScriptTests {
    @Test("the reply follows the words of the message", arguments: [
        ("Good morning!", "Morning Light"),
        ("hello there", "Morning Light"),
        ("what a long, hard day at work", "The Long Way Round"),
        ("I can't sleep tonight", "Nights"),
        ("help me calm down, I'm stressed", "Slow Tide"),
        ("I need a break", "I would rest"),
        ("which episode should I play next?", "Season 1"),
    ])
    func keyedOnWords(message: String, expected: String) {
        #expect(ChatScript.reply(to: message, messageID: 1).contains(expected), "\(ChatScript.reply(to: message, messageID: 1))")
    }

    @Test("different messages get different replies, and words are whole words")
    func differentMessagesDiffer() {
        let replies = Set(["hello", "so tired", "good night", "calm", "rest", "new episodes"].map { ChatScript.reply(to: $0, messageID: 3) })
        #expect(replies.count == 6)
        // "this" holds "hi", "nightingale" holds "night": neither is the word.
        #expect(!ChatScript.reply(to: "this nightingale", messageID: 0).contains("Morning Light"))
        #expect(!ChatScript.reply(to: "this nightingale", messageID: 0).contains("Nights"))
    }

    @Test("a message no words call for gets a reply by its number, not the same one each time")
    func unkeyedRepliesVary() {
        let replies = Set((1...3).map { ChatScript.reply(to: "zebra unicorn", messageID: $0) })
        #expect(replies.count == 3)
        #expect(ChatScript.tokens(replyingTo: "zebra", messageID: 1).joined() == ChatScript.reply(to: "zebra", messageID: 1))
    }
}
