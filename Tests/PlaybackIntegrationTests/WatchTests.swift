import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// `alicia-player watch` against the demo backend and python3-dbusmock's notification daemon on a
/// private session bus: what becomes a notification, what is remembered, which signals count.
@Suite("Watch", .serialized)
struct WatchTests {
    /// A private session bus with the mock notification server on it (capabilities as given).
    final class MockBus {
        let address: String
        private let busPID: pid_t
        /// The mock notification daemon, once started.
        private var server: ChildProcess?
        let helper: String
        /// Holds the helper script (removed with it).
        private let directory: TemporaryDirectory

        init(capabilities: String = "actions body sound", server start: Bool = true) async throws {
            try ControlSocketTests.requireTools(["dbus-daemon", "/usr/bin/python3"])
            let bus = try await ChildProcess.run("dbus-daemon", ["--session", "--print-address=1", "--print-pid=1", "--fork", "--nopidfile"],
                                                 timeout: .seconds(30))
            let printed = bus.stdoutText.split(separator: "\n").map(String.init)
            try TestEnvironment.require(bus.status == 0 && printed.count >= 2, "dbus-daemon did not start: \(bus.stderrText)")
            address = printed[0]
            busPID = pid_t(printed[1]) ?? 0
            directory = try TemporaryDirectory(prefix: "mock-notify")
            helper = try directory.write(Array(Self.helperSource.utf8), as: "mock_notify.py")
            if start { try await startServer(capabilities: capabilities) }
        }

        /// Starts the mock notification daemon and waits until it owns its name.
        func startServer(capabilities: String = "actions body sound") async throws {
            server = try ChildProcess("/usr/bin/python3", ["-m", "dbusmock", "--template", "notification_daemon",
                                                           "-p", "{\"capabilities\": \"\(capabilities)\"}"],
                                      environment: ["DBUS_SESSION_BUS_ADDRESS": address])
            let waited = try await run(["wait-name"])
            try TestEnvironment.require(waited.status == 0, "the mock notification daemon did not start: \(waited.stderrText)")
        }

        deinit {
            server?.send(SIGTERM)
            if busPID > 0 { kill(busPID, SIGTERM) }
        }

        func run(_ arguments: [String]) async throws -> ChildProcess.Result {
            try await ChildProcess.run("/usr/bin/python3", [helper] + arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": address],
                                       timeout: .seconds(30))
        }

        struct Call: Decodable {
            var app: String
            var summary: String
            var body: String
            var actions: [String]
            var hints: [String: String]
        }

        /// Every Notify the server was called with, oldest first.
        func notifications() async throws -> [Call] {
            let result = try await run(["calls"])
            try TestEnvironment.require(result.status == 0, "the mock's calls could not be read: \(result.stderrText)")
            return try result.stdoutText.split(separator: "\n").map { try JSONDecoder().decode(Call.self, from: Data($0.utf8)) }
        }

        /// Waits (a hang guard, bounded in count and time) until `count` notifications were sent.
        func notifications(count: Int) async throws -> [Call] {
            var calls = try await notifications()
            for _ in 0..<300 where calls.count < count {
                try await Task.sleep(for: .milliseconds(50))
                calls = try await notifications()
            }
            return calls
        }

        static let helperSource = """
            import json, sys, time
            import dbus, dbus.lowlevel
            bus = dbus.SessionBus()
            name, path = 'org.freedesktop.Notifications', '/org/freedesktop/Notifications'
            command = sys.argv[1]
            if command == 'wait-name':
                for _ in range(400):
                    if bus.name_has_owner(name):
                        sys.exit(0)
                    time.sleep(0.05)
                sys.exit(1)
            mock = dbus.Interface(bus.get_object(name, path), 'org.freedesktop.DBus.Mock')
            if command == 'calls':
                for _, method, args in mock.GetCalls():
                    if method == 'Notify':
                        hints = {str(k): str(int(v)) if isinstance(v, dbus.Byte) else str(v) for k, v in args[6].items()}
                        print(json.dumps({'app': str(args[0]), 'summary': str(args[3]), 'body': str(args[4]),
                                          'actions': [str(a) for a in args[5]], 'hints': hints}))
            elif command == 'emit':
                mock.EmitSignal('', 'ActionInvoked', 'us', [dbus.UInt32(int(sys.argv[2])), sys.argv[3]])
            elif command == 'forge':
                message = dbus.lowlevel.SignalMessage(path, name, 'ActionInvoked')
                message.append(dbus.UInt32(int(sys.argv[2])), sys.argv[3], signature='us')
                bus.send_message(message)
                bus.flush()
            """
    }

