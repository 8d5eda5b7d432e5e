import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// `POST /api/chat` (an event stream) and `POST /api/react`.
@Suite("Chat")
struct ChatTests {
    static let quick = DemoBackend.Faults(chatTokenDelay: .milliseconds(2))

    @Test("a reply streams word tokens, a keep-alive comment and done with a message id")
    func reply() async throws {
        let backend = try DemoBackend(token: "t", faults: Self.quick)
        defer { backend.stop() }
        let result = try await Curl.get(backend, "/api/chat", ["--header", "Content-Type: application/json", "--data", #"{"text":"How are you?","voice":false}"#])
        let transfer = try result.single()
        #expect(transfer.status == 200)
        #expect(transfer.header("content-type")?.hasPrefix("text/event-stream") == true)
        #expect(transfer.header("transfer-encoding") == "chunked")
        #expect(transfer.header("content-length") == nil)
        let stream = try ChatStream(result.text)
        #expect(stream.tokens.count >= 10, "\(stream.tokens)")
        #expect(stream.text.split(separator: ".").count >= 2, "not a few sentences: \(stream.text)")
        #expect(stream.tokens.dropLast().allSatisfy { $0.hasSuffix(" ") }, "tokens are words with their spaces")
        #expect(stream.comments.contains(": keep-alive"))
        #expect(stream.voicePaths.isEmpty)
        #expect(stream.isDone)
        #expect(stream.events.filter { $0.done == true }.count == 1)
        #expect(stream.messageID != nil)
    }

    @Test("voice: true adds one voice note event with a media path that plays")
    func voice() async throws {
        let backend = try DemoBackend(token: "t", faults: Self.quick)
        defer { backend.stop() }
        for _ in 0..<2 {
            let result = try await Curl.get(backend, "/api/chat", ["--data", #"{"text":"sing to me","voice":true}"#])
            let stream = try ChatStream(result.text)
            #expect(stream.voicePaths.count == 1)
            let path = try #require(stream.voicePaths.first)
            #expect(path == "/api/audio/voice-\(stream.messageID ?? -1).wav")
            #expect(stream.isDone)
            let audio = try await Curl.run([Curl.mediaURL(backend, path), "--range", "0-43"])
            #expect(try audio.single().status == 206)
            #expect(try WAVHeader(audio.body).sampleRate == 24_000)
        }
    }

    @Test("message ids increase from one reply to the next")
    func increasingIDs() async throws {
        let backend = try DemoBackend(token: "t", faults: Self.quick)
        defer { backend.stop() }
        var ids: [Int] = []
        for text in ["one", "two", "three"] {
            let result = try await Curl.get(backend, "/api/chat", ["--data", #"{"text":"\#(text)"}"#])
            ids.append(try #require(try ChatStream(result.text).messageID))
        }
        #expect(ids == ids.sorted() && Set(ids).count == 3, "\(ids)")
    }

    @Test("an empty message gets an error event, then done (v1)")
    func emptyMessage() async throws {
        let backend = try DemoBackend(token: "t", faults: Self.quick, dialect: .v1)
        defer { backend.stop() }
        let result = try await Curl.get(backend, "/api/chat", ["--data", #"{"text":"  "}"#])
        let stream = try ChatStream(result.text)
        #expect(stream.events.contains { $0.error != nil })
        #expect(stream.isDone)
    }

    @Test("a body that is not the chat JSON is 400", arguments: ["{bad", #"{"voice":true}"#, #"{"text":5}"#, ""])
    func badBody(body: String) async throws {
        let backend = try DemoBackend(token: "t", faults: Self.quick)
        defer { backend.stop() }
        let result = try await Curl.get(backend, "/api/chat", ["--data-binary", body, "--request", "POST"])
        #expect(try result.single().status == 400)
        #expect(result.text.contains("\"error\""))
    }

    @Test("GET /api/chat is 405 with Allow: POST")
    func wrongMethod() async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let result = try await Curl.get(backend, "/api/chat")
        let transfer = try result.single()
        #expect(transfer.status == 405)
        #expect(transfer.header("allow") == "POST")
    }

    @Test("tokens arrive as they are produced, not all at the end")
    func streamsIncrementally() async throws {
        let backend = try DemoBackend(token: "t", faults: DemoBackend.Faults(chatTokenDelay: .milliseconds(60)))
        defer { backend.stop() }
        let result = try await Curl.get(backend, "/api/chat", ["--no-buffer", "--data", #"{"text":"hello"}"#])
        let transfer = try result.single()
        let tokens = try ChatStream(result.text).tokens.count
        #expect(transfer.totalTime >= 0.9 * 0.06 * Double(tokens - 1), "\(tokens) tokens 60 ms apart took \(transfer.totalTime) s")
        // Not held until the end, seen by order rather than by clock: with the tokens an hour apart,
        // the first one still arrives, and the end does not.
        let waiting = try DemoBackend(token: "t", faults: DemoBackend.Faults(chatTokenDelay: .seconds(3_600)))
        defer { waiting.stop() }
        let connection = try IdleConnection(port: waiting.port, request: IdleConnection.chatRequest(token: "t", text: "hello"))
        defer { connection.close() }
        let received = connection.read(until: #""t":"#)
        #expect(received.contains(#""t":"#), "no token before the next delay: \(received.debugDescription)")
        #expect(!received.contains(#""done""#), "\(received.debugDescription)")
    }

    @Test("react acknowledges a reaction; a bad body is 400")
    func react() async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let ok = try await Curl.get(backend, "/api/react", ["--data", #"{"message_id":101,"emoji":"❤️"}"#])
        #expect(try ok.single().status == 200)
        #expect(try JSONDecoder().decode([String: Bool].self, from: Data(ok.body)) == ["ok": true])
        let bad = try await Curl.get(backend, "/api/react", ["--data", #"{"emoji":"❤️"}"#])
        #expect(try bad.single().status == 400)
    }

    @Test("a body over 64 KiB is 413")
    func largeBody() async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let text = String(repeating: "a", count: 70_000)
        let result = try await Curl.get(backend, "/api/chat", ["--data", #"{"text":"\#(text)"}"#])
        #expect(try result.single().status == 413)
    }
}
