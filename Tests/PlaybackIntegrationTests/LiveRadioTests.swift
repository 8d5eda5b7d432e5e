import AliciaTestSupport
import Foundation
import Testing

/// Internet radio as Icecast serves it, from an endless server of our own: an MP3 looped at the
/// rate it plays, after a second's burst, with ICY headers and, when asked, a title block every
/// 4,000 bytes whose title changes every 16,000. Its first connection is cut after 40,000 bytes.
@Suite("Live radio (ICY)")
struct LiveRadioTests {
    /// The server (Tests/Servers/icy_server.py, which the benchmark runs too).
    static let serverScript = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/"))
        + "/Servers/icy_server.py"

    /// Starts the server on a looped MP3; its port and the file its requests are written to.
    static func startServer(in directory: TemporaryDirectory) async throws -> (ChildProcess, port: Int, log: String) {
        try ControlSocketTests.requireTools(["python3", "ffmpeg"])
        let mp3 = try await PodcastFixture.mp3(seconds: 20, sampleRate: 44_100, rate: .constant(64), seed: 31)
        let script = Self.serverScript
        let portFile = directory.file("port"), log = directory.file("requests.log")
        let server = try ChildProcess("python3", [script, mp3, portFile, log])
        guard let port = try await LoopbackPort.written(to: portFile, by: server) else {
            server.send(SIGKILL)
            throw HarnessError("the ICY server did not start")
        }
        return (server, port, log)
    }

    @Test("a live stream plays at once, shows each new title, refuses a seek, comes back after a cut, and keeps no place")
    func liveStream() async throws {
        try TestEnvironment.requirePulseAudio()
        let directory = try TemporaryDirectory(prefix: "live-radio")
        let (server, port, log) = try await Self.startServer(in: directory)
        defer { server.send(SIGKILL) }
        let url = "http://127.0.0.1:\(port)/stream"
        let socket = directory.file("socket"), state = directory.file("state")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        try await Playback.gated {
            let player = try PlayerProcess.start(["play", url, "--ipc", socket, "--device", capture.sinkName],
                                                 environment: ["XDG_STATE_HOME": state])
            try await ControlSocketTests.waitForSocket(socket, player: player)
            let feed = FeedLines(try PlayerProcess.start(["ctl", "--ipc", socket, "follow", "--json", "media-title", "duration"]))
            // The titles as the stream sends them, one after another; the station's name as its show.
            let first = try await feed.wait(timeout: .seconds(30), "a song's title") {
                (FollowTests.json($0)?["media-title"] as? String)?.hasPrefix("Song ") == true
            }
            let firstTitle = FollowTests.json(feed.lines[first].text)?["media-title"] as? String
            let next = try await feed.wait(from: first, timeout: .seconds(30), "the next title") {
                guard let title = FollowTests.json($0)?["media-title"] as? String else { return false }
                return title.hasPrefix("Song ") && title != firstTitle
            }
            let duration = FollowTests.json(feed.lines[next].text)?["duration"]
            #expect(duration == nil || duration is NSNull, "a live stream has no length: \(feed.lines.map(\.text))")
            let artist = try await PlayerProcess.run(["ctl", "--ipc", socket, "get", "metadata"])
            #expect(artist.stdout.contains("Test Radio"), "\(artist)")

            let seek = try await PlayerProcess.run(["ctl", "--ipc", socket, "seek", "30"])
            #expect(seek.status != 0 && seek.stderr.contains("live stream cannot seek"), "\(seek)")

            // The first connection was cut after 40,000 bytes (5 s): the stream is asked for again,
            // whole, and its titles go on.
            let afterCut = try await feed.wait(from: next, timeout: .seconds(40), "a title after the cut") {
                guard let title = FollowTests.json($0)?["media-title"] as? String, title.hasPrefix("Song "),
                      let number = Int(title.dropFirst(5)) else { return false }
                return number >= 4
            }
            #expect(afterCut > next)
            // Asked for again, it is still live: a seek is still refused (one once went through when
            // nothing had been heard yet, under load: the snapshot had no format before the first sound).
            let seekAgain = try await PlayerProcess.run(["ctl", "--ipc", socket, "seek", "30"])
            #expect(seekAgain.status != 0 && seekAgain.stderr.contains("live stream cannot seek"), "\(seekAgain)")
            #expect(try await PlayerProcess.run(["ctl", "--ipc", socket, "quit"]).status == 0)
            let ended = try await PlayerProcess.result(of: player, timeout: .seconds(20))
            #expect(ended.status == 0, "\(ended)")
            _ = await feed.stop()
        }
        let captured = await capture.finishInt16(quietFor: .milliseconds(200))
        #expect(captured.contains { abs(Int($0)) > 500 }, "nothing audible was played")

        let requests = try String(contentsOfFile: log, encoding: .utf8)
        let connections = requests.components(separatedBy: "connection ").dropFirst()
        #expect(connections.count >= 2, "the cut stream was not asked for again: \(requests)")
        #expect(connections.allSatisfy { $0.lowercased().contains("icy-metadata: 1") }, "\(requests)")
        // Asked for again from the live point: not a byte range of what was heard.
        #expect(!connections.dropFirst().contains { $0.lowercased().contains("range:") }, "\(requests)")
        let positions = (try? String(contentsOfFile: state + "/alicia-player/positions.json", encoding: .utf8)) ?? ""
        #expect(!positions.contains("127.0.0.1"), "a place was kept for a live stream: \(positions)")
    }

