import AliciaTestSupport
import Foundation
import Testing

/// The control socket, driven by clients that are not ours (socat, Python's `socket`), `ctl`, and
/// MPRIS on a private session bus with playerctl: against players playing into real captures.
@Suite("Control socket and MPRIS")
struct ControlSocketTests {
    static let long = WAVFixture(seconds: 30, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xC1)
    static let short = WAVFixture(seconds: 2, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xC2)
    static let third = WAVFixture(seconds: 1, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xC3)

    static func requireTools(_ tools: [String]) throws {
        for tool in tools {
            try TestEnvironment.require((try? ChildProcess.resolve(tool)) != nil, "\(tool) is needed for the control tests (scripts/test installs it)")
        }
    }

    /// Waits (a hang guard, not a figure) until something accepts connections at `path`.
    static func waitForSocket(_ path: String, player: ChildProcess) async throws {
        // A hang guard, not a figure: a loaded whole-suite run has taken over 20 s.
        for _ in 0..<1200 {
            if let fd = try? connect(path) {
                close(fd)
                return
            }
            guard player.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let running = player.isRunning
        let result = await player.wait(timeout: .seconds(5))
        throw HarnessError("no control socket at \(path) \(running ? "after 1,200 tries" : "before the player ended")"
            + " (status \(result.status) after \(result.duration)); its stderr: \(result.stderrText)")
    }

    /// Waits until the player at `path` has opened its item (a socket is served before it loads,
    /// and while it loads `time-pos` and `media-title` are unavailable, as mpv's are before a file):
    /// for the event, `media-title` observed as a string, never for a time. Hang guard: 60 s.
    static func waitForOpened(_ path: String, player: ChildProcess) async throws {
        try await waitForSocket(path, player: player)
        let fd = try connect(path)
        defer { close(fd) }
        let ask = Array(#"{"command": ["observe_property", 1, "media-title"]}"#.utf8) + [10]
        guard ask.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == ask.count else {
            throw HarnessError("observe media-title at \(path): \(String(cString: strerror(errno)))")
        }
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            while let newline = received.firstIndex(of: 10) {
                let line = String(decoding: received[..<newline], as: UTF8.self)
                received.removeSubrange(...newline)
                if let message = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                   message["event"] as? String == "property-change", message["name"] as? String == "media-title",
                   message["data"] is String { return }
            }
            // Off the cooperative pool: this thread may wait in poll.
            let chunk = await BlockingWork.run { () -> [UInt8]? in
                var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pollFD, 1, 250) > 0 else { return [] }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                return count > 0 ? Array(buffer[..<count]) : nil
            }
            guard let chunk else { throw HarnessError("the player at \(path) closed its socket before its item opened") }
            received += chunk
        }
        throw HarnessError("the player at \(path) had not opened its item after 60 s")
    }

    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw HarnessError("connect \(path): \(String(cString: strerror(errno)))")
        }
        return fd
    }

    static func mode(of path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    /// `alicia-player ctl --ipc SOCKET words…`.
    /// `ctl` on `socket`, waiting for the player's reply as long as the run's hang guard: ctl's own
    /// 5 s (a status bar's) is not what these tests ask about, and a player starved beside two busy
    /// loads took longer (`CtlTimeoutTests` tests that timeout itself).
    static func ctl(_ socket: String, _ words: [String]) async throws -> PlayerResult {
        try await PlayerProcess.run(["ctl", "--ipc", socket, "--timeout", "25"] + words, timeout: .seconds(30))
    }

    // MARK: The protocol, from Python

    /// Every command and property of the issue, malformed input, 64 clients at once, observing,
    /// events, a client gone mid-line, one that never reads (SIGPIPE), a line over 64 KiB, quit
    /// (run after `SocketDriver.client`).
    static let driver = #"""
        path, a, b, c = sys.argv[1:5]

        c1 = Client()
        # Properties: each answers, with mpv's types.
        names = ["pause", "time-pos", "playback-time", "duration", "percent-pos", "speed", "volume", "media-title",
                 "filename", "path", "playlist", "playlist-pos", "playlist-count", "idle-active", "eof-reached",
                 "demuxer-cache-duration", "core-idle", "loop-playlist", "loop-file", "alicia-label", "alicia-state",
                 "alicia-voice"]
        values = {}
        for name in names:
            r = c1.ask("get_property", name)
            assert r["error"] == "success", f"{name}: {r}"
            values[name] = r["data"]
        assert values["pause"] is False, values
        assert isinstance(values["time-pos"], float) and 0 <= values["time-pos"] < 30, values
        assert values["duration"] == 30, values
        assert 0 <= values["percent-pos"] < 100, values
        assert values["speed"] == 1 and values["volume"] == 100, values
        assert values["media-title"] == "a.wav" and values["filename"] == "a.wav" and values["path"].endswith("/a.wav"), values
        assert values["playlist-count"] == 2 and values["playlist-pos"] == 0, values
        playlist = values["playlist"]
        assert [e["title"] for e in playlist] == ["a.wav", "b.wav"], playlist
        assert playlist[0].get("current") is True and "current" not in playlist[1], playlist
        assert all(isinstance(e["id"], int) and e["filename"] for e in playlist), playlist
        assert values["idle-active"] is False and values["eof-reached"] is False, values
        assert values["alicia-state"] in ("loading", "buffering", "playing"), values
        assert values["alicia-voice"] is None and values["alicia-label"] is None, values
        assert values["demuxer-cache-duration"] > 0, values

        # request_id comes back; async is allowed.
        assert c1.ask("get_property", "pause", rid=7)["request_id"] == 7
        r = c1.raw(b'{"command": ["get_property", "speed"], "request_id": 9, "async": true}\n')
        assert r["request_id"] == 9 and r["data"] == 1, r
        assert c1.ok("get_version") >= 131072
        assert c1.ok("client_name").startswith("ipc")

        # Malformed input: an error reply with mpv's string, never a crash.
        for data, error in [(b"garbage\n", "invalid parameter"),
                            (b'{"command": "x"}\n', "invalid parameter"),
                            (b'[1, 2]\n', "invalid parameter"),
                            (b'{"command": ["get_property", "pause"], "request_id": "a"}\n', "invalid parameter"),
                            (b'{"command": ["nope"]}\n', "invalid parameter"),
                            (b'{"command": ["seek", "abc"]}\n', "invalid parameter"),
                            (b'{"command": ["set_property", "pause", "maybe"]}\n', "unsupported format for accessing property"),
                            (b'{"command": ["get_property", "nope"]}\n', "property not found"),
                            (b'{"command": ["set_property", "duration", 5]}\n', "error accessing property"),
                            (b'{"command": ["playlist-remove", 9]}\n', "invalid parameter")]:
            r = c1.raw(data)
            assert r["error"] == error, f"{data}: {r}"

        # Observing: the value at once, then each change, with the id; events to every client.
        c2 = Client()
        c2.ok("observe_property", 1, "pause")
        assert c2.event("property-change", id=1, name="pause")["data"] is False
        c1.ok("cycle", "pause")
        assert c2.event("property-change", id=1, name="pause")["data"] is True
        assert c1.ok("get_property", "alicia-state") == "paused"
        c1.ok("set_property", "pause", False)
        assert c2.event("property-change", id=1, name="pause")["data"] is False
        c2.ok("unobserve_property", 1)

        # 64 clients at once, each with its own request id.
        clients = [Client() for _ in range(64)]
        for i, client in enumerate(clients):
            client.s.sendall((json.dumps({"command": ["get_property", "playlist-count"], "request_id": 1000 + i}) + "\n").encode())
        for i, client in enumerate(clients):
            r = client.reply()
            assert r["request_id"] == 1000 + i and r["data"] == 2, r
        for client in clients:
            client.s.close()

        # A client that goes mid-line changes nothing; one that never reads its replies is dropped
        # without harm (the player ignores SIGPIPE).
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        s.sendall(b'{"command": ["set_property", "pause", tr')
        s.close()
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        s.sendall(b'{"command": ["get_property", "playlist"]}\n' * 2000)
        s.close()
        assert c1.ok("get_property", "pause") is False

        # A line over 64 KiB is refused and its connection closed.
        big = Client()
        big.s.sendall(b'{"command": ["' + b"x" * 70000 + b'"]}\n')
        r = big.line()
        assert r is not None and r["error"] == "invalid parameter", r
        assert big.line() is None, "the connection stayed open after a line over 64 KiB"

        # The playlist: append, move (mpv's meaning), remove, then playlist-next with its events.
        r = c1.ask("loadfile", c, "append")
        assert r["error"] == "success" and r["data"]["playlist_entry_id"] > 0, r
        assert [e["title"] for e in c1.ok("get_property", "playlist")] == ["a.wav", "b.wav", "c.wav"]
        c1.ok("playlist-move", 2, 1)
        assert [e["title"] for e in c1.ok("get_property", "playlist")] == ["a.wav", "c.wav", "b.wav"]
        c1.ok("playlist-remove", 1)
        assert [e["title"] for e in c1.ok("get_property", "playlist")] == ["a.wav", "b.wav"]
        r = c1.ask("loadfile", "/no/such/file.wav", "append")
        assert r["error"] == "loading failed", r
        first, second = [e["id"] for e in c1.ok("get_property", "playlist")]
        c1.ok("set_property", "volume", 100)
        c1.ok("playlist-next")
        c2.event("end-file", reason="stop", playlist_entry_id=first)
        c2.event("start-file", playlist_entry_id=second)
        c2.event("file-loaded")
        assert c1.ok("get_property", "media-title") == "b.wav"
        c1.ok("seek", 0.5, "absolute")
        c2.event("seek")
        c2.event("playback-restart")
        # A voice note over it: voice-start, alicia-voice while it plays, voice-end.
        c1.ok("voice", c)
        assert c2.event("voice-start")["title"].endswith("c.wav")
        c2.event("voice-end", reason="eof")
        assert c1.ok("get_property", "alicia-voice") is None
        c1.ok("set_property", "pause", True)

        # quit: the reply, end-file (quit) and shutdown, then the connection closes.
        c1.ok("quit")
        c2.event("end-file", reason="quit", playlist_entry_id=second)
        c2.event("shutdown")
        while c2.line() is not None:
            pass
        print("ok")
        """#

    @Test("Python's socket: every command and property, malformed lines, 64 clients, events, quit")
    func pythonClient() async throws {
        try TestEnvironment.requirePulseAudio()
        try Self.requireTools(["python3", "socat"])
        let directory = try TemporaryDirectory(prefix: "ipc")
        let a = try directory.write(Self.long.bytes, as: "a.wav")
        let b = try directory.write(Self.short.bytes, as: "b.wav")
        let c = try directory.write(Self.third.bytes, as: "c.wav")
        let socket = try await SocketDriver.run(Self.driver, playing: [a, b], with: [a, b, c], in: directory) { path in
            // socat, the one-liner most scripts use.
            let socat = try await ChildProcess.run("/bin/sh", ["-c", "echo '{\"command\": [\"get_property\", \"playlist-count\"], \"request_id\": 3}' | socat -t 5 - UNIX-CONNECT:\(path)"],
                                                   timeout: .seconds(30))
            // Every client hears the events (as mpv's do): the item starting while socat is
            // connected is a `start-file` line before the reply, so the reply is the one line asked for.
            let replies = socat.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("{\"event\"") }
            #expect(replies == ["{\"request_id\":3,\"error\":\"success\",\"data\":2}"], "\(socat.stdoutText) \(socat.stderrText)")
        }
        #expect(access(socket, F_OK) != 0, "the socket file is left after quit")
    }

    // MARK: A status bar

    @Test("100 requests a second from a status bar: 400 answers while it plays, and what it played is bit-exact")
    func statusBarLoad() async throws {
        try TestEnvironment.requirePulseAudio()
        try Self.requireTools(["python3"])
        // Long enough that the 200 rounds (4 s at their pace) end well before it, however slow the
        // machine: they are counted, not timed, and the player is told to quit after them.
        let fixture = WAVFixture(seconds: 30, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xC4)
        let directory = try TemporaryDirectory(prefix: "ipc")
        let path = try directory.write(fixture.bytes, as: "bar.wav")
        let socket = directory.file("socket")
        let poller = try directory.write(Array(#"""
            import json, socket, sys, time
            path = sys.argv[1]
            for _ in range(400):
                try:
                    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(path); break
                except OSError:
                    time.sleep(0.05)
            s.settimeout(20)
            f = s.makefile("rb")
            replies = 0
            for _ in range(200):
                try:
                    s.sendall(b'{"command": ["get_property", "time-pos"]}\n{"command": ["get_property", "percent-pos"]}\n')
                except OSError:
                    break
                if not f.readline() or not f.readline():
                    break
                replies += 2
                time.sleep(0.02)
            print(replies)
            """#.utf8), as: "poll.py")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let (result, polled) = try await Playback.gated { () async throws -> (PlayerResult, ChildProcess.Result) in
            let player = try PlayerProcess.start(["play", path, "--ipc", socket, "--device", capture.sinkName])
            // From its first answer on: the item has opened, so time-pos is a number throughout.
            try await Self.waitForOpened(socket, player: player)
            let polling = try await ChildProcess.run("python3", [poller, socket], timeout: .seconds(120))
            _ = try await Self.ctl(socket, ["quit"])
            return (try await PlayerProcess.result(of: player, timeout: .seconds(30)), polling)
        }
        let captured = ScriptCommandTests.withoutSilentFrames(await capture.finishInt16())
        #expect(result.status == 0, "\(result)")
        let replies = Int(polled.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(replies == 400, "\(replies) replies of 400 while it played: \(polled.stderrText)")
        // Stopped by quit: what played is the file's start, bit for bit, and more than a moment of it.
        let same = !captured.isEmpty && captured.count < fixture.samples16.count && Array(fixture.samples16.prefix(captured.count)) == captured
        #expect(same, "the capture is not the file's start: \(AudioCompare.describeDifference(expected: Array(fixture.samples16.prefix(captured.count)), actual: captured, channels: 2))")
    }

    // MARK: One socket per player

    @Test("the default socket is private (0700 directory, 0600 socket); a second player refuses it; a stale file is replaced; a file that is not a socket is left alone")
    func socketOwnership() async throws {
        try TestEnvironment.requirePulseAudio()
        let directory = try TemporaryDirectory(prefix: "ipc")
        let path = try directory.write(Self.long.bytes, as: "a.wav")
        let runtime = directory.file("runtime")
        mkdir(runtime, 0o700)
        let socket = runtime + "/alicia-player/socket"
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        try await Playback.gated {
            let first = try PlayerProcess.start(["play", path, "--device", capture.sinkName], environment: ["XDG_RUNTIME_DIR": runtime])
            try await Self.waitForOpened(socket, player: first)
            #expect(Self.mode(of: runtime + "/alicia-player") == 0o700)
            #expect(Self.mode(of: socket) == 0o600)
            // A second one does not take it: one line, a non-zero exit, the first plays on.
            let second = try await PlayerProcess.run(["play", path, "--device", capture.sinkName], environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(second.status == 1, "\(second)")
            #expect(second.stderrLines.count == 1 && second.stderr.contains("another alicia-player is listening on \(socket)"), "\(second)")
            let asked = try await PlayerProcess.run(["ctl", "get", "media-title"], environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(asked.status == 0 && asked.stdout == "a.wav\n", "\(asked)")
            // Killed, it leaves its socket file behind: the next player replaces it.
            first.send(SIGKILL)
            _ = await first.wait(timeout: .seconds(10))
            #expect(Self.mode(of: socket) != nil, "a killed player's socket file should still be there")
            let third = try PlayerProcess.start(["play", path, "--device", capture.sinkName], environment: ["XDG_RUNTIME_DIR": runtime])
            try await Self.waitForSocket(socket, player: third)
            let quit = try await PlayerProcess.run(["ctl", "quit"], environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(quit.status == 0, "\(quit)")
            let ended = try await PlayerProcess.result(of: third, timeout: .seconds(30))
            #expect(ended.status == 0, "\(ended)")
        }
        _ = await capture.finish(quietFor: .milliseconds(200))
        // Something else at the path: said, exit 2, and the file is untouched.
        let notSocket = try directory.write(Array("keep me".utf8), as: "not-a-socket")
        let another = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let refused = try await Playback.run(["play", path, "--ipc", notSocket, "--device", another.sinkName])
        #expect(refused.status == 2 && refused.stderr.contains("\(notSocket) exists and is not a socket"), "\(refused)")
        #expect((try? String(contentsOfFile: notSocket, encoding: .utf8)) == "keep me")
        // --no-ipc: no socket at all.
        let quiet = try await Playback.run(["play", try directory.write(Self.third.bytes, as: "c.wav"), "--no-ipc", "--device", another.sinkName],
                                           environment: ["XDG_RUNTIME_DIR": runtime])
        _ = await another.finish(quietFor: .milliseconds(200))
        #expect(quiet.status == 0 && Self.mode(of: socket) == nil, "\(quiet)")
    }

    // MARK: ctl

    @Test("ctl against a script: get, set, seek, status, watch, wait end-file, an error reply (exit 1), nobody listening (exit 3)")
    func ctlCommands() async throws {
        try TestEnvironment.requirePulseAudio()
        let directory = try TemporaryDirectory(prefix: "ctl")
        _ = try directory.write(Self.long.bytes, as: "a.wav")
        _ = try directory.write(Self.third.bytes, as: "c.wav")
        let script = try directory.write(Array("play a.wav c.wav\nwait end\n".utf8), as: "run.txt")
        let socket = directory.file("socket")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        try await Playback.gated {
            let player = try PlayerProcess.start(["script", script, "--ipc", socket, "--device", capture.sinkName])
            try await Self.waitForOpened(socket, player: player)
            let watcher = try PlayerProcess.start(["ctl", "--ipc", socket, "watch", "pause", "media-title"])
            let waiter = try PlayerProcess.start(["ctl", "--ipc", socket, "wait", "end-file"])

            let position = try await Self.ctl(socket, ["get", "time-pos"])
            #expect(position.status == 0 && Double(position.stdout.trimmingCharacters(in: .newlines)) != nil, "\(position)")
            let paused = try await Self.ctl(socket, ["get", "pause"])
            #expect(paused.status == 0 && paused.stdout == "no\n", "\(paused)")
            let raw = try await PlayerProcess.run(["ctl", "--json", "--ipc", socket, "get", "playlist-count"])
            #expect(raw.stdout == "{\"request_id\":1,\"error\":\"success\",\"data\":2}\n", "\(raw)")
            #expect(try await Self.ctl(socket, ["pause"]).status == 0)
            let status = try await Self.ctl(socket, ["status"])
            #expect(status.stdout.hasPrefix("paused ") && status.stdout.hasSuffix(" 30.00 a.wav\n"), "\(status)")
            #expect(try await Self.ctl(socket, ["seek", "28", "absolute"]).status == 0)
            #expect(try await Self.ctl(socket, ["set", "volume", "100"]).status == 0)
            let volume = try await Self.ctl(socket, ["get", "volume"])
            #expect(volume.stdout == "100\n", "\(volume)")
            let wrong = try await Self.ctl(socket, ["get", "nope"])
            #expect(wrong.status == 1 && wrong.stdout.isEmpty && wrong.stderr.contains("property not found"), "\(wrong)")
            // A command the grammar does not have is a usage error before anything is sent.
            let unknown = try await Self.ctl(socket, ["frobnicate"])
            #expect(unknown.status == 2 && unknown.stderr.contains("unknown command 'frobnicate'"), "\(unknown)")
            let refused = try await Self.ctl(socket, ["playlist-play-index", "99"])
            #expect(refused.status == 1 && refused.stderr.contains("no entry 99"), "\(refused)")
            #expect(try await Self.ctl(socket, ["resume"]).status == 0)

            // a.wav ends 2 s after the seek: the waiter returns with its end.
            let waited = try await PlayerProcess.result(of: waiter, timeout: .seconds(60))
            #expect(waited.status == 0 && waited.stdout.hasPrefix("end-file reason=eof playlist_entry_id="), "\(waited)")
            // The script's `wait end` returns once c.wav has played; the player ends, and so does watch.
            let ended = try await PlayerProcess.result(of: player, timeout: .seconds(60))
            #expect(ended.status == 0, "\(ended)")
            let watched = try await PlayerProcess.result(of: watcher, timeout: .seconds(30))
            let lines = watched.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "pause no" && lines.contains("media-title a.wav") && lines.contains("pause yes")
                    && lines.contains("media-title c.wav") && lines.last == "shutdown", "\(watched)")
        }
        _ = await capture.finish(quietFor: .milliseconds(200))
        let nobody = try await Self.ctl(socket, ["get", "time-pos"])
        #expect(nobody.status == 3 && nobody.stderr.contains("no player is listening on \(socket)"), "\(nobody)")
        let usage = try await PlayerProcess.run(["ctl", "get"])
        #expect(usage.status == 2, "\(usage)")
    }

    // MARK: MPRIS

    @Test("MPRIS on a private session bus: playerctl status, metadata, position, play-pause, next, position 30; Seeked after a seek")
    func mpris() async throws {
        try TestEnvironment.requirePulseAudio()
        try Self.requireTools(["dbus-daemon", "dbus-monitor", "dbus-send", "playerctl"])
        let directory = try TemporaryDirectory(prefix: "mpris")
        let a = try directory.write(Self.long.bytes, as: "a.wav")
        let b = try directory.write(Self.long.bytes, as: "b.wav")
        let socket = directory.file("socket")
        try await SessionBus.with { bus in
            let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
            try await Playback.gated {
                let player = try PlayerProcess.start(["play", a, b, "--ipc", socket, "--device", capture.sinkName], environment: bus.environment)
                try await Self.waitForSocket(socket, player: player)
                try await Self.nowPlaying(bus)
                try await Self.seekedSignal(bus, socket: socket)
                try await Self.transport(bus)
                // Quit through the root interface.
                let quit = try await ChildProcess.run("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.alicia_player",
                                                                    "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Quit"],
                                                      environment: bus.environment, timeout: .seconds(30))
                #expect(quit.status == 0, "\(quit.stderrText)")
                let ended = try await PlayerProcess.result(of: player, timeout: .seconds(30))
                #expect(ended.status == 0, "\(ended)")
            }
            _ = await capture.finish(quietFor: .milliseconds(200))
        }
    }

    /// Status, metadata and position of the first entry, as playerctl reads them.
    private static func nowPlaying(_ bus: SessionBus) async throws {
        // The name is taken just after the socket: wait for playerctl to see it (a hang guard).
        let status = try await bus.playerctl(["status"], until: { $0 == "Playing\n" })
        #expect(status.stdoutText == "Playing\n", "\(status.stdoutText) \(status.stderrText)")
        let metadata = try await bus.playerctl(["metadata", "--format", "{{mpris:trackid}}|{{mpris:length}}|{{xesam:title}}|{{xesam:artist}}|{{xesam:url}}"])
        let fields = metadata.stdoutText.trimmingCharacters(in: .newlines).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        #expect(fields.count == 5 && fields[0].hasPrefix("'/org/mpris/MediaPlayer2/alicia_player/track/") && fields[1] == "30000000"
                && fields[2] == "a.wav" && fields[3].isEmpty && fields[4].hasPrefix("file://") && fields[4].hasSuffix("/a.wav"),
                "\(metadata.stdoutText)")
        let position = try await bus.playerctl(["position"])
        #expect((Double(position.stdoutText.trimmingCharacters(in: .newlines)) ?? -1) >= 0, "\(position.stdoutText)")
    }

    /// A seek through MPRIS moves the player and is told on the bus as Seeked with the new position.
    private static func seekedSignal(_ bus: SessionBus, socket: String) async throws {
        let monitor = try ChildProcess("dbus-monitor", ["--address", bus.address, "type='signal',interface='org.mpris.MediaPlayer2.Player',member='Seeked'"])
        // It is a monitor once the bus took its name back (NameLost): from then on it sees the signal.
        #expect(try await Self.until(monitor, shows: "member=NameLost"), "dbus-monitor never became a monitor: \(monitor.stdoutTextSoFar)")
        #expect(try await bus.playerctl(["position", "20"]).status == 0)
        // Seeked carries the new position: 20 s in microseconds.
        #expect(try await Self.until(monitor, shows: "int64 20000000"), "no Seeked(20000000) on the bus")
        let moved = try await Self.ctl(socket, ["get", "time-pos"])
        #expect((Double(moved.stdout.trimmingCharacters(in: .newlines)) ?? 0) >= 20, "\(moved)")
        monitor.send(SIGTERM)
        _ = await monitor.wait(timeout: .seconds(10))
    }

    /// Whether `process` writes `text` within its hang guard (10 s, looked at every 100 ms).
    private static func until(_ process: ChildProcess, shows text: String) async throws -> Bool {
        for _ in 0..<100 where !process.stdoutTextSoFar.contains(text) {
            try await Task.sleep(for: .milliseconds(100))
        }
        return process.stdoutTextSoFar.contains(text)
    }

    /// Play-pause, next and volume through MPRIS.
    private static func transport(_ bus: SessionBus) async throws {
        #expect(try await bus.playerctl(["play-pause"]).status == 0)
        let status = try await bus.playerctl(["status"], until: { $0 == "Paused\n" })
        #expect(status.stdoutText == "Paused\n", "\(status.stdoutText)")
        #expect(try await bus.playerctl(["play-pause"]).status == 0)
        #expect(try await bus.playerctl(["next"]).status == 0)
        let title = try await bus.playerctl(["metadata", "title"], until: { $0 == "b.wav\n" })
        #expect(title.stdoutText == "b.wav\n", "\(title.stdoutText)")
        let volume = try await bus.playerctl(["volume"])
        #expect(volume.stdoutText.hasPrefix("1.0"), "\(volume.stdoutText)")
    }

}
