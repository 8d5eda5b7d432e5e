import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// `/api/proactive`, `/api/episode/<label>`, `/api/health` and unknown paths.
@Suite("Catalog endpoints")
struct CatalogTests {
    struct Message: Decodable {
        let id: Int
        let date: String
        let text: String
        let kind: String
        let archetype: String
    }

    @Test("proactive (v1): newest first, at most limit, 20 by default")
    func proactive() async throws {
        let backend = try DemoBackend(token: "t", dialect: .v1)
        defer { backend.stop() }
        let all = try JSONDecoder().decode([Message].self, from: Data(try await Curl.get(backend, "/api/proactive").body))
        #expect(!all.isEmpty && all.count <= 20)
        #expect(all.map(\.date) == all.map(\.date).sorted(by: >), "not newest first")
        for limit in [0, 1, 3] {
            let some = try JSONDecoder().decode([Message].self, from: Data(try await Curl.get(backend, "/api/proactive?limit=\(limit)").body))
            #expect(some.map(\.id) == Array(all.prefix(limit)).map(\.id), "limit=\(limit)")
        }
        let bad = try await Curl.get(backend, "/api/proactive?limit=lots")
        #expect(try bad.single().status == 400)
    }

    @Test("episode notes: markdown for a known label, 404 for an unknown one")
    func episodeNotes() async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        for label in ["S1E01", "S1E03", "NIGHTS-1"] {
            let result = try await Curl.get(backend, "/api/episode/\(label)")
            #expect(try result.single().status == 200)
            let notes = try JSONDecoder().decode([String: String].self, from: Data(result.body))
            #expect(notes["label"] == label)
            let markdown = try #require(notes["markdown"])
            #expect(markdown.hasPrefix("# "), "\(markdown)")
            #expect(markdown.contains("\n- "), "no bullet list: \(markdown)")
        }
        for label in ["S9E99", "s1e01", "NOPE"] {
            let result = try await Curl.get(backend, "/api/episode/\(label)")
            #expect(try result.single().status == 404, "\(label)")
        }
    }

    @Test("health: vitals with values in 0...1")
    func health() async throws {
        struct Vital: Decodable {
            let name: String
            let value: Double
            let display: String
            let symbol: String
            let hue: Double
        }
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let vitals = try JSONDecoder().decode([Vital].self, from: Data(try await Curl.get(backend, "/api/health").body))
        #expect(!vitals.isEmpty)
        #expect(vitals.allSatisfy { (0...1).contains($0.value) && (0...1).contains($0.hue) && !$0.name.isEmpty })
    }

    @Test("unknown paths under /api are 404; a wrong method is 405", arguments: [
        ("/api/tracks/", 404), ("/api/track", 404), ("/api/episode/", 404), ("/api", 404), ("/api/", 404), ("/api/audio/a/b.wav", 404),
    ])
    func unknownPaths(path: String, status: Int) async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let result = try await Curl.get(backend, path)
        #expect(try result.single().status == status, "\(path)")
        let post = try await Curl.get(backend, "/api/tracks", ["--data", "{}"])
        #expect(try post.single().status == 405)
    }
}
