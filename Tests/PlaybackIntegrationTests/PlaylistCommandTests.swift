import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// `play playlist:NAME` and the playlist commands against the demo backend, captured at the
/// chunks' own format (24 kHz mono 16-bit), where the player passes samples through untouched.
@Suite("Playlists")
struct PlaylistCommandTests {
    /// A chunk's samples, fetched with curl (a client that is not ours).
    private func samples(_ backend: DemoBackend, _ path: String) async throws -> [Int16] {
        let download = try await ChildProcess.run(try ChildProcess.resolve("curl"), ["-sf", backend.baseURL + path + "?token=" + backend.token],
                                                    timeout: .seconds(30))
        let bytes = download.stdout
        // The WAV's "data" chunk: its samples follow its 8-byte header.
        guard let at = (0..<max(0, bytes.count - 8)).first(where: { bytes[$0..<$0 + 4].elementsEqual("data".utf8) }) else { return [] }
        return AudioCompare.int16Samples(littleEndian: bytes[(at + 8)...])
    }

    private func chunkPaths(_ backend: DemoBackend, _ json: Data, item index: Int, of playlist: Int) throws -> [String] {
        let shelf = try JSONSerialization.jsonObject(with: json) as? [[String: Any]]
        let items = shelf?[playlist]["items"] as? [[String: Any]]
        let speech = items?[index]["speech"] as? [String: Any]
        return (speech?["chunks"] as? [[String: Any]])?.compactMap { $0["url"] as? String } ?? []
    }

    private func trimmed(_ samples: [Int16]) -> [Int16] {
        guard let first = samples.firstIndex(where: { $0 != 0 }), let last = samples.lastIndex(where: { $0 != 0 }) else { return [] }
        return Array(samples[first...last])
    }

    @Test("a warming item is voiced through /api/speak; syntheses play as one item each, their chunks back to back")
    func playsAPlaylist() async throws {
        let backend = try DemoBackend(token: "pl-\(UInt32.random(in: 1000...9999))")
        defer { backend.stop() }
        let capture = try await PipeSinkCapture(format: .s16le, rate: 24_000, channels: 1)
        let result = try await Playback.run(["play", "playlist:bed", "--device", capture.sinkName],
                                            environment: BackendCommandTests.isolatedEnvironment(backend), timeout: .seconds(120))
        let captured = trimmed(await capture.finishInt16())
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains(backend.token) && !result.stderr.contains(backend.token))

        // What was played: the warming text's chunks (now ready), then the letter's.
        let shelfJSON = try await ChildProcess.run(try ChildProcess.resolve("curl"),
            ["-sf", "-H", "Authorization: Bearer \(backend.token)", backend.baseURL + "/api/playlists"], timeout: .seconds(30)).stdout
        let shelf = try JSONSerialization.jsonObject(with: Data(shelfJSON)) as? [[String: Any]]
        let warmingBody = ((shelf?[1]["items"] as? [[String: Any]])?[0]["body"] as? String) ?? ""
        let spoken = try await ChildProcess.run(try ChildProcess.resolve("curl"),
            ["-sf", "-H", "Authorization: Bearer \(backend.token)", "-H", "Content-Type: application/json",
             "-d", String(decoding: try JSONSerialization.data(withJSONObject: ["text": warmingBody, "kind": "synthesis"]), as: UTF8.self),
             backend.baseURL + "/api/speak"], timeout: .seconds(30)).stdout
        let speech = try JSONSerialization.jsonObject(with: Data(spoken)) as? [String: Any]
        let warmingPaths = (speech?["chunks"] as? [[String: Any]])?.compactMap { $0["url"] as? String } ?? []
        let letterPaths = try chunkPaths(backend, Data(shelfJSON), item: 1, of: 1)
        #expect(warmingPaths.count == 3 && letterPaths.count == 3)
        var expected: [Int16] = []
        for path in warmingPaths + letterPaths { expected += try await samples(backend, path) }
        expected = trimmed(expected)
        #expect(captured.count == expected.count, "\(captured.count) samples played, \(expected.count) in the chunks")
        #expect(AudioCompare.firstMismatch(expected: expected, actual: captured) == nil,
                "not the chunks back to back: \(AudioCompare.describeDifference(expected: expected, actual: captured, channels: 1))")
    }

    @Test("playlists lists them; playlist actions print the playlist; a bad action is one line, exit 1")
    func commands() async throws {
        let backend = try DemoBackend(token: "pl-\(UInt32.random(in: 1000...9999))")
        defer { backend.stop() }
        let environment = try BackendCommandTests.isolatedEnvironment(backend)
        let listed = try await Playback.run(["playlists"], environment: environment)
        #expect(listed.status == 0 && listed.stdout.contains("Drive home") && listed.stdout.contains("(1 warming)"), "\(listed)")
        let added = try await Playback.run(["playlist", "add", "drive", "S1E02"], environment: environment)
        // In columns: number, kind, title, length, state.
        let addedLine = added.stdout.split(separator: "\n").contains { $0.hasPrefix("  3  S1E02") && $0.contains("  The Long Way Round  ") }
        #expect(added.status == 0 && addedLine, "\(added)")
        let moved = try await Playback.run(["playlist", "move", "drive", "long way", "1"], environment: environment)
        #expect(moved.status == 0 && moved.stdout.contains("1  S1E02"), "\(moved)")
        let missing = try await Playback.run(["playlist", "remove", "nosuch", "1"], environment: environment)
        expectErrorLine(missing, status: 1, containing: ["no playlist matches 'nosuch'"])
        let usage = try await Playback.run(["playlist", "move", "drive", "x"], environment: environment)
        #expect(usage.status == 2, "\(usage)")
    }
}
