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
        let warming = (shelf?[1]["items"] as? [[String: Any]])?[0]
        let warmingBody = (warming?["body"] as? String) ?? ""
        let warmingTitle = (warming?["title"] as? String) ?? ""
        // Asked as the player asks it (the app's form: the backend's key for the piece).
        let spoken = try await ChildProcess.run(try ChildProcess.resolve("curl"),
            ["-sf", "-H", "Authorization: Bearer \(backend.token)", "-H", "Content-Type: application/json",
             "-d", String(decoding: try JSONSerialization.data(withJSONObject: ["text": warmingTitle + ".\n\n" + warmingBody, "kind": "synthesis"]),
                          as: UTF8.self),
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

    @Test("playlist add NAME --text / --file adds a piece read aloud as the app does; it plays as one item")
    func addText() async throws {
        let backend = try DemoBackend(token: "pl-\(UInt32.random(in: 1000...9999))")
        defer { backend.stop() }
        let environment = try BackendCommandTests.isolatedEnvironment(backend)
        let added = try await Playback.run(["playlist", "add", "drive", "--text", "A note for the road. Mind the curves."], environment: environment)
        #expect(added.status == 0, "\(added)")
        // Its row: read aloud, the title from the text's first words.
        #expect(added.stdout.split(separator: "\n").contains { $0.contains("read aloud") && $0.contains("A note for the road") }, "\(added)")
        let directory = try TemporaryDirectory(prefix: "text")
        let file = try directory.write(Array("Second piece, from a file.\n".utf8), as: "piece.txt")
        let fromFile = try await Playback.run(["playlist", "add", "drive", "--file", file], environment: environment)
        #expect(fromFile.status == 0 && fromFile.stdout.contains("Second piece"), "\(fromFile)")
        let shown = try await Playback.run(["playlist", "show", "drive", "--json"], environment: environment)
        #expect(shown.status == 0 && shown.stdout.contains("A note for the road"), "\(shown)")
        // Clear lines, nothing sent: both at once, an episode beside the text, no text at all.
        let both = try await Playback.run(["playlist", "add", "drive", "--text", "x", "--file", file], environment: environment)
        #expect(both.status == 2 && both.stderr.contains("--text or --file, not both"), "\(both)")
        let beside = try await Playback.run(["playlist", "add", "drive", "S1E02", "--text", "x"], environment: environment)
        #expect(beside.status == 2 && beside.stderr.contains("without an episode"), "\(beside)")
        let missing = try await Playback.run(["playlist", "add", "drive", "--file", directory.file("none.txt")], environment: environment)
        #expect(missing.status == 1 && missing.stderr.split(separator: "\n").count == 1, "\(missing)")
    }

    @Test("a piece read aloud follows along: ctl transcript prints its own text, split by its chunks, at their starts")
    func synthesisTranscript() async throws {
        let backend = try DemoBackend(token: "pl-\(UInt32.random(in: 1000...9999))")
        defer { backend.stop() }
        let directory = try TemporaryDirectory(prefix: "transcript")
        let socket = directory.file("socket")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 24_000, channels: 1)
        let environment = try BackendCommandTests.isolatedEnvironment(backend)
        try await Playback.gated {
            // Drive home: the letter (ready, three chunks), then an episode.
            let player = try PlayerProcess.start(["play", "playlist:drive", "--device", capture.sinkName, "--ipc", socket], environment: environment)
            try await ControlSocketTests.waitForSocket(socket, player: player)
            var transcript = try await ControlSocketTests.ctl(socket, ["transcript"])
            // Asked again (bounded) until the letter has opened: before, nothing plays yet.
            for _ in 0..<400 where transcript.status != 0 {
                try await Task.sleep(for: .milliseconds(50))
                transcript = try await ControlSocketTests.ctl(socket, ["transcript"])
            }
            _ = try? await ControlSocketTests.ctl(socket, ["quit"])
            _ = await player.wait(timeout: .seconds(60))
            #expect(transcript.status == 0, "\(transcript)")
            let lines = transcript.stdout.split(separator: "\n").map(String.init)
            // One line a chunk, at its start: every word of the letter once, in order.
            #expect(lines.count == 3, "\(transcript.stdout)")
            #expect(lines.first?.hasPrefix("0:00") == true, "\(transcript.stdout)")
            let words = lines.flatMap { $0.split(separator: " ").dropFirst().map(String.init) }
            #expect(words.joined(separator: " ") == "Dear listener, this is a letter read aloud in three short parts.", "\(transcript.stdout)")
        }
        _ = await capture.finish()
    }
}

