import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// Lists keep what is known: lengths in a saved queue, a playlist's items and their state, which
/// episodes are downloaded, every configuration key.
@Suite("Lists keep facts")
struct ListFactsTests {
    @Test("queue --save keeps a known 20 s length (the list's own) and an episode's length")
    func savedQueueKeepsLengths() async throws {
        let backend = try DemoBackend(token: BackendCommandTests.token)
        defer { backend.stop() }
        let directory = try TemporaryDirectory(prefix: "save-lengths")
        defer { directory.remove() }
        _ = try directory.write(Array("not read for --save".utf8), as: "twenty.wav")
        let list = try directory.write(Array("#EXTM3U\n#EXTINF:20,Twenty seconds\ntwenty.wav\nS1E01\n".utf8), as: "in.m3u8")
        let saved = directory.file("out.m3u8")
        let result = try await Playback.run(["queue", list, "--save", saved], environment: BackendCommandTests.isolatedEnvironment(backend))
        #expect(result.status == 0, "\(result)")
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(text.contains("#EXTINF:20,Twenty seconds\n"), "\(text)")
        #expect(text.contains("#EXTINF:180,Morning Light\nS1E01\n"), "\(text)")
        #expect(!text.contains("#EXTINF:-1"), "\(text)")
    }

    @Test("playlist show lists a playlist's items with kind, length and state, in columns and as JSON")
    func playlistShow() async throws {
        let backend = try DemoBackend(token: BackendCommandTests.token)
        defer { backend.stop() }
        let environment = try DownloadCommandTests.environment(backend)
        let shown = try await Playback.run(["playlist", "show", "drive"], environment: environment)
        #expect(shown.status == 0, "\(shown)")
        let lines = shown.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Drive home  2 items") == true, "\(shown)")
        #expect(lines.contains { $0.contains("read aloud") && $0.contains("A Letter, Read Aloud") && $0.hasSuffix("ready") }, "\(shown)")
        #expect(lines.contains { $0.contains("S1E01") && $0.contains("Morning Light") && $0.contains("3:00") }, "\(shown)")
        // Columns: the titles start in one column.
        let starts = lines.dropFirst().compactMap { $0.range(of: $0.contains("Letter") ? "A Letter" : "Morning")?.lowerBound.utf16Offset(in: $0) }
        #expect(Set(starts).count == 1, "\(shown)")

        let warming = try await Playback.run(["playlist", "show", "bedtime"], environment: environment)
        #expect(warming.stdout.contains("warming"), "\(warming)")

        // Downloaded, the episode's state says so.
        let download = try await Playback.run(["download", "S1E01"], environment: environment)
        #expect(download.status == 0, "\(download)")
        let json = try await Playback.run(["playlist", "show", "Drive home", "--json"], environment: environment)
        #expect(json.status == 0, "\(json)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        let items = try #require(parsed["items"] as? [[String: Any]])
        #expect(items.count == 2)
        #expect(items.first { $0["label"] as? String == "S1E01" }?["state"] as? String == "downloaded", "\(json)")
        #expect(items.first { $0["kind"] as? String == "synthesis" }?["state"] as? String == "ready", "\(json)")

        let refused = try await Playback.run(["playlist", "create", "x", "--json"], environment: environment)
        #expect(refused.status == 2, "\(refused)")
    }

    @Test("tracks --json marks a downloaded episode")
    func tracksMarkDownloaded() async throws {
        let backend = try DemoBackend(token: BackendCommandTests.token)
        defer { backend.stop() }
        let environment = try DownloadCommandTests.environment(backend)
        let download = try await Playback.run(["download", "S1E02"], environment: environment)
        #expect(download.status == 0, "\(download)")
        let tracks = try await Playback.run(["tracks", "--json"], environment: environment)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(tracks.stdout.utf8)) as? [[String: Any]], "\(tracks)")
        #expect(parsed.first { $0["label"] as? String == "S1E02" }?["downloaded"] as? Bool == true, "\(tracks)")
        #expect(parsed.first { $0["label"] as? String == "S1E01" }?["downloaded"] as? Bool == false, "\(tracks)")
    }

    @Test("config shows every key config set takes; config get prints one (the token as ***)")
    func configKeys() async throws {
        let backend = try DemoBackend(token: BackendCommandTests.token)
        defer { backend.stop() }
        let environment = try BackendCommandTests.isolatedEnvironment(backend)
        let shown = try await Playback.run(["config"], environment: environment)
        for key in ["base_url", "token", "token_file", "cache_max_size", "auto_download"] {
            #expect(shown.stdout.split(separator: "\n").contains { $0.hasPrefix(key + " ") }, "\(key): \(shown)")
        }
        let token = try await Playback.run(["config", "get", "token"], environment: environment)
        #expect(token.status == 0 && token.stdout == "***\n", "\(token)")
        let url = try await Playback.run(["config", "get", "base-url"], environment: environment)
        #expect(url.stdout == backend.baseURL + "\n", "\(url)")
        let unset = try await Playback.run(["config", "get", "auto_download"], environment: environment)
        #expect(unset.status == 1 && unset.stdout.isEmpty, "\(unset)")
        let unknown = try await Playback.run(["config", "get", "tokn"], environment: environment)
        #expect(unknown.status == 2 && unknown.stderr.contains("did you mean 'token'"), "\(unknown)")
    }

    @Test("config get token --reveal prints the token to a terminal only, never into a pipe")
    func configReveal() async throws {
        try StudioTests.requireTmux()
        let backend = try DemoBackend(token: BackendCommandTests.token)
        defer { backend.stop() }
        let environment = try BackendCommandTests.isolatedEnvironment(backend)
        let piped = try await Playback.run(["config", "get", "token", "--reveal"], environment: environment)
        #expect(piped.status == 1 && piped.stdout.isEmpty && piped.stderr.contains("only to a terminal"), "\(piped)")
        #expect(!piped.stderr.contains(BackendCommandTests.token), "\(piped)")
        let stray = try await Playback.run(["config", "--reveal"], environment: environment)
        #expect(stray.status == 2 && stray.stderr.contains("--reveal goes with config get"), "\(stray)")
        let player = try PlayerProcess.executablePath()
        let tmux = try StudioTests.Tmux(command: "'\(player)' config get token --reveal", environment: environment)
        #expect(try await StudioTests.status(tmux) == "0")
        let screen = try await tmux.waitFor("the token on the terminal") { $0.contains(BackendCommandTests.token) }
        #expect(!screen.contains("***"), "\(screen)")
    }
}
