import AliciaTestSupport
import Testing
@testable import AliciaBackend

/// The backend client under the program's one HTTP policy: a redirect to another host is followed
/// without the bearer token.
@Suite struct HTTPClientRedirectTests {
    @Test func aRedirectToAnotherHostCarriesNoAuthorization() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        try server.serve(Array(#"{"ok": true}"#.utf8), as: "tracks.json")
        let client = try HTTPClient(hostAndPort: "127.0.0.1:\(server.port)")
        let response = try client.request(server.url("/away/tracks.json"), endpoint: "/away/tracks.json", bearer: "t0ken")
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok": true}"#)
        // nginx writes a request's line as it ends, which can be just after the client has the reply.
        var log = server.accessLog()
        let deadline = ContinuousClock.now + .seconds(10)
        while log.count < 2 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            log = server.accessLog()
        }
        #expect(log.count == 2, "\(log)")
        #expect(log.first.map { $0.authorization && $0.host.hasPrefix("127.0.0.1") } == true, "\(log)")
        #expect(log.last.map { !$0.authorization && $0.host.hasPrefix("localhost") } == true, "\(log)")
    }
}
