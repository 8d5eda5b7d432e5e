import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// Each of ``DemoBackend/Faults``, seen from curl.
@Suite("Faults")
struct FaultTests {
    static let voiceNote = "/api/audio/voice-1.wav"

    @Test("closeAfterBodyBytes: the body stops after that many bytes and the connection drops")
    func closeAfterBodyBytes() async throws {
        let backend = try DemoBackend(token: "t", faults: DemoBackend.Faults(closeAfterBodyBytes: 10_000))
        let reference = try DemoBackend(token: "t")
        defer {
            backend.stop()
            reference.stop()
        }
        let whole = try await Curl.run([Curl.mediaURL(reference, "/api/audio/interlude.wav"), "--range", "0-99999"])
        for (range, start) in [("0-", 0), ("50000-", 50_000)] {
            let result = try await Curl.run([Curl.mediaURL(backend, "/api/audio/interlude.wav"), "--range", range])
            let transfer = try result.single()
            #expect(transfer.status == 206)
            // 18: "transfer closed with outstanding read data remaining".
            #expect(transfer.exitCode == 18, "curl exit \(transfer.exitCode): \(transfer.errorMessage ?? "")")
            #expect(result.body == Array(whole.body[start..<start + 10_000]))
        }
        #expect(backend.requests.map(\.bodyBytes) == [10_000, 10_000])
        // API replies are not media: they are whole.
        let api = try await Curl.get(backend, "/api/health")
        #expect(try api.single().status == 200, "closeAfterBodyBytes is for media only")
    }

    @Test("bytesPerSecond: a media transfer takes at least as long as the rate says, an API reply is not held back")
    func bytesPerSecond() async throws {
        let backend = try DemoBackend(token: "t", faults: DemoBackend.Faults(bytesPerSecond: 100_000))
        defer { backend.stop() }
        let result = try await Curl.run([Curl.mediaURL(backend, "/api/audio/interlude.wav"), "--range", "0-149999"])
        let transfer = try result.single()
        #expect(result.body.count == 150_000)
        // 150 kB at 100 kB/s: 1.45 s after the first 5 kB chunk. A lower bound: a slow machine only
        // makes it longer. (Curl's --max-time is the hang guard.)
        #expect(transfer.totalTime >= 1.3, "took \(transfer.totalTime) s")
        #expect(transfer.exitCode == 0, "curl exit \(transfer.exitCode): \(transfer.errorMessage ?? "")")
        // At one byte a second the catalogue would take an hour: that it arrives whole within
        // curl's --max-time says the limit is for media only, without timing it.
        let crawling = try DemoBackend(token: "t", faults: DemoBackend.Faults(bytesPerSecond: 1))
        defer { crawling.stop() }
        let api = try await Curl.get(crawling, "/api/tracks")
        let reply = try api.single()
        #expect(reply.status == 200 && reply.exitCode == 0, "bytesPerSecond is for media only: curl exit \(reply.exitCode)")
        #expect(api.body.count > 1_000, "\(api.body.count) bytes of catalogue")
    }

    @Test("ignoreRange: every media request is 200 with the whole file and no Accept-Ranges")
    func ignoreRange() async throws {
        let backend = try DemoBackend(token: "t", faults: DemoBackend.Faults(ignoreRange: true))
        defer { backend.stop() }
        let plain = try await Curl.run([Curl.mediaURL(backend, Self.voiceNote)])
        for range in ["100-199", "-10", "99999999-"] {
            let result = try await Curl.run([Curl.mediaURL(backend, Self.voiceNote), "--header", "Range: bytes=\(range)"])
            let transfer = try result.single()
            #expect(transfer.status == 200)
            #expect(transfer.header("content-range") == nil)
            #expect(transfer.header("accept-ranges") == nil)
            #expect(result.body == plain.body)
        }
    }

    static func statuses(failureRate: Double, seed: UInt64, count: Int = 40) async throws -> [Int] {
        let backend = try DemoBackend(token: "t", faults: DemoBackend.Faults(failureRate: failureRate, failureSeed: seed))
        defer { backend.stop() }
        let url = backend.baseURL + "/api/health?token=t"
        let result = try await Curl.run(Array(repeating: [url, "--output", "/dev/null"], count: count).flatMap { $0 })
        return result.transfers.map(\.status)
    }

