import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// The two dialects seen from curl: the older API (v1) and Alicia 2.0 (v2, the default).
@Suite("Dialects")
struct DialectTests {
    struct Proactive: Decodable {
        let id: String
        let is_ask: Bool
        let text: String
    }

    @Test("v2 proactive ids are text with is_ask, one of them asking; v1 has numbers and no is_ask")
    func proactive() async throws {
        let v2 = try DemoBackend(token: "t")
        let v1 = try DemoBackend(token: "t", dialect: .v1)
        defer { v2.stop(); v1.stop() }
        #expect(v2.dialect == .v2)
        let messages = try JSONDecoder().decode([Proactive].self, from: Data(try await Curl.get(v2, "/api/proactive").body))
        #expect(messages.allSatisfy { $0.id.hasPrefix("pm-") } && messages.contains(where: \.is_ask), "\(messages.map(\.id))")
        let old = try JSONSerialization.jsonObject(with: Data(try await Curl.get(v1, "/api/proactive?limit=2").body)) as? [[String: Any]]
        #expect(old?.allSatisfy { $0["id"] is Int && $0["is_ask"] == nil } == true)
    }

    @Test("v1 answers 404 for Alicia 2.0's endpoints; v2 serves them", arguments: [
        "/api/morning_briefing", "/api/syntheses", "/api/reflections", "/api/history", "/api/episode_day",
        "/api/morning_briefing/audio/mb-2025-06-12.wav",
    ])
    func newEndpoints(path: String) async throws {
        let v1 = try DemoBackend(token: "t", dialect: .v1)
        let v2 = try DemoBackend(token: "t")
        defer { v1.stop(); v2.stop() }
        #expect(try await Curl.get(v1, path).single().status == 404)
        #expect(try await Curl.get(v2, path, ["--range", "0-43"]).single().status == (path.hasSuffix(".wav") ? 206 : 200))
        #expect(try await Curl.get(v1, "/api/reply", ["--data", #"{"proactive_id":"318","text":"yes"}"#]).single().status == 404)
    }

    @Test("v2 chat: reply_id before done, health beside it, the request_id logged; an empty message is 400")
    func chat() async throws {
        let backend = try DemoBackend(token: "t", faults: .init(chatTokenDelay: .milliseconds(1)))
        defer { backend.stop() }
        let body = #"{"text":"hello","voice":false,"request_id":"7d0c3f5e-0000-4000-8000-000000000001"}"#
        let stream = try ChatStream(try await Curl.get(backend, "/api/chat", ["--data", body]).text)
        let replyIndex = try #require(stream.events.firstIndex { $0.reply_id != nil })
        #expect(replyIndex == stream.events.count - 2 && stream.isDone)
        #expect(backend.requests.last?.requestID == "7d0c3f5e-0000-4000-8000-000000000001")
        let raw = try await Curl.get(backend, "/api/chat", ["--data", body]).text
        #expect(raw.contains(#""health":{"#))
        #expect(try ChatStream(raw).messageID == stream.messageID, "a resent request_id is the same message")
        let empty = try await Curl.get(backend, "/api/chat", ["--data", #"{"text":"  "}"#])
        #expect(try empty.single().status == 400 && empty.text.contains("empty"))
    }

    @Test("a chat fault ends the stream with an error, without done, or with a status")
    func chatFaults() async throws {
        let erring = try DemoBackend(token: "t", faults: .init(chatTokenDelay: .zero, chat: .errorEvent(afterTokens: 2, message: "tired")))
        let cut = try DemoBackend(token: "t", faults: .init(chatTokenDelay: .zero, chat: .cutShort(afterTokens: 3)))
        let refusing = try DemoBackend(token: "t", faults: .init(chat: .status(422, message: "too long")))
        let v1 = try DemoBackend(token: "t", faults: .init(chatTokenDelay: .zero, chat: .errorEvent(afterTokens: 1, message: "tired")), dialect: .v1)
        defer { erring.stop(); cut.stop(); refusing.stop(); v1.stop() }
        let data = ["--data", #"{"text":"hello"}"#]
        let errored = try ChatStream(try await Curl.get(erring, "/api/chat", data).text)
        #expect(errored.tokens.count == 2 && errored.events.last?.error == "tired" && !errored.isDone)
        let stopped = try ChatStream(try await Curl.get(cut, "/api/chat", data).text)
        #expect(stopped.tokens.count == 3 && !stopped.isDone && stopped.events.allSatisfy { $0.error == nil })
        let refused = try await Curl.get(refusing, "/api/chat", data)
        #expect(try refused.single().status == 422 && refused.text.contains("too long"))
        let older = try ChatStream(try await Curl.get(v1, "/api/chat", data).text)
        #expect(older.tokens.count == 1 && older.events.contains { $0.error == "tired" } && older.isDone)
        #expect(throws: DemoBackendError.self) { try DemoBackend(token: "t", faults: .init(chat: .status(200, message: "x"))) }
    }

    @Test("v2 speak takes both bodies; its chunks carry their words and cues; v1's do not")
    func speak() async throws {
        let v2 = try DemoBackend(token: "t")
        let v1 = try DemoBackend(token: "t", dialect: .v1)
        defer { v2.stop(); v1.stop() }
        let letter = "A Letter, Read Aloud.\\n\\nDear listener, this is a letter read aloud in three short parts."
        let new = try await Curl.get(v2, "/api/speak", ["--data", #"{"text":"\#(letter)","kind":"synthesis","required_backend":"kokoro"}"#])
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(new.body)) as? [String: Any])
        #expect(reply["status"] as? String == "ready" && reply["speech_backend"] as? String == "kokoro" && reply["spoken_text"] != nil)
        let chunks = try #require(reply["chunks"] as? [[String: Any]])
        #expect(chunks.count == 3 && chunks.allSatisfy { ($0["text"] as? String)?.isEmpty == false && ($0["cues"] as? [Any])?.isEmpty == false })
        let old = try await Curl.get(v1, "/api/speak", ["--data", #"{"text":"Dear listener, this is a letter read aloud in three short parts.","kind":"synthesis"}"#])
        #expect(old.text.contains(#""status":"ready""#) && !old.text.contains("cues") && !old.text.contains("spoken_text"))
    }

    @Test("foreignMedia: playlist episodes' audio comes back as the phone's absolute URLs")
    func foreignMedia() async throws {
        let backend = try DemoBackend(token: "t", foreignMedia: .phone)
        defer { backend.stop() }
        let body = try await Curl.get(backend, "/api/playlists").text
        #expect(body.contains("http://192.0.2.1:8766/api/audio/s1e01.wav?token=phone-token"), "\(body)")
        #expect(body.contains(#""url":"/api/audio/chunk-syn-letter-0.wav""#), "syntheses keep their paths")
    }
}