    static func backend() throws -> DemoBackend {
        try DemoBackend(token: "watch-\(UInt32.random(in: 100_000...999_999))", dialect: .v2)
    }

    /// The watcher's environment: the backend, the private bus, a library database of its own, logs.
    static func environment(_ backend: DemoBackend, _ bus: MockBus, data: String) throws -> [String: String] {
        var environment = try BackendCommandTests.isolatedEnvironment(backend)
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["XDG_DATA_HOME"] = data
        environment["ALICIA_LOG"] = "info"
        return environment
    }

    @Test("a new message is one notification with her text and Read aloud; a restart does not repeat it; three give three, ten give three")
    func messagesOnce() async throws {
        let backend = try Self.backend()
        defer { backend.stop() }
        let bus = try await MockBus()
        let data = try TemporaryDirectory(prefix: "watch-data").path
        let environment = try Self.environment(backend, bus, data: data)
        let first = try await Playback.run(["watch", "--once"], environment: environment)
        #expect(first.status == 0 && first.stderrLines.filter { $0.hasPrefix("alicia-player:") }.isEmpty, "\(first)")
        #expect(try await bus.notifications().isEmpty, "the backlog is never shown")

        _ = backend.addProactive(text: "The lanterns are lit tonight.")
        let second = try await Playback.run(["watch", "--once"], environment: environment)
        #expect(second.status == 0, "\(second)")
        let calls = try await bus.notifications()
        #expect(calls.count == 1 && calls.first?.summary == "Alicia" && calls.first?.body == "The lanterns are lit tonight.", "\(calls)")
        #expect(calls.first?.actions == ["read-aloud", "Read aloud"] && calls.first?.app == "alicia-player")
        #expect(calls.first?.hints["desktop-entry"] == "alicia-player" && calls.first?.hints["urgency"] == "1"
                && calls.first?.hints["sound-name"] != nil, "\(calls)")

        _ = try await Playback.run(["watch", "--once"], environment: environment)
        #expect(try await bus.notifications().count == 1, "a restart repeats nothing")

        for index in 1...3 { _ = backend.addProactive(text: "three \(index)") }
        _ = try await Playback.run(["watch", "--once"], environment: environment)
        let three = try await bus.notifications()
        #expect(three.dropFirst().map(\.body) == ["three 1", "three 2", "three 3"], "\(three.map(\.body))")

        for index in 1...10 { _ = backend.addProactive(text: "ten \(index)") }
        _ = try await Playback.run(["watch", "--once"], environment: environment)
        _ = try await Playback.run(["watch", "--once"], environment: environment)
        let ten = try await bus.notifications()
        #expect(ten.dropFirst(4).map(\.body) == ["ten 8", "ten 9", "ten 10"], "\(ten.map(\.body))")
        for call in ten { #expect(!call.body.contains(backend.token) && !call.summary.contains(backend.token)) }
    }

    @Test("no Read aloud where the server does not list actions, no sound where it lists no sound")
    func capabilities() async throws {
        let backend = try Self.backend()
        defer { backend.stop() }
        let bus = try await MockBus(capabilities: "body")
        let environment = try Self.environment(backend, bus, data: try TemporaryDirectory(prefix: "watch-data").path)
        _ = try await Playback.run(["watch", "--once"], environment: environment)
        _ = backend.addProactive(text: "Plain words.")
        _ = try await Playback.run(["watch", "--once"], environment: environment)
        let calls = try await bus.notifications()
        #expect(calls.count == 1 && calls.first?.actions == [] && calls.first?.hints["sound-name"] == nil, "\(calls)")
    }