    @Test("failureRate: that share of requests is 500, the same ones for the same seed")
    func failureRate() async throws {
        let first = try await Self.statuses(failureRate: 0.5, seed: 7)
        let again = try await Self.statuses(failureRate: 0.5, seed: 7)
        let other = try await Self.statuses(failureRate: 0.5, seed: 8)
        #expect(first.count == 40)
        #expect(Set(first) == [200, 500], "\(first)")
        let failures = first.filter { $0 == 500 }.count
        #expect((8...32).contains(failures), "\(failures) of 40 failed at rate 0.5")
        #expect(first == again, "the same seed failed different requests")
        #expect(first != other, "a different seed failed the same requests")
        #expect(try await Self.statuses(failureRate: 1, seed: 1, count: 10) == Array(repeating: 500, count: 10))
        #expect(try await Self.statuses(failureRate: 0, seed: 1, count: 10) == Array(repeating: 200, count: 10))
    }

    @Test("failureRate applies to media and API endpoints alike, after authentication")
    func failureScope() async throws {
        let backend = try DemoBackend(token: "t", faults: DemoBackend.Faults(failureRate: 1))
        defer { backend.stop() }
        let media = try await Curl.run([Curl.mediaURL(backend, Self.voiceNote), "--output", "/dev/null"])
        #expect(try media.single().status == 500)
        let chat = try await Curl.get(backend, "/api/chat", ["--data", #"{"text":"hi"}"#])
        #expect(try chat.single().status == 500)
        let unauthorised = try await Curl.run([backend.baseURL + "/api/tracks", "--output", "/dev/null"])
        #expect(try unauthorised.single().status == 401)
    }

    @Test("chatTokenDelay: tokens come that far apart")
    func chatTokenDelay() async throws {
        let backend = try DemoBackend(token: "t", faults: DemoBackend.Faults(chatTokenDelay: .milliseconds(80)))
        defer { backend.stop() }
        let result = try await Curl.get(backend, "/api/chat", ["--data", #"{"text":"hi"}"#])
        let events = try ChatStream(result.text).events.count
        let transfer = try result.single()
        // Every event after the first waits the delay.
        let expected = 0.08 * Double(events - 1)
        #expect(transfer.totalTime >= 0.9 * expected, "\(events) events took \(transfer.totalTime) s, expected \(expected) s")
        #expect(transfer.exitCode == 0, "curl exit \(transfer.exitCode): \(transfer.errorMessage ?? "")")
    }

    @Test("chatStartDelay: the first event waits, the comment before it does not")
    func chatStartDelay() async throws {
        let backend = try DemoBackend(token: "t", faults: DemoBackend.Faults(chatTokenDelay: .zero, chatStartDelay: .milliseconds(700)))
        defer { backend.stop() }
        let result = try await Curl.get(backend, "/api/chat", ["--no-buffer", "--data", #"{"text":"hi"}"#])
        let transfer = try result.single()
        #expect(try ChatStream(result.text).isDone)
        #expect(transfer.totalTime >= 0.65, "took \(transfer.totalTime) s with a 0.7 s start delay")
        // The comment does not wait, seen by order rather than by clock: with the first event an
        // hour away, the headers and the comment still arrive.
        let waiting = try DemoBackend(token: "t", faults: DemoBackend.Faults(chatTokenDelay: .zero, chatStartDelay: .seconds(3_600)))
        defer { waiting.stop() }
        let connection = try IdleConnection(port: waiting.port, request: IdleConnection.chatRequest(token: "t", text: "hi"))
        defer { connection.close() }
        let received = connection.read(until: ": keep-alive")
        #expect(received.hasPrefix("HTTP/1.1 200") && received.contains(": keep-alive"), "the headers waited for the delay: \(received.debugDescription)")
        #expect(!received.contains("data:"), "an event came before its delay: \(received.debugDescription)")
    }
}
