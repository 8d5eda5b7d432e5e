import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// `Authorization: Bearer` or `?token=` on everything under /api, else 401.
@Suite("Authentication")
struct AuthenticationTests {
    @Test("no token, a wrong Bearer token or a wrong ?token= get 401 with a JSON error", arguments: [
        ["/api/tracks"],
        ["/api/tracks", "--header", "Authorization: Bearer wrong"],
        ["/api/tracks", "--header", "Authorization: Basic dDp0"],
        ["/api/tracks?token=wrong"],
        ["/api/audio/s1e01.wav?token=wrong"],
        ["/api/audio/voice-1.wav"],
        ["/api/health?token="],
        ["/api/nonexistent"],
    ])
    func rejected(arguments: [String]) async throws {
        let backend = try DemoBackend(token: "right")
        defer { backend.stop() }
        let result = try await Curl.run([backend.baseURL + arguments[0]] + arguments.dropFirst())
        let transfer = try result.single()
        #expect(transfer.status == 401)
        #expect(transfer.header("content-type")?.hasPrefix("application/json") == true)
        #expect(transfer.header("www-authenticate")?.hasPrefix("Bearer") == true)
        let body = try JSONDecoder().decode([String: String].self, from: Data(result.body))
        #expect(body["error"]?.isEmpty == false)
        #expect(!result.text.contains("right"))
    }

    @Test("a Bearer header and a ?token= query item are both accepted")
    func accepted() async throws {
        let backend = try DemoBackend(token: "right")
        defer { backend.stop() }
        let bearer = try await Curl.run(["--header", "Authorization: Bearer right", backend.baseURL + "/api/tracks", "--output", "/dev/null"])
        #expect(try bearer.single().status == 200)
        let lowercase = try await Curl.run(["--header", "authorization: bearer right", backend.baseURL + "/api/health", "--output", "/dev/null"])
        #expect(try lowercase.single().status == 200)
        let query = try await Curl.run([backend.baseURL + "/api/tracks?token=right", "--output", "/dev/null"])
        #expect(try query.single().status == 200)
        let media = try await Curl.run([backend.baseURL + "/api/audio/voice-1.wav?foo=1&token=right", "--range", "0-3"])
        #expect(try media.single().status == 206)
        #expect(media.text == "RIFF")
    }

    @Test("a ?token= query item is percent-decoded")
    func percentDecoded() async throws {
        let token = "a/b?c&d=e%f"
        let backend = try DemoBackend(token: token)
        defer { backend.stop() }
        let encoded = "a%2Fb%3Fc%26d%3De%25f"
        let result = try await Curl.run([backend.baseURL + "/api/health?token=" + encoded, "--output", "/dev/null"])
        #expect(try result.single().status == 200)
        let raw = try await Curl.run([backend.baseURL + "/api/health?token=a/b", "--output", "/dev/null"])
        #expect(try raw.single().status == 401)
        #expect(backend.requests.allSatisfy { !$0.path.contains(encoded) && !$0.path.contains("a/b") }, "\(backend.requests)")
    }

    @Test("paths outside /api are 404 without a token")
    func outsideAPI() async throws {
        let backend = try DemoBackend(token: "right")
        defer { backend.stop() }
        for path in ["/", "/index.html", "/apix/tracks", "/audio/s1e01.wav"] {
            let result = try await Curl.run([backend.baseURL + path, "--output", "/dev/null"])
            #expect(try result.single().status == 404, "\(path)")
        }
    }
}