    @Test("in the Studio: the song and the station as they come, no length, and → says a live stream cannot seek")
    func inTheStudio() async throws {
        try TestEnvironment.requirePulseAudio()
        try StudioTests.requireTmux()
        let directory = try TemporaryDirectory(prefix: "live-studio")
        let (server, port, _) = try await Self.startServer(in: directory)
        defer { server.send(SIGKILL) }
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let player = try PlayerProcess.executablePath()
        let tmux = try StudioTests.Tmux(command: "'\(player)' play http://127.0.0.1:\(port)/stream --device \(capture.sinkName)",
                                        environment: try StudioTests.environment())
        let playing = try await tmux.waitFor("a song and its station playing") { $0.contains("Song ") && $0.contains("· Test Radio") && $0.contains("playing") }
        #expect(playing.firstMatch(of: /\d:\d\d \/ \d/) == nil, "a live stream shows no length: \(playing)")
        // Why → did nothing shows on the status line for a few seconds: it is looked for in
        // everything the Studio draws from here on, which a starved test cannot miss as it could
        // a look at the screen.
        let drawn = directory.file("drawn.raw")
        try tmux.run(["pipe-pane", "-t", "studio", "-o", "cat >> '\(drawn)'"])
        try tmux.keys("Right")
        _ = try await tmux.waitFor("why → did nothing") { _ in
            ((try? String(contentsOfFile: drawn, encoding: .utf8)) ?? "").contains("cannot seek")
        }
        try tmux.keys("q")
        #expect(try await StudioTests.status(tmux) == "0")
        _ = await capture.finish(quietFor: .milliseconds(200))
    }

    @Test("a station list on the web (.pls) names its streams; one that names a local file, or an HLS playlist, is refused in one line")
    func stationLists() async throws {
        let directory = try TemporaryDirectory(prefix: "station-list")
        let (server, port, _) = try await Self.startServer(in: directory)
        defer { server.send(SIGKILL) }
        let saved = directory.file("saved.m3u8")
        let listed = try await PlayerProcess.run(["queue", "http://127.0.0.1:\(port)/station.pls", "--save", saved])
        #expect(listed.status == 0, "\(listed)")
        let queue = (try? String(contentsOfFile: saved, encoding: .utf8)) ?? ""
        #expect(queue.contains("#EXTINF:-1,Test Radio (64k)\nhttp://127.0.0.1:\(port)/stream"), "\(queue)")

        let local = try await PlayerProcess.run(["queue", "http://127.0.0.1:\(port)/local.m3u", "--save", saved])
        #expect(local.status == 1 && local.stderr.contains("line 2: not an http(s) URL"), "\(local)")
        #expect(!local.stderr.contains("root:"), "\(local)")
        let hls = try await PlayerProcess.run(["queue", "http://127.0.0.1:\(port)/hls.m3u8", "--save", saved])
        #expect(hls.status == 1 && hls.stderr.contains("HLS"), "\(hls)")
    }
}
