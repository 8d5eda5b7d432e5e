import AliciaTestSupport
import Foundation
import Testing

/// The podcast commands as a listener and a script run them, against a real nginx and a real
/// library database: subscribe, shows, episodes, refresh (exit codes, --quiet), export, unsubscribe;
/// a feed episode played by its title with the feed's chapters and transcript, and resumed.
@Suite("Podcast commands", .serialized)
struct PodcastCommandTests {
    static let episode = WAVFixture(seconds: 3, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xFEED)

    static func feed(_ items: [(guid: String, title: String)]) -> [UInt8] {
        let entries = items.map { item in
            """
            <item><title>\(item.title)</title><guid>\(item.guid)</guid><pubDate>Tue, \(item.guid == "e1" ? "01" : "08") Sep 2026 08:00:00 +0200</pubDate>
            <itunes:duration>0:03</itunes:duration><itunes:season>2</itunes:season><itunes:episode>7</itunes:episode>
            <enclosure url="\(item.guid).wav" type="audio/wav" length="\(episode.bytes.count)"/>
            <podcast:chapters url="\(item.guid).chapters.json" type="application/json+chapters"/>
            <podcast:transcript url="\(item.guid).vtt" type="text/vtt"/>
            <description>&lt;p&gt;Notes with &lt;b&gt;bold&lt;/b&gt; &amp;amp; more&lt;/p&gt;</description>
            <podcast:person role="host">Ada</podcast:person>
            <podcast:funding url="https://example.org/support">Support us</podcast:funding></item>
            """
        }.joined(separator: "\n")
        return Array("""
            <?xml version="1.0"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">
            <channel><title>The Loopback Hour</title><link>https://example.org/</link><description>Tests</description>
            <itunes:image href="https://example.org/cover.jpg"/>
            \(entries)
            </channel></rss>
            """.utf8)
    }

