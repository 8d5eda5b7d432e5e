import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// Starting, stopping and the request log.
@Suite("Demo backend lifecycle")
struct DemoBackendTests {
    @Test("port 0 takes a free loopback port; stop frees it and is idempotent")
    func randomPort() throws {
        // A token of its own: with tests running in parallel another server may take the freed
        // port at once (a "chosen port" test asks the kernel for one), but it will not accept this
        // token.
        let token = "port-\(UInt32.random(in: 0...UInt32.max))"
        let backend = try DemoBackend(token: token)
        #expect(backend.port > 0)
        #expect(backend.baseURL == "http://127.0.0.1:\(backend.port)")
        #expect(LoopbackPort.isAccepting(backend.port))
        let other = try DemoBackend(token: token)
        #expect(other.port != backend.port)
        backend.stop()
        backend.stop()
        let answer = try? LoopbackHTTP.get(port: backend.port, path: "/api/health?token=\(token)")
        #expect(answer?.status != 200, "still answering after stop()")
        #expect(try LoopbackHTTP.get(port: other.port, path: "/api/health?token=\(token)").status == 200,
                "stopping one backend stopped another")
        other.stop()
    }

    @Test("a chosen port is used, and a taken one is an error")
    func chosenPort() throws {
        let port = try LoopbackPort.unused()
        let backend = try DemoBackend(token: "t", port: port)
        defer { backend.stop() }
        #expect(backend.port == port)
        #expect(throws: DemoBackendError.self) { try DemoBackend(token: "t", port: port) }
    }

    @Test("releasing the backend stops it")
    func deinitStops() throws {
        // A token of its own: with tests running in parallel another server may take the freed
        // port, but it will not accept this token.
        let token = "release-\(UInt32.random(in: 0...UInt32.max))"
        var port = 0
        do {
            let backend = try DemoBackend(token: token)
            port = backend.port
            #expect(LoopbackPort.isAccepting(port))
        }
        let answer = try? LoopbackHTTP.get(port: port, path: "/api/health?token=\(token)")
        #expect(answer?.status != 200, "still answering after the backend was released")
    }

    @Test("bad settings are refused with a reason", arguments: [
        ("", DemoBackend.Faults()),
        ("has space", DemoBackend.Faults()),
        ("t", DemoBackend.Faults(failureRate: 1.5)),
        ("t", DemoBackend.Faults(failureRate: -0.1)),
        ("t", DemoBackend.Faults(bytesPerSecond: 0)),
        ("t", DemoBackend.Faults(closeAfterBodyBytes: -1)),
        ("t", DemoBackend.Faults(chatTokenDelay: .milliseconds(-1))),
    ])
    func badSettings(token: String, faults: DemoBackend.Faults) {
        #expect(throws: DemoBackendError.self) { try DemoBackend(token: token, faults: faults) }
    }

    @Test("a port outside 0...65535 is refused")
    func badPort() {
        #expect(throws: DemoBackendError.self) { try DemoBackend(token: "t", port: 70_000) }
        #expect(throws: DemoBackendError.self) { try DemoBackend(token: "t", port: -1) }
    }

    @Test("random tokens are 32 hex digits and differ")
    func randomToken() {
        let tokens = (0..<8).map { _ in DemoBackend.randomToken() }
        for token in tokens {
            #expect(token.count == 32 && token.allSatisfy(\.isHexDigit), "\(token)")
        }
        #expect(Set(tokens).count == tokens.count)
    }

    /// Bounds on waits below are hang guards, far above what the code needs and far below the
    /// delays it must not wait out: a busy machine or a sanitizer build only makes the test slower.
    static let hangGuard: Duration = .seconds(30)

    @Test("stop() ends a stream in progress instead of waiting out its delays")
    func stopDuringStream() async throws {
        // Tokens ten minutes apart: waiting out even one delay is far past the hang guard.
        let backend = try DemoBackend(token: "t", faults: DemoBackend.Faults(chatTokenDelay: .seconds(600)))
        let curl = try ChildProcess(
            "curl",
            ["--silent", "--no-buffer", "--max-time", "120", "--header", "Authorization: Bearer t", "--data", #"{"text":"hi"}"#, backend.baseURL + "/api/chat"]
        )
        let deadline = ContinuousClock.now + Self.hangGuard
        while !backend.requests.contains(where: { $0.path == "/api/chat" }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(backend.requests.contains { $0.path == "/api/chat" }, "the chat request never arrived")
        let stopped = ContinuousClock.now
        backend.stop()
        let took = ContinuousClock.now - stopped
        #expect(took < Self.hangGuard, "stop() took \(took) with a stream waiting 600 s between tokens")
        let result = await curl.wait(timeout: Self.hangGuard)
        #expect(!result.timedOut, "curl still waiting \(Self.hangGuard) after stop()")
        #expect(!result.stdoutText.contains("\"done\""), "the stream finished normally: \(result.stdoutText)")
    }

    /// Guards against `alicia-player demo` hanging on exit while the player still holds a
    /// keep-alive connection.
    @Test("stop() closes idle keep-alive connections instead of waiting for them")
    func stopWithIdleConnection() async throws {
        let backend = try DemoBackend(token: "t")
        let connection = try IdleConnection(port: backend.port, request: "GET /api/health?token=t HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        defer { connection.close() }
        #expect(connection.response.hasPrefix("HTTP/1.1 200"), "\(connection.response)")
        let stopped = ContinuousClock.now
        backend.stop()
        let took = ContinuousClock.now - stopped
        // The connection never closes by itself (no idle timeout): a stop() that waited for it hangs.
        #expect(took < Self.hangGuard, "stop() took \(took) with an idle keep-alive connection open")
        #expect(connection.isClosedByPeer(), "the idle connection is still open after stop()")
    }

    @Test("the request log keeps method, path, status, body bytes and Range, never the token")
    func requestLog() async throws {
        let backend = try DemoBackend(token: "sekrit")
        defer { backend.stop() }
        _ = try await Curl.run([Curl.mediaURL(backend, "/api/audio/voice-1.wav"), "--range", "0-99", "--output", "/dev/null"])
        _ = try await Curl.run([backend.baseURL + "/api/tracks?token=wrong&x=1", "--output", "/dev/null"])
        _ = try await Curl.run(["--head", Curl.mediaURL(backend, "/api/audio/voice-1.wav"), "--output", "/dev/null"])
        let log = backend.requests
        #expect(log.count == 3, "\(log)")
        guard log.count == 3 else { return }
        #expect(log[0] == LoggedRequest(method: "GET", path: "/api/audio/voice-1.wav?token=***", status: 206, bodyBytes: 100, range: "bytes=0-99"))
        #expect(log[1] == LoggedRequest(method: "GET", path: "/api/tracks?token=***&x=1", status: 401, bodyBytes: log[1].bodyBytes, range: nil))
        #expect(log[1].bodyBytes > 0)
        #expect(log[2] == LoggedRequest(method: "HEAD", path: "/api/audio/voice-1.wav?token=***", status: 200, bodyBytes: 0, range: nil))
        #expect(!log.description.contains("sekrit"))
    }
}
