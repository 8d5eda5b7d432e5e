import AliciaTestSupport
import Foundation
import Testing

/// Sync with a real gpodder.net-API server that is not ours (gpodder-fastapi-router 0.1.3 under
/// uvicorn, Tests/Servers/gpodder_server.py), read back by a client that is not ours either
/// (mygpoclient, Tests/Servers/gpodder_client.py): the listener's desk and phone as two state
/// directories, each its own library, positions and account file.
@Suite("Sync with a gpodder.net server", .serialized)
struct SyncServerTests {
    static let password = "sync-pw-4b1e"
    /// Thirteen minutes and a bit of 8 kHz mono: long enough to be left at 12:34.
    static let episode = WAVFixture(seconds: 800, sampleRate: 8_000, channels: 1, format: .pcm16, seed: 0x5A11)
    static let servers = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/"))
        + "/Servers"

    static let feed = Array("""
        <?xml version="1.0"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>The Sync Hour</title>
        <item><title>Left Midway</title><guid>sync-e1</guid><pubDate>Tue, 01 Sep 2026 08:00:00 +0200</pubDate>
        <itunes:duration>13:20</itunes:duration><enclosure url="e1.wav" type="audio/wav" length="\(episode.bytes.count)"/></item>
        </channel></rss>
        """.utf8)

    /// A device: a library, positions and account of its own; the player's token is a secret too.
    static func device() throws -> [String: String] {
        var environment = try PodcastCommandTests.environment()
        environment["ALICIA_SYNC_PASSWORD"] = password
        return environment
    }

    /// nginx serving the feed and its episode.
    static func feedServer() throws -> NginxServer {
        let nginx = try NginxServer()
        try nginx.serve(feed, as: "sync.xml")
        try nginx.serve(episode, as: "e1.wav")
        return nginx
    }