    static let chapters = Array(#"{"version": "1.2.0", "chapters": [{"startTime": 0, "title": "Hello"}, {"startTime": 1.5, "title": "Goodbye"}]}"#.utf8)
    static let transcript = Array("WEBVTT\n\n00:00:00.000 --> 00:00:01.500\n<v Host>Welcome to the hour.\n\n00:00:01.500 --> 00:00:03.000\n<v Host>That was it.\n".utf8)

    /// A library, state and cache of the test's own, shared by every run in it.
    static func environment() throws -> [String: String] {
        var environment = try BackendCommandTests.isolatedEnvironment(nil)
        let state = try PlayerProcess.freshStateDirectory()
        environment["XDG_STATE_HOME"] = state
        environment["XDG_DATA_HOME"] = state + "/data"
        environment["XDG_CACHE_HOME"] = state + "/cache"
        return environment
    }

    static func serve(_ server: NginxServer, items: [(guid: String, title: String)]) throws {
        try server.serve(feed(items), as: "hour.xml")
        for item in items {
            try server.serve(episode, as: item.guid + ".wav")
            try server.serve(chapters, as: item.guid + ".chapters.json")
            try server.serve(transcript, as: item.guid + ".vtt")
        }
    }

    static func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "not a JSON array: \(text)")
    }

    /// A player started with `arguments` and paused as soon as its socket answers (a hang guard of
    /// 60 s, not a timing): what it plays is still at its start however busy the machine is.
    static func startPaused(_ arguments: [String], socket: String, environment: [String: String]) async throws -> ChildProcess {
        let player = try PlayerProcess.start(arguments + ["--ipc", socket], environment: environment)
        let deadline = ContinuousClock.now + .seconds(60)
        while player.isRunning, try await ControlSocketTests.ctl(socket, ["pause"]).status != 0 {
            guard ContinuousClock.now < deadline else { throw HarnessError("the player never listened on \(socket)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        return player
    }

    @Test("subscribe, shows --json, episodes --json, refresh (a new episode, a failed feed: exit 1, --quiet), export, unsubscribe")
    func commands() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        try Self.serve(server, items: [("e1", "First Light")])
        let environment = try Self.environment()
        let url = server.url("/media/hour.xml")
        let subscribed = try await Playback.run(["subscribe", url], environment: environment)
        #expect(subscribed.status == 0 && subscribed.stdout == "subscribed: The Loopback Hour (1 episode)\n", "\(subscribed)")
        let bad = try await Playback.run(["subscribe", server.url("/media/e1.vtt")], environment: environment)
        #expect(bad.status == 1 && bad.stderr.contains("e1.vtt") && bad.stdout.isEmpty, "\(bad)")

        let shows = try Self.json(try await Playback.run(["shows", "--json"], environment: environment).stdout)
        #expect(shows.count == 1)
        #expect(shows.first?["title"] as? String == "The Loopback Hour" && shows.first?["url"] as? String == url)
        #expect(shows.first?["episodes"] as? Int == 1 && shows.first?["new"] as? Int == 0 && shows.first?["error"] is NSNull)

        let episodes = try Self.json(try await Playback.run(["episodes", "--json"], environment: environment).stdout)
        let first = try #require(episodes.first)
        #expect(first["show"] as? String == "The Loopback Hour" && first["title"] as? String == "First Light" && first["guid"] as? String == "e1")
        #expect(first["url"] as? String == server.url("/media/e1.wav"))
        #expect(first["published"] as? String == "2026-09-01T06:00:00Z" && first["duration"] as? Int == 3)
        #expect(first["chapters_url"] as? String == server.url("/media/e1.chapters.json"))
        #expect(first["transcript_url"] as? String == server.url("/media/e1.vtt"))
        #expect(first["season"] as? Int == 2 && first["episode"] as? Int == 7)
        #expect(first["position"] as? Double == 0 && first["played"] as? Bool == false && first["downloaded"] as? Bool == false)
        #expect(first["new"] as? Bool == false)

        try Self.serve(server, items: [("e2", "Second Wind"), ("e1", "First Light")])
        let refreshed = try await Playback.run(["refresh"], environment: environment)
        #expect(refreshed.status == 0 && refreshed.stdout == "new: The Loopback Hour: Second Wind\nrefreshed 1 of 1 show: 1 new episode\n", "\(refreshed)")
        let new = try Self.json(try await Playback.run(["episodes", "--new", "--json"], environment: environment).stdout)
        #expect(new.map { $0["title"] as? String } == ["Second Wind"])

        try server.remove("hour.xml")
        let failed = try await Playback.run(["refresh", "--quiet"], environment: environment)
        #expect(failed.status == 1 && failed.stdout.isEmpty, "\(failed)")
        #expect(failed.stderr == "alicia-player: The Loopback Hour (\(url)): HTTP 404\n", "\(failed)")
        let erred = try Self.json(try await Playback.run(["shows", "--json"], environment: environment).stdout)
        #expect(erred.first?["error"] as? String == "HTTP 404")

        let export = try await Playback.run(["export"], environment: environment)
        #expect(export.status == 0 && export.stdout.contains("xmlUrl=\"\(url)\"") && export.stdout.contains("<opml version=\"2.0\">"), "\(export)")
        let gone = try await Playback.run(["unsubscribe", "loopback"], environment: environment)
        #expect(gone.status == 0 && gone.stdout == "unsubscribed: The Loopback Hour\n", "\(gone)")
        let none = try await Playback.run(["unsubscribe", "loopback"], environment: environment)
        #expect(none.status == 1 && none.stderr.contains("no subscribed show is 'loopback'"), "\(none)")
    }

    @Test("a feed episode plays by its title, bit for bit, with the feed's chapters and transcript on the socket, fetched once")
    func playsByTitle() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        try Self.serve(server, items: [("e1", "First Light")])
        let environment = try Self.environment()
        let subscribed = try await Playback.run(["subscribe", server.url("/media/hour.xml")], environment: environment)
        #expect(subscribed.status == 0, "\(subscribed)")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let socket = try PlayerProcess.freshStateDirectory() + "/ipc.sock"
        let result = try await Playback.gated { () async throws -> PlayerResult in
            let player = try await Self.startPaused(["play", "Loopback: first light", "--device", capture.sinkName], socket: socket,
                                                    environment: environment)
            let chapters = try await ControlSocketTests.ctl(socket, ["--json", "get", "chapter-list"])
            #expect(chapters.stdout.contains("\"Hello\"") && chapters.stdout.contains("\"Goodbye\""), "\(chapters)")
            let transcript = try await ControlSocketTests.ctl(socket, ["transcript"])
            #expect(transcript.stdout.contains("Welcome to the hour.") && transcript.stdout.contains("That was it."), "\(transcript)")
            let title = try await ControlSocketTests.ctl(socket, ["get", "media-title"])
            #expect(title.stdout.contains("First Light"), "\(title)")
            _ = try await ControlSocketTests.ctl(socket, ["resume"])
            return try await PlayerProcess.result(of: player, timeout: .seconds(60))
        }
        let captured = await capture.finishInt16()
        expectSuccess(result)
        expectBitExact(captured: ScriptCommandTests.withoutSilentFrames(captured), expected: Self.episode.samples16, channels: 2)
        // Heard to the end: played, as the episode list shows it.
        let listed = try Self.json(try await Playback.run(["episodes", "--json"], environment: environment).stdout)
        #expect(listed.first?["played"] as? Bool == true, "\(listed)")
        // The chapters and the transcript were fetched once, and read from the cache after.
        let fetched = await server.settledAccessLog().filter { $0.uri.hasSuffix(".chapters.json") || $0.uri.hasSuffix(".vtt") }
        #expect(fetched.count == 2, "\(fetched)")
    }

    @Test("MPRIS offers a feed episode's itunes:image as mpris:artUrl (its file has no cover of its own)")
    func mprisArtFromTheFeed() async throws {
        try ControlSocketTests.requireTools(["dbus-daemon", "playerctl"])
        let server = try NginxServer()
        defer { server.stop() }
        try Self.serve(server, items: [("e1", "First Light")])
        var environment = try Self.environment()
        #expect(try await Playback.run(["subscribe", server.url("/media/hour.xml")], environment: environment).status == 0)
        let bus = try await ChildProcess.run("dbus-daemon", ["--session", "--print-address=1", "--print-pid=1", "--fork", "--nopidfile"], timeout: .seconds(30))
        let printed = bus.stdoutText.split(separator: "\n").map(String.init)
        try TestEnvironment.require(bus.status == 0 && printed.count >= 2, "dbus-daemon did not start: \(bus.stderrText)")
        defer { if let pid = pid_t(printed[1]) { kill(pid, SIGTERM) } }
        environment["DBUS_SESSION_BUS_ADDRESS"] = printed[0]
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let socket = try PlayerProcess.freshStateDirectory() + "/ipc.sock"
        try await Playback.gated {
            let player = try await Self.startPaused(["play", "Loopback: first light", "--device", capture.sinkName], socket: socket,
                                                    environment: environment)
            var art = ""
            for _ in 0..<100 where art != "https://example.org/cover.jpg" {
                let read = try await ChildProcess.run("playerctl", ["-p", "alicia_player", "metadata", "mpris:artUrl"],
                                                      environment: ["DBUS_SESSION_BUS_ADDRESS": printed[0]], timeout: .seconds(30))
                art = read.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
                if art != "https://example.org/cover.jpg" { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(art == "https://example.org/cover.jpg", "mpris:artUrl is '\(art)'")
            _ = try await ControlSocketTests.ctl(socket, ["quit"])
            _ = try await PlayerProcess.result(of: player, timeout: .seconds(30))
        }
        _ = await capture.finish(quietFor: .milliseconds(200))
    }

    @Test("notes of a feed episode: show and title, date, length, season and episode, the notes as words, who is in it, how to support it")
    func notesOfAFeedEpisode() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        try Self.serve(server, items: [("e1", "First Light")])
        let environment = try Self.environment()
        #expect(try await Playback.run(["subscribe", server.url("/media/hour.xml")], environment: environment).status == 0)
        let notes = try await Playback.run(["notes", "Loopback: first light"], environment: environment)
        #expect(notes.status == 0, "\(notes)")
        for expected in ["The Loopback Hour: First Light\n", "2026-09-01, 0:03, season 2, episode 7", "Notes with bold & more",
                         "With: Ada (host)", "Support us: https://example.org/support"] {
            #expect(notes.stdout.contains(expected), "\(expected) is not in:\n\(notes.stdout)")
        }
        let none = try await Playback.run(["notes", "Loopback: nothing like it"], environment: environment)
        #expect(none.status == 1, "\(none)")
    }

    @Test("a feed episode left part way resumes there, and the episode list says where")
    func resumes() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        try Self.serve(server, items: [("e1", "First Light")])
        let environment = try Self.environment()
        #expect(try await Playback.run(["subscribe", server.url("/media/hour.xml")], environment: environment).status == 0)
        // Left at 1.5 s: paused from the start, moved there, quit.
        let socket = try PlayerProcess.freshStateDirectory() + "/ipc.sock"
        let left = try await Playback.gated { () async throws -> PlayerResult in
            let player = try await Self.startPaused(["play", "first light"], socket: socket, environment: environment)
            _ = try await ControlSocketTests.ctl(socket, ["seek", "1.5", "absolute"])
            let deadline = ContinuousClock.now + .seconds(60)
            var position = ""
            while ContinuousClock.now < deadline {
                position = try await ControlSocketTests.ctl(socket, ["get", "time-pos"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                if let seconds = Double(position), seconds >= 1.5 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(Double(position).map { $0 >= 1.5 && $0 < 1.6 } == true, "time-pos \(position)")
            _ = try await ControlSocketTests.ctl(socket, ["quit"])
            return try await PlayerProcess.result(of: player, timeout: .seconds(60))
        }
        #expect(left.status == 0, "\(left)")
        let listed = try Self.json(try await Playback.run(["episodes", "--json"], environment: environment).stdout)
        let position = try #require(listed.first?["position"] as? Double)
        #expect(position >= 1.5 && position < 1.6 && listed.first?["played"] as? Bool == false, "\(listed)")
        // Played again by its title: from that frame to the end, bit for bit, and then played.
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let again = try await Playback.run(["play", "first light", "--device", capture.sinkName], environment: environment)
        let captured = await capture.finishInt16()
        expectSuccess(again)
        let from = Int((position * 48_000).rounded()) * 2
        expectBitExact(captured: ScriptCommandTests.withoutSilentFrames(captured), expected: Array(Self.episode.samples16[from...]), channels: 2)
        let after = try Self.json(try await Playback.run(["episodes", "--json"], environment: environment).stdout)
        #expect(after.first?["played"] as? Bool == true, "\(after)")
    }

    @Test("refresh --download 1 keeps the newest unplayed episode of each show downloaded; it then plays with the server gone")
    func downloadsNewest() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        try Self.serve(server, items: [("e2", "Second Wind"), ("e1", "First Light")])
        let environment = try Self.environment()
        #expect(try await Playback.run(["subscribe", server.url("/media/hour.xml")], environment: environment).status == 0)
        let refreshed = try await Playback.run(["refresh", "--quiet", "--download", "1"], environment: environment)
        #expect(refreshed.status == 0 && refreshed.stdout.isEmpty, "\(refreshed)")
        let listed = try Self.json(try await Playback.run(["episodes", "--json"], environment: environment).stdout)
        #expect(listed.map { $0["title"] as? String } == ["Second Wind", "First Light"], "\(listed)")
        #expect(listed.map { $0["downloaded"] as? Bool } == [true, false], "\(listed)")
        let again = try await Playback.run(["refresh", "--quiet", "--download", "1"], environment: environment)
        #expect(again.status == 0, "\(again)")
        let downloads = await server.settledAccessLog().filter { $0.uri == "/media/e2.wav" && $0.range == nil }
        #expect(downloads.count == 1, "downloaded again: \(downloads)")
        server.stop()
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let played = try await Playback.run(["play", "Second Wind", "--device", capture.sinkName], environment: environment)
        let captured = await capture.finishInt16()
        expectSuccess(played)
        expectBitExact(captured: ScriptCommandTests.withoutSilentFrames(captured), expected: Self.episode.samples16, channels: 2)
    }

    @Test("retention: keep = 1 leaves a show's newest download; delete_played_after = 0 removes a played one")
    func retention() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        try Self.serve(server, items: [("e2", "Second Wind"), ("e1", "First Light")])
        let environment = try Self.environment()
        #expect(try await Playback.run(["subscribe", server.url("/media/hour.xml")], environment: environment).status == 0)
        #expect(try await Playback.run(["refresh", "--quiet", "--download", "2"], environment: environment).status == 0)
        func downloaded() async throws -> [Bool?] {
            try Self.json(try await Playback.run(["episodes", "--json"], environment: environment).stdout).map { $0["downloaded"] as? Bool }
        }
        #expect(try await downloaded() == [true, true])
        let configDirectory = try #require(environment["XDG_CONFIG_HOME"]) + "/alicia"
        try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true)
        func configure(_ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: configDirectory + "/config"))
            chmod(configDirectory + "/config", 0o600)
        }
        try configure("keep = 1\n")
        let kept = try await Playback.run(["refresh", "--download", "1"], environment: environment)
        #expect(kept.status == 0 && kept.stdout.contains("removed the download of The Loopback Hour: First Light"), "\(kept)")
        #expect(try await downloaded() == [true, false])
        // Second Wind heard to its end: played today; with delete_played_after = 0 its download goes.
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        expectSuccess(try await Playback.run(["play", "Second Wind", "--device", capture.sinkName], environment: environment))
        _ = await capture.finish()
        try configure("delete_played_after = 0\n")
        let swept = try await Playback.run(["refresh", "--download", "1"], environment: environment)
        #expect(swept.status == 0 && swept.stdout.contains("removed the download of The Loopback Hour: Second Wind"), "\(swept)")
        // The newest unplayed one (First Light) is downloaded again by the same refresh.
        #expect(try await downloaded() == [false, true])
    }

    @Test("the Studio shows a subscribed show as a shelf with its new count, and enter plays its episode")
    func studioShelf() async throws {
        try StudioTests.requireTmux()
        let server = try NginxServer()
        defer { server.stop() }
        try Self.serve(server, items: [("e1", "First Light")])
        let state = try PlayerProcess.freshStateDirectory()
        let environment = try StudioTests.environment(["XDG_STATE_HOME": state, "XDG_DATA_HOME": state + "/data",
                                                        "XDG_CACHE_HOME": state + "/cache"])
        #expect(try await Playback.run(["subscribe", server.url("/media/hour.xml")], environment: environment).status == 0)
        try Self.serve(server, items: [("e2", "Second Wind"), ("e1", "First Light")])
        #expect(try await Playback.run(["refresh", "--quiet"], environment: environment).status == 0)
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let local = try TemporaryDirectory(prefix: "studio-shelf")
        let file = try local.write(Self.episode.bytes, as: "local.wav")
        let player = try PlayerProcess.executablePath()
        let tmux = try StudioTests.Tmux(command: "'\(player)' play '\(file)' --device \(capture.sinkName)", environment: environment)
        let screen = try await tmux.waitFor("the show's shelf") { $0.contains("The Loopback Hour · 1 new") && $0.contains("Second Wind") }
        #expect(screen.contains("First Light"), "\(screen)")
        try StudioTests.select(tmux, "Second Wind")
        try tmux.keys("Enter")
        _ = try await tmux.waitFor("the show's episode playing") { screen in
            screen.split(separator: "\n").contains { $0.contains("Second Wind") && ($0.contains("▶") || $0.contains("playing")) }
        }
        try tmux.keys("q")
        #expect(try await StudioTests.status(tmux) == "0")
        let fetched = await server.settledAccessLog().filter { $0.uri == "/media/e2.wav" }
        #expect(!fetched.isEmpty, "the episode was never asked for")
    }
}

