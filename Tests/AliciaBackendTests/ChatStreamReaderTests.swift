import AliciaJSON
import Testing
@testable import AliciaBackend

/// The chat stream's rules (Alicia 2.0): `error` ends it as a failure, a stream without `done` is
/// a failure, `reply_id` is kept; a 4xx with words is a rejection, the rest is unconfirmed.
@Suite struct ChatStreamReaderTests {
    private func read(_ body: String) -> (ChatStreamReader, [ChatEvent]) {
        var reader = ChatStreamReader()
        var events: [ChatEvent] = []
        // In small pieces, as a slow network hands them over.
        let bytes = Array(body.utf8)
        for start in stride(from: 0, to: bytes.count, by: 7) { events += reader.feed(bytes[start..<min(bytes.count, start + 7)]) }
        events += reader.finish()
        return (reader, events)
    }

    private func outcome(_ body: String, status: Int = 200, failure: BackendError? = nil) -> ChatOutcome {
        let (reader, _) = read(status == 200 ? body : "")
        let response = HTTPResponse(status: status, body: status == 200 ? [] : Array(body.utf8), failure: failure)
        return ChatOutcome.of(response, reader: reader, endpoint: "/api/chat", hadToken: true)
    }

    @Test func aWholeReplyIsDoneWithItsIDs() {
        let body = "data: {\"t\":\"Hi \"}\n\n: keep-alive\n\ndata: {\"t\":\"there\"}\n\ndata: {\"voice\":\"/api/audio/voice-7.wav\"}\n\n"
            + "data: {\"reply_id\":\"0c6f-uuid\"}\n\ndata: {\"done\":true,\"message_id\":42,\"health\":{\"mood\":0.8}}\n\n"
        let (reader, events) = read(body)
        #expect(events == [.token("Hi "), .token("there"), .voice("/api/audio/voice-7.wav"), .replyID("0c6f-uuid"), .done(messageID: 42)])
        guard case .done(let reply) = outcome(body) else {
            Issue.record("not done: \(outcome(body))")
            return
        }
        #expect(reply.text == "Hi there" && reply.replyID == "0c6f-uuid" && reply.messageID == 42 && reply.messageID?.isNumber == true)
        #expect(reader.reply == reply)
    }

    @Test func anErrorEndsTheStreamAndKeepsTheWordsSoFar() {
        let body = "data: {\"t\":\"I was \"}\n\ndata: {\"t\":\"saying\"}\n\ndata: {\"error\":\"the model fell over\"}\n\n"
            + "data: {\"t\":\" more\"}\n\ndata: {\"done\":true,\"message_id\":1}\n\n"
        let (_, events) = read(body)
        #expect(events.last == .error("the model fell over"), "nothing after the error counts: \(events)")
        var expected = ChatReply()
        expected.text = "I was saying"
        #expect(outcome(body) == .failed(expected, reason: "the model fell over"))
    }

    @Test func anErrorOfAnotherShapeStillEndsIt() {
        #expect(ChatEvent.decode(#"{"error":{"code":5}}"#).map { if case .error = $0 { true } else { false } } == true)
        #expect(ChatEvent.decode(#"{"t":5}"#) == .unknown(#"{"t":5}"#))
    }

    @Test func aStreamThatClosesWithoutDoneIsAFailure() {
        var partial = ChatReply()
        partial.text = "Half a"
        #expect(outcome("data: {\"t\":\"Half a\"}\n\n") == .failed(partial, reason: "the reply stopped before its end"))
        // The last event without its blank line still counts.
        #expect(outcome("data: {\"done\":true,\"message_id\":\"m-1\"}").reply?.messageID == "m-1")
        let cut = outcome("data: {\"t\":\"Half a\"}\n\n", failure: .network(endpoint: "/api/chat", reason: "connection reset"))
        #expect(cut == .failed(partial, reason: "the request for /api/chat failed: connection reset"))
    }

    @Test(arguments: [
        (400, #"{"error":"the message is empty"}"#, ChatOutcome.rejected(.backend(endpoint: "/api/chat", message: "the message is empty"))),
        (422, #"{"error":"too long","detail":1}"#, .rejected(.backend(endpoint: "/api/chat", message: "too long"))),
        (401, #"{"error":"unauthorized"}"#, .rejected(.unauthorized)),
        (408, #"{"error":"timeout"}"#, .unconfirmed(.httpStatus(408, endpoint: "/api/chat"))),
        (404, "<html>not found</html>", .unconfirmed(.httpStatus(404, endpoint: "/api/chat"))),
        (503, #"{"error":"busy"}"#, .unconfirmed(.httpStatus(503, endpoint: "/api/chat"))),
    ])
    func aStatusIsARejectionOnlyWithWords(status: Int, body: String, expected: ChatOutcome) {
        #expect(outcome(body, status: status) == expected)
    }

    @Test func theRequestCarriesItsIDAndAResendKeepsIt() throws {
        let request = ChatRequest(text: "hello", voice: true)
        let json = String(decoding: try JSON.encode(request), as: UTF8.self)
        #expect(json == #"{"request_id":"\#(request.requestID.text)","text":"hello","voice":true}"#)
        var memory = ChatRequestMemory()
        let first = memory.request(text: "hello", voice: false, now: 0)
        memory.settle(first, by: .unconfirmed(.httpStatus(503, endpoint: "/api/chat")))
        let again = memory.request(text: "hello", voice: false, now: 300)
        #expect(again.requestID == first.requestID, "a resend within ten minutes is the same request")
        #expect(memory.request(text: "hello", voice: false, now: 1000).requestID != first.requestID, "past ten minutes it is new")
        let other = memory.request(text: "something else", voice: false, now: 1001)
        memory.settle(other, by: .done(ChatReply()))
        #expect(memory.request(text: "something else", voice: false, now: 1002).requestID != other.requestID, "after done it is new")
    }
}