    @Test("ActionInvoked from another sender, or for an id the watcher did not issue, does nothing; the server's own Read aloud voices her text")
    func actionsFromTheServerOnly() async throws {
        try TestEnvironment.requirePulseAudio()
        let backend = try Self.backend()
        defer { backend.stop() }
        let bus = try await MockBus()
        let environment = try Self.environment(backend, bus, data: try TemporaryDirectory(prefix: "watch-data").path)
        _ = try await Playback.run(["watch", "--once"], environment: environment)
        _ = backend.addProactive(text: "Shall I read this to you?")
        let watcher = try PlayerProcess.start(["watch", "--interval", "2"], environment: environment)
        defer { watcher.send(SIGTERM) }
        let calls = try await bus.notifications(count: 1)
        try #require(calls.count == 1, "\(watcher.stderrTextSoFar)")
        #expect(try await bus.run(["forge", "1", "read-aloud"]).status == 0)
        #expect(try await bus.run(["emit", "99", "read-aloud"]).status == 0)
        try await Self.waitFor(watcher) { $0.components(separatedBy: "watch: ignored action").count == 3 }
        #expect(!backend.requests.contains { $0.path.hasPrefix("/api/speak") }, "\(backend.requests)")
        #expect(try await bus.run(["emit", "1", "read-aloud"]).status == 0)
        try await Self.waitFor(watcher) { $0.contains("watch: action read-aloud on notification 1") }
        for _ in 0..<300 where !backend.requests.contains(where: { $0.path.hasPrefix("/api/speak") }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(backend.requests.contains { $0.path.hasPrefix("/api/speak") }, "\(backend.requests)")
        #expect(watcher.isRunning)
        #expect(!watcher.stderrTextSoFar.contains(backend.token))
    }

    @Test("Read aloud with a player running: her voiced text on its voice-note player, the episode held and then on from the held frame")
    func readAloudOnARunningPlayer() async throws {
        try TestEnvironment.requirePulseAudio()
        let backend = try DemoBackend(token: "watch-\(UInt32.random(in: 100_000...999_999))",
                                      faults: .init(voicing: DemoBackend.Voicing(chunkDelays: [.zero, .zero])), dialect: .v2)
        defer { backend.stop() }
        let bus = try await MockBus()
        let environment = try Self.environment(backend, bus, data: try TemporaryDirectory(prefix: "watch-data").path)
        _ = try await Playback.run(["watch", "--once"], environment: environment)
        let text = "Read this to me, \(UInt32.random(in: 1000...9999))."
        _ = backend.addProactive(text: text)
        let watcher = try PlayerProcess.start(["watch", "--interval", "2"], environment: environment)
        defer { watcher.send(SIGTERM) }
        try #require(try await bus.notifications(count: 1).count == 1, "\(watcher.stderrTextSoFar)")
        let directory = try TemporaryDirectory(prefix: "watch-episode")
        let episode = WAVFixture(seconds: 10, sampleRate: 24_000, channels: 1, seed: 40)
        let path = try directory.write(Array(episode.data), as: "episode.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 24_000, channels: 1)
        let audible = ReadAloudTests.FirstAudio(capture)
        let ended = try await Playback.gated {
            let player = try PlayerProcess.start(["play", path, "--device", capture.sinkName], environment: environment)
            // The episode heard first (a hang guard, not a figure): then Read aloud.
            for _ in 0..<400 where audible.at.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(25)) }
            try #require(audible.at.withLock { $0 } != nil, "the episode was never heard")
            #expect(try await bus.run(["emit", "1", "read-aloud"]).status == 0)
            return try await PlayerProcess.result(of: player, timeout: .seconds(60))
        }
        #expect(ended.status == 0, "\(ended)")
        // The chunks' URLs carry the token over the socket; neither program shows it (logs at info).
        #expect(!ended.stderr.contains(backend.token) && !watcher.stderrTextSoFar.contains(backend.token)
                && !watcher.stdoutTextSoFar.contains(backend.token), "the token was shown")
        // Zero samples left out of everything compared: the silence around and between the notes,
        // and the same few of the noise's own everywhere.
        let captured = await capture.finishInt16().filter { $0 != 0 }
        let chunks = [try await ReadAloudTests.chunk(backend, text, 0), try await ReadAloudTests.chunk(backend, text, 1)]
        let samples = episode.samples16.filter { $0 != 0 }
        // The episode from its start to the frame j it was held at, the two chunks whole, then the
        // episode on from j.
        let j = AudioCompare.firstMismatch(expected: samples, actual: captured) ?? captured.count
        #expect(j > 0 && j < samples.count, "the note came at \(j) of \(samples.count); \(watcher.stderrTextSoFar) \(watcher.stdoutTextSoFar) \(ended)")
        let voice = (chunks[0] + chunks[1]).filter { $0 != 0 }
        guard captured.count >= j + voice.count else {
            Issue.record("the voice is missing: \(captured.count) samples, \(j) of the episode first")
            return
        }
        #expect(Array(captured[j..<j + voice.count]) == voice, "not her voiced text right after the held frame")
        let rest = Array(captured[(j + voice.count)...])
        #expect(rest == Array(samples[j..<min(samples.count, j + rest.count)]) && j + rest.count == samples.count,
                "the episode does not go on from the held frame to its end: \(rest.count) samples after the voice")
    }

    @Test("new tracks are one notification a round, however many, with Play; Play starts the newest on the running player")
    func newEpisodesAndPlay() async throws {
        try TestEnvironment.requirePulseAudio()
        try ControlSocketTests.requireTools(["sqlite3"])
        let backend = try Self.backend()
        defer { backend.stop() }
        let bus = try await MockBus()
        let data = try TemporaryDirectory(prefix: "watch-data")
        let environment = try Self.environment(backend, bus, data: data.path)
        _ = try await Playback.run(["watch", "--once"], environment: environment)
        // As if only the first track had been there at the first run: the others are new.
        let database = data.file("alicia-player/library.db")
        let forgot = try await ChildProcess.run("sqlite3", [database, "UPDATE kv SET value = 'S1E01' WHERE key = 'watch.seen.tracks'"],
                                                timeout: .seconds(30))
        try #require(forgot.status == 0, "\(forgot.stderrText)")
        let listed = try await Playback.run(["tracks", "--json"], environment: environment)
        let titles = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]).compactMap { $0["title"] as? String }
        try #require(titles.count >= 3, "\(listed)")
        let directory = try TemporaryDirectory(prefix: "watch-episode")
        let path = try directory.write(Array(WAVFixture(seconds: 30, sampleRate: 24_000, channels: 1, seed: 41).data), as: "episode.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 24_000, channels: 1)
        try await Playback.gated {
            let player = try PlayerProcess.start(["play", path, "--device", capture.sinkName], environment: environment)
            defer { player.send(SIGTERM) }
            let watcher = try PlayerProcess.start(["watch", "--interval", "2"], environment: environment)
            defer { watcher.send(SIGTERM) }
            let calls = try await bus.notifications(count: 1)
            try #require(calls.count == 1, "\(watcher.stderrTextSoFar)")
            let new = titles.count - 1
            #expect(calls[0].summary == "\(new) new episodes" && calls[0].actions == ["play", "Play"], "\(calls)")
            #expect(calls[0].body.split(separator: "\n").map(String.init).prefix(min(new, 5)) == titles.dropFirst().prefix(5), "\(calls[0].body)")
            try await Self.waitFor(watcher) { $0.components(separatedBy: "watch: next round in").count >= 3 }
            #expect(try await bus.notifications().count == 1, "the next round shows them again")
            #expect(try await bus.run(["emit", "1", "play"]).status == 0)
            for _ in 0..<400 where !backend.requests.contains(where: { $0.path.hasPrefix("/api/audio/s1e02.wav") }) {
                try await Task.sleep(for: .milliseconds(25))
            }
            #expect(backend.requests.contains { $0.path.hasPrefix("/api/audio/s1e02.wav") }, "\(watcher.stderrTextSoFar) \(backend.requests)")
        }
        _ = await capture.finishInt16()
    }

    @Test("a feed's new episode: the first refresh counts as seen, one 12 hours later that adds an episode is one notification, then none within 12 hours, unless the feed says it changes sooner")
    func feedEpisodes() async throws {
        try ControlSocketTests.requireTools(["sqlite3"])
        let backend = try Self.backend()
        defer { backend.stop() }
        let bus = try await MockBus()
        let data = try TemporaryDirectory(prefix: "watch-data")
        let environment = try Self.environment(backend, bus, data: data.path)
        let directory = try TemporaryDirectory(prefix: "watch-feed")
        func feed(_ titles: [String]) -> [UInt8] {
            let items = titles.enumerated().map { index, title in
                "<item><title>\(title)</title><guid>g\(index)</guid><pubDate>Tue, 0\(index + 1) Sep 2026 08:00:00 +0000</pubDate>"
                    + "<enclosure url=\"https://example.org/g\(index).mp3\" type=\"audio/mpeg\" length=\"1000\"/></item>"
            }.joined(separator: "\n")
            return Array("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Lantern Radio</title><link>https://example.org/</link>\(items)</channel></rss>".utf8)
        }
        let path = try directory.write(feed(["The First Hour"]), as: "feed.xml")
        let subscribed = try await Playback.run(["subscribe", path], environment: environment)
        try #require(subscribed.status == 0, "\(subscribed)")
        let first = try await Playback.run(["watch", "--once"], environment: environment)
        let none = try await bus.notifications()
        #expect(first.status == 0 && none.isEmpty, "\(first) \(none)")
        _ = try directory.write(feed(["The First Hour", "The Second Hour"]), as: "feed.xml")
        // Twelve hours on, as far as the watcher can tell.
        let aged = try await ChildProcess.run("sqlite3", [data.file("alicia-player/library.db"),
                                                          "UPDATE shows SET last_checked = last_checked - 43200"], timeout: .seconds(30))
        try #require(aged.status == 0, "\(aged.stderrText)")
        let second = try await Playback.run(["watch", "--once"], environment: environment)
        let calls = try await bus.notifications()
        #expect(second.status == 0 && calls.count == 1 && calls.first?.summary == "A new episode" && calls.first?.body == "The Second Hour"
                && calls.first?.actions == ["play", "Play"], "\(second) \(calls)")
        _ = try directory.write(feed(["The First Hour", "The Second Hour", "The Third Hour"]), as: "feed.xml")
        _ = try await Playback.run(["watch", "--once"], environment: environment)
        #expect(try await bus.notifications().count == 1, "a feed refreshed again within 12 hours")
        // A feed that says it changes hourly is asked an hour after it was last checked.
        let hourly = try await ChildProcess.run("sqlite3", [data.file("alicia-player/library.db"),
                                                            "UPDATE shows SET update_frequency = 3600, last_checked = last_checked - 3600"],
                                                timeout: .seconds(30))
        try #require(hourly.status == 0, "\(hourly.stderrText)")
        _ = try await Playback.run(["watch", "--once"], environment: environment)
        #expect(try await bus.notifications().map(\.body) == ["The Second Hour", "The Third Hour"])
    }

    @Test("no notification server: one line on stderr, the watcher keeps going (--once exits 1 with the line); a server that comes is used")
    func noServer() async throws {
        let backend = try Self.backend()
        defer { backend.stop() }
        let bus = try await MockBus(server: false)
        let environment = try Self.environment(backend, bus, data: try TemporaryDirectory(prefix: "watch-data").path)
        let once = try await Playback.run(["watch", "--once"], environment: environment)
        let lines = once.stderrLines.filter { $0.hasPrefix("alicia-player:") }
        #expect(once.status == 1 && lines.count == 1 && lines.first?.contains("notifications:") == true, "\(once)")

        let watcher = try PlayerProcess.start(["watch", "--interval", "2"], environment: environment)
        defer { watcher.send(SIGTERM) }
        try await Self.waitFor(watcher) { $0.contains("notifications:") }
        // Two rounds later (the second after a back-off of 4 s) it still runs and has said it once.
        try await Self.waitFor(watcher) { $0.components(separatedBy: "watch: next round in").count >= 3 }
        #expect(watcher.isRunning)
        #expect(watcher.stderrTextSoFar.components(separatedBy: "notifications:").count == 2, "\(watcher.stderrTextSoFar)")
        // The server comes: one line says so, and her next message is shown (what she had said
        // before the first round that could show anything counts as the backlog).
        try await bus.startServer()
        try await Self.waitFor(watcher) { $0.contains("notifications: working again") }
        // That round lists her messages as the backlog after it says so: one added before the round
        // has ended could be among them (a loaded machine did that). Added once it has.
        try await Self.waitFor(watcher) { text in
            text.components(separatedBy: "notifications: working again").last?.contains("watch: next round in") == true
        }
        _ = backend.addProactive(text: "There you are.")
        let calls = try await bus.notifications(count: 1)
        #expect(calls.map(\.body) == ["There you are."], "\(watcher.stderrTextSoFar)")
    }

    @Test("the backend down or the token wrong: one line, --once exits 1, the token never shown")
    func backendProblems() async throws {
        let backend = try Self.backend()
        let bus = try await MockBus()
        var environment = try Self.environment(backend, bus, data: try TemporaryDirectory(prefix: "watch-data").path)
        environment["ALICIA_TOKEN"] = "wrong-secret-123"
        let refused = try await Playback.run(["watch", "--once"], environment: environment)
        let lines = refused.stderrLines.filter { $0.hasPrefix("alicia-player:") }
        #expect(refused.status == 1 && lines.count == 1 && !refused.stderr.contains("wrong-secret-123"), "\(refused)")
        backend.stop()
        environment["ALICIA_TOKEN"] = backend.token
        let down = try await Playback.run(["watch", "--once"], environment: environment)
        #expect(down.status == 1 && down.stderrLines.filter { $0.hasPrefix("alicia-player:") }.count == 1 && !down.stderr.contains(backend.token), "\(down)")
    }

    /// Waits (a hang guard) until the watcher's stderr satisfies `condition`.
    static func waitFor(_ watcher: ChildProcess, _ condition: (String) -> Bool) async throws {
        for _ in 0..<1200 where !condition(watcher.stderrTextSoFar) {
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(condition(watcher.stderrTextSoFar), "\(watcher.stderrTextSoFar)")
    }
}