    @Test("the desk leaves an episode at 12:34 and quits; the phone syncs and resumes there; an older place is not taken, a newer one from another client moves it; no secret is sent")
    func twoDevices() async throws {
        let nginx = try Self.feedServer()
        defer { nginx.stop() }
        let feedURL = nginx.url("/media/sync.xml"), episodeURL = nginx.url("/media/e1.wav")
        let server = try await GPodderServer(user: "ann", password: Self.password)
        defer { server.stop() }

        // The desk: subscribed, set up, left at 12:34, quit (its last sync sends it).
        var desk = try Self.device()
        desk["ALICIA_TOKEN"] = "backend-token-9d2f"
        let deskLog = try PlayerProcess.freshStateDirectory() + "/player.log"
        desk["ALICIA_LOG"] = "debug"
        desk["ALICIA_LOG_FILE"] = deskLog
        #expect(try await Playback.run(["subscribe", feedURL], environment: desk).status == 0)
        let setup = try await Playback.run(["sync", "setup", server.url, "--user", "ann", "--device", "desk"], environment: desk)
        #expect(setup.status == 0 && setup.stdout.contains("(gpodder.net API), password ***") && setup.stdout.contains("subscriptions sent: 1 added"),
                "\(setup)")
        try await Self.leave(at: 754, environment: desk)
        let uploaded = try await server.client(["actions"])
        let play = try #require(uploaded.first { $0["device"] as? String == "desk" }, "\(uploaded)")
        #expect(play["position"] as? Int == 754 && play["total"] as? Int == 800 && play["guid"] as? String == "sync-e1"
                && play["podcast"] as? String == feedURL && play["episode"] as? String == episodeURL, "\(play)")

        // The phone: its first sync takes the account's subscription and the place, and plays from it.
        let phone = try Self.device()
        let first = try await Playback.run(["sync", "setup", server.url, "--user", "ann", "--device", "phone"], environment: phone)
        #expect(first.status == 0 && first.stdout.contains("subscribed here: \(feedURL)") && first.stdout.contains("1 newer positions taken"),
                "\(first)")
        let resumed = try await Self.positionAtStart(environment: phone)
        #expect(resumed >= 751 && resumed <= 754.5, "the phone resumed at \(resumed)")

        // A device that heard the episode here since: the desk's older place is received and not taken,
        // and its own is sent.
        let laptop = try Self.device()
        #expect(try await Playback.run(["subscribe", feedURL], environment: laptop).status == 0)
        try await Self.leave(at: 42, environment: laptop)
        let third = try await Playback.run(["sync", "setup", server.url, "--user", "ann", "--device", "laptop"], environment: laptop)
        // How many actions it receives is how many passes the desk made while it played (one, or one
        // more when a pass fell between the seek and the quit); none of them is newer.
        let actions = third.stdout.firstMatch(of: /episode actions: (\d+) sent, (\d+) received, (\d+) newer positions taken/)
        #expect(third.status == 0 && actions?.1 == "1" && (Int(actions?.2 ?? "") ?? 0) >= 1 && actions?.3 == "0", "\(third)")
        #expect(try await Self.listedPosition(laptop) == 42)

        // A client that is not ours uploads a newer place (after every save above): the phone's next
        // sync moves there, the newest of the laptop's and its.
        let now = Int(Date().timeIntervalSince1970)
        _ = try await server.client(["upload-play", "tablet", feedURL, episodeURL, "300", "800", String(now + 1), "sync-e1"])
        let moved = try await Playback.run(["sync"], environment: phone)
        #expect(moved.status == 0 && moved.stdout.contains("1 newer positions taken"), "\(moved)")
        #expect(try await Self.listedPosition(phone) == 300)

        // Status says where it stands, never the password; nothing the server keeps holds a secret.
        let status = try await Playback.run(["sync", "status"], environment: phone)
        #expect(status.status == 0 && status.stdout.contains("password: ***") && status.stdout.contains("device: phone")
                && status.stdout.contains("last error: none"), "\(status)")
        try Self.expectNoSecret(in: [setup, first, moved, third, status], log: deskLog, server: server, token: desk["ALICIA_TOKEN"] ?? "")
    }

    /// Neither the password nor the backend `token` is in what the player said (`outputs`), in its
    /// debug `log`, or in anything the server keeps (its database, its log, the upload bodies).
    private static func expectNoSecret(in outputs: [PlayerResult], log: String, server: GPodderServer, token: String) throws {
        for output in outputs {
            #expect(!(output.stdout + output.stderr).contains(password))
        }
        let logged = try Data(contentsOf: URL(fileURLWithPath: log))
        #expect(!logged.isEmpty && logged.range(of: Data(password.utf8)) == nil && logged.range(of: Data(token.utf8)) == nil,
                "the player's log holds a secret")
        for file in ["gpodder.db", "server.log", "episode-uploads.jsonl"] {
            let kept = (try? Data(contentsOf: URL(fileURLWithPath: server.directory.file(file)))) ?? Data()
            #expect(kept.range(of: Data(password.utf8)) == nil && kept.range(of: Data(token.utf8)) == nil, "\(file) holds a secret")
        }
    }

    @Test("with the server stopped a stretch heard waits (status says so, one line says sync failed); the next sync after it is back sends it")
    func serverDown() async throws {
        let nginx = try Self.feedServer()
        defer { nginx.stop() }
        let server = try await GPodderServer(user: "ann", password: Self.password)
        var desk = try Self.device()
        #expect(try await Playback.run(["subscribe", nginx.url("/media/sync.xml")], environment: desk).status == 0)
        // The password from standard input this time, as a script gives it.
        desk["ALICIA_SYNC_PASSWORD"] = nil
        let setup = try await ChildProcess.run("sh", ["-c", "printf '%s\\n' \"$PW\" | \"$PLAYER\" sync setup \"$URL\" --user ann --device desk"],
                                               environment: try PlayerProcess.isolated(desk).merging(
                                                   ["PW": Self.password, "PLAYER": try PlayerProcess.executablePath(), "URL": server.url]) { $1 },
                                               unsetting: ["ALICIA_SYNC_PASSWORD"], timeout: .seconds(60))
        #expect(setup.status == 0 && setup.stdoutText.contains("device desk (gpodder.net API), password ***")
                && !(setup.stdoutText + setup.stderrText).contains(Self.password), "\(setup.stdoutText) \(setup.stderrText)")
        server.stop()

        try await Self.leave(at: 61, environment: desk)
        let status = try await Playback.run(["sync", "status"], environment: desk)
        #expect(status.stdout.contains("waiting to be sent: 1 episode positions") && status.stdout.contains("cannot reach"), "\(status)")
        let failed = try await Playback.run(["sync"], environment: desk)
        #expect(failed.status == 1 && failed.stderr.split(separator: "\n").count == 1 && failed.stderr.contains("cannot reach"), "\(failed)")

        let again = try await GPodderServer(user: "ann", password: Self.password, directory: server.directory, port: server.port)
        defer { again.stop() }
        let sent = try await Playback.run(["sync"], environment: desk)
        #expect(sent.status == 0 && sent.stdout.contains("episode actions: 1 sent"), "\(sent)")
        let actions = try await again.client(["actions"])
        #expect(actions.contains { $0["position"] as? Int == 61 && $0["device"] as? String == "desk" }, "\(actions)")

        // A download and its removal go as `download` and `delete`.
        let downloaded = try await Playback.run(["refresh", "--quiet", "--download", "1"], environment: desk)
        #expect(downloaded.status == 0, "\(downloaded)")
        #expect(try await Playback.run(["sync"], environment: desk).status == 0)
        let cleared = try await Playback.run(["cache", "clear"], environment: desk)
        #expect(cleared.status == 0, "\(cleared)")
        #expect(try await Playback.run(["sync"], environment: desk).status == 0)
        let kinds = try await again.client(["actions"]).filter { $0["device"] as? String == "desk" }.compactMap { $0["action"] as? String }
        #expect(kinds.suffix(2) == ["download", "delete"], "\(kinds)")
    }

    /// Plays the episode paused from its start, moves to `seconds`, and quits.
    static func leave(at seconds: Double, environment: [String: String]) async throws {
        let socket = try PlayerProcess.freshStateDirectory() + "/ipc.sock"
        let result = try await Playback.gated { () async throws -> PlayerResult in
            let player = try await PodcastCommandTests.startPaused(["play", "left midway"], socket: socket, environment: environment)
            _ = try await ControlSocketTests.ctl(socket, ["seek", String(seconds), "absolute"])
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let position = try await ControlSocketTests.ctl(socket, ["get", "time-pos"]).stdout
                if let at = Double(position.trimmingCharacters(in: .whitespacesAndNewlines)), at >= seconds { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            _ = try await ControlSocketTests.ctl(socket, ["quit"])
            return try await PlayerProcess.result(of: player, timeout: .seconds(60))
        }
        #expect(result.status == 0, "\(result)")
    }

    /// Where the episode starts when played now (paused at once, read, quit without a sync).
    static func positionAtStart(environment: [String: String]) async throws -> Double {
        let socket = try PlayerProcess.freshStateDirectory() + "/ipc.sock"
        return try await Playback.gated { () async throws -> Double in
            let player = try await PodcastCommandTests.startPaused(["play", "left midway", "--no-sync"], socket: socket, environment: environment)
            var position = 0.0
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let read = try await ControlSocketTests.ctl(socket, ["get", "time-pos"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                if let at = Double(read), at > 0 {
                    position = at
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            _ = try await ControlSocketTests.ctl(socket, ["quit-watch-later"])
            _ = try await PlayerProcess.result(of: player, timeout: .seconds(60))
            return position
        }
    }

    /// The episode's position as `episodes --json` lists it.
    static func listedPosition(_ environment: [String: String]) async throws -> Double? {
        let listed = try PodcastCommandTests.json(try await Playback.run(["episodes", "--json"], environment: environment).stdout)
        return listed.first?["position"] as? Double
    }
}

/// gpodder-fastapi-router on a free port (or a given one, to come back on), over a data directory
/// of its own.
final class GPodderServer: Sendable {
    let directory: TemporaryDirectory
    let port: Int
    let user: String
    let password: String
    private let process: ChildProcess
    var url: String { "http://127.0.0.1:\(port)" }

    static var python: String {
        get throws {
            let python = ProcessInfo.processInfo.environment["ALICIA_TEST_GPODDER_PYTHON"] ?? ""
            try TestEnvironment.require(!python.isEmpty && FileManager.default.isExecutableFile(atPath: python),
                                        "ALICIA_TEST_GPODDER_PYTHON names the gpodder server's venv python (scripts/test makes it)")
            return python
        }
    }

    init(user: String, password: String, directory: TemporaryDirectory? = nil, port: Int? = nil) async throws {
        let directory = try directory ?? TemporaryDirectory(prefix: "gpodder")
        let portFile = directory.file("port")
        try? FileManager.default.removeItem(atPath: portFile)
        var arguments = [SyncServerTests.servers + "/gpodder_server.py", directory.path, portFile, user, password]
        if let port { arguments.append(String(port)) }
        process = try ChildProcess(try Self.python, arguments)
        guard let found = try await LoopbackPort.written(to: portFile, by: process) else {
            process.send(SIGKILL)
            let log = (try? String(contentsOfFile: directory.file("server.log"), encoding: .utf8)) ?? ""
            throw HarnessError("the gpodder server did not start: \(log.suffix(2000))")
        }
        (self.directory, self.port, self.user, self.password) = (directory, found, user, password)
    }

    func stop() {
        process.send(SIGTERM)
        _ = process.waitBlocking(timeout: .seconds(10))
    }

    /// Runs the mygpoclient-based client with `arguments`; its JSON list (or object, as a list of one).
    func client(_ arguments: [String]) async throws -> [[String: Any]] {
        let run = try await ChildProcess.run(try Self.python, [SyncServerTests.servers + "/gpodder_client.py", url, user, password] + arguments,
                                             timeout: .seconds(60))
        try TestEnvironment.require(run.status == 0, "gpodder_client.py \(arguments.first ?? "") failed: \(run.stderrText)")
        let value = try JSONSerialization.jsonObject(with: Data(run.stdout))
        return (value as? [[String: Any]]) ?? [(value as? [String: Any]) ?? [:]]
    }
}
