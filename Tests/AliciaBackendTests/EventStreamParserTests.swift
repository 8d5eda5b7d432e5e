import Testing
import AliciaTestSupport
@testable import AliciaBackend

@Suite struct EventStreamParserTests {
    typealias Event = EventStreamParser.Event

    private func parseWhole(_ text: String) throws -> [Event] {
        var parser = EventStreamParser()
        var events = try parser.feed(Array(text.utf8))
        if let last = parser.finish() { events.append(last) }
        return events
    }

    @Test func parsesTheChatStreamShape() throws {
        let stream = "data: {\"t\":\"Hi\"}\n\n: keep-alive\n\ndata: {\"voice\":\"/api/audio/v.wav\"}\n\ndata: {\"done\":true,\"message_id\":42}\n\n"
        #expect(try parseWhole(stream).map(\.data) == [#"{"t":"Hi"}"#, #"{"voice":"/api/audio/v.wav"}"#, #"{"done":true,"message_id":42}"#])
    }

    @Test func handlesEveryLineEnding() throws {
        for ending in ["\n", "\r\n", "\r"] {
            let stream = ["data: a", "", "data: b", "data: c", "", ""].joined(separator: ending)
            #expect(try parseWhole(stream).map(\.data) == ["a", "b\nc"], "line ending \(Array(ending.utf8))")
        }
    }

    @Test func fieldsCommentsAndUnknowns() throws {
        let stream = ":comment\nevent: tok\nid: 7\nretry: 100\nfoo: bar\ndata\ndata:x\ndata:  two spaces\n\n"
        let events = try parseWhole(stream)
        #expect(events == [Event(type: "tok", data: "\nx\n two spaces", id: "7")])
    }

    @Test func aMissingFinalBlankLineStillEndsTheEvent() throws {
        #expect(try parseWhole("data: {\"t\":\"a\"}\n\ndata: {\"t\":\"b\"}").map(\.data) == [#"{"t":"a"}"#, #"{"t":"b"}"#])
        #expect(try parseWhole("data: {\"t\":\"a\"}\n\n: bye\n").map(\.data) == [#"{"t":"a"}"#])
    }

    @Test func aLineOverTheLimitIsAnError() {
        var parser = EventStreamParser(maximumLineBytes: 64)
        #expect(throws: EventStreamParser.LineTooLong(limit: 64)) {
            _ = try parser.feed(Array(("data: " + String(repeating: "x", count: 100)).utf8))
        }
        #expect(throws: EventStreamParser.LineTooLong.self) { _ = try parser.feed(Array("\n\n".utf8)) }
    }

    /// Regression: short `data:` lines of an event that never ended grew it without bound.
    @Test func anEventOverTheLimitIsAnError() {
        var parser = EventStreamParser(maximumLineBytes: 64, maximumEventBytes: 256)
        #expect(throws: EventStreamParser.LineTooLong(limit: 256)) {
            for _ in 0..<100 { _ = try parser.feed(Array("data: xxxxxxxxxx\n".utf8)) }
        }
        #expect(parser.finish() == nil)
        var fits = EventStreamParser(maximumLineBytes: 64, maximumEventBytes: 256)
        #expect(throws: Never.self) {
            for _ in 0..<100 { _ = try fits.feed(Array("data: xxxxxxxxxx\n\n".utf8)) }
        }
    }

    /// Property: however the bytes are split into chunks, the events are the same.
    @Test(arguments: 1...200)
    func anySplitGivesTheSameEvents(seed: Int) throws {
        var random = Xorshift64(seed: UInt64(seed))
        let endings = ["\n", "\r\n", "\r"]
        var text = ""
        var expected: [String] = []
        for index in 0..<Int(random.next() % 6 + 1) {
            let ending = endings[Int(random.next() % 3)]
            if random.next() % 3 == 0 { text += ": keep-alive" + ending }
            let data = "{\"t\":\"tok \(index) é🎧\"}"
            text += "data: " + data + ending + ending
            expected.append(data)
        }
        let bytes = Array(text.utf8)
        var parser = EventStreamParser()
        var events: [Event] = []
        var offset = 0
        while offset < bytes.count {
            let size = Int(random.next() % 9) + 1
            let end = min(bytes.count, offset + size)
            events += try parser.feed(bytes[offset..<end])
            offset = end
        }
        if let last = parser.finish() { events.append(last) }
        #expect(events.map(\.data) == expected)
    }
}

@Suite struct ChatEventTests {
    @Test(arguments: [
        (#"{"t":"Hello"}"#, ChatEvent.token("Hello")),
        (#"{"voice":"/api/audio/voice-1.wav"}"#, .voice("/api/audio/voice-1.wav")),
        (#"{"error":"tired"}"#, .error("tired")),
        (#"{"done":true,"message_id":42}"#, .done(messageID: 42)),
        (#"{"done":true}"#, .done(messageID: nil)),
        (#"{"other":1}"#, .unknown(#"{"other":1}"#)),
    ])
    func decodes(data: String, expected: ChatEvent) {
        #expect(ChatEvent.decode(data) == expected)
    }

    @Test func notJSONIsNil() {
        #expect(ChatEvent.decode("hello") == nil)
    }
}
