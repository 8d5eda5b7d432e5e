import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// `tracks`, `notes`, `play <ref>`, `voice`, `chat` and `demo` against the demo
/// backend over real loopback HTTP, run as a user runs them.
@Suite("Backend commands")
struct BackendCommandTests {
    static let token = "s3cret-TOKEN-\(UInt32.random(in: 1000...9999))"

    /// A config directory with no config file, so nothing of the machine's leaks in. (HOME stays:
    /// libpulse finds a running daemon through it when PULSE_SERVER is not set.)
    static func isolatedEnvironment(_ backend: DemoBackend?, token: String? = nil) throws -> [String: String] {
        let home = try TemporaryDirectory(prefix: "home")
        var environment = ["XDG_CONFIG_HOME": home.file("config")]
        // libpulse finds a daemon through XDG_CONFIG_HOME when neither PULSE_SERVER nor
        // XDG_RUNTIME_DIR says where: name the running one explicitly.
        if let server = pulseServer { environment["PULSE_SERVER"] = server }
        if let backend {
            environment["ALICIA_BASE_URL"] = backend.baseURL
            environment["ALICIA_TOKEN"] = token ?? backend.token
        }
        try PlayerProcess.isolate(&environment)
        return environment
    }

    /// The running PulseAudio's socket, as `pactl info` found it.
    static let pulseServer: String? = {
        if let server = ProcessInfo.processInfo.environment["PULSE_SERVER"], !server.isEmpty { return server }
        guard let info = try? Pactl.run(["info"]),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("Server String: ") }) else { return nil }
        let value = line.dropFirst("Server String: ".count).trimmingCharacters(in: .whitespaces)
        return value.hasPrefix("/") ? "unix:" + value : value
    }()

    static func tracks(_ backend: DemoBackend) async throws -> [[String: Any]] {
        let result = try await Playback.run(["tracks", "--json"], environment: isolatedEnvironment(backend))
        #expect(result.status == 0, "\(result)")
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        return parsed ?? []
    }

    private func expectNoToken(_ result: PlayerResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!result.stdout.contains(Self.token), "token in stdout", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains(Self.token), "token in stderr", sourceLocation: sourceLocation)
    }

    @Test("tracks lists the library by collection, marks entries without audio, and never shows the token")
    func tracks() async throws {
        let backend = try DemoBackend(token: Self.token)
        defer { backend.stop() }
        let result = try await Playback.run(["tracks"], environment: Self.isolatedEnvironment(backend))
        #expect(result.status == 0, "\(result)")
        expectNoToken(result)
        let json = try await Self.tracks(backend)
        #expect(json.count >= 4)
        let collections = Set(json.compactMap { $0["collectionTitle"] as? String })
        #expect(collections.count >= 2)
        for title in collections { #expect(result.stdout.contains(title), "\(title) missing: \(result.stdout)") }
        #expect(result.stdout.contains("no audio yet"))
        #expect(json.contains { ($0["hasAudio"] as? Bool) == false })
        for entry in json where (entry["hasAudio"] as? Bool) == true {
            #expect(result.stdout.contains(entry["title"] as? String ?? "?"))
        }
        // The indexes of `tracks` are the ones `play` takes.
        #expect(result.stdout.contains("  1  "))
    }

    @Test("notes prints show notes as plain text; an unknown episode lists the candidates")
    func notes() async throws {
        let backend = try DemoBackend(token: Self.token)
        defer { backend.stop() }
        let json = try await Self.tracks(backend)
        let label = try #require(json.first { $0["label"] != nil }?["label"] as? String)
        let result = try await Playback.run(["notes", label.lowercased()], environment: Self.isolatedEnvironment(backend))
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.isEmpty)
        #expect(!result.stdout.contains("**") && !result.stdout.hasPrefix("#"), "markdown left in: \(result.stdout)")
        let unknown = try await Playback.run(["notes", "zebra-unicorn"], environment: Self.isolatedEnvironment(backend))
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no episode matches 'zebra-unicorn'"))
        #expect(unknown.stderr.contains(label), "candidates not listed: \(unknown.stderr)")
        expectNoToken(unknown)
    }

    @Test("play takes a label, an index or a piece of a title, and plays the episode")
    func playByReference() async throws {
        let backend = try DemoBackend(token: Self.token)
        defer { backend.stop() }
        let json = try await Self.tracks(backend)
        let playable = json.filter { ($0["hasAudio"] as? Bool) == true }
        let entry = try #require(playable.min { ($0["duration"] as? Double ?? 0) < ($1["duration"] as? Double ?? 0) })
        let label = try #require(entry["label"] as? String)
        let index = try #require(entry["index"] as? Int)
        let duration = try #require(entry["duration"] as? Double)
        // Play the last 1.5 s only: the point is finding and streaming the episode.
        let start = String(format: "%.3f", duration - 1.5)
        for reference in [label.lowercased(), String(index)] {
            let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
            let result = try await Playback.run(["play", reference, "--device", capture.sinkName, "--start", start],
                                                environment: Self.isolatedEnvironment(backend))
            let captured = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 2)
            #expect(result.status == 0, "\(reference): \(result)")
            expectNoToken(result)
            #expect(captured.count / 2 > 48_000, "\(reference): only \(captured.count / 2) frames reached the sink")
        }
        // Every media request carried the token as a query item, redacted in the server's log.
        #expect(backend.requests.contains { $0.path.contains("/api/audio/") })
    }

    @Test("an ambiguous or unknown reference lists candidates and exits 1")
    func ambiguous() async throws {
        let backend = try DemoBackend(token: Self.token)
        defer { backend.stop() }
        let result = try await Playback.run(["play", "e"], environment: Self.isolatedEnvironment(backend))
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("matches") || result.stderr.contains("no episode"), "\(result)")
        #expect(result.stderrLines.count > 1, "no candidates listed: \(result)")
        expectNoToken(result)
    }

    @Test("a wrong token is named as such, with the way to fix it")
    func wrongToken() async throws {
        let backend = try DemoBackend(token: Self.token)
        defer { backend.stop() }
        for command in [["tracks"], ["notes", "1"], ["play", "1"]] {
            let result = try await Playback.run(command, environment: Self.isolatedEnvironment(backend, token: "wrong-\(Self.token)"))
            expectErrorLine(result, status: 1, containing: ["the backend rejected the token (401): check ALICIA_TOKEN or --token"])
            expectNoToken(result)
        }
    }

    @Test("no backend configured: says how to set one, names the config file looked at, and mentions demo")
    func notConfigured() async throws {
        let environment = try Self.isolatedEnvironment(nil)
        let configPath = try #require(environment["XDG_CONFIG_HOME"]) + "/alicia/config"
        let result = try await Playback.run(["tracks"], environment: environment)
        expectErrorLine(result, status: 1, containing: ["ALICIA_BASE_URL", "demo", configPath])
        let play = try await Playback.run(["play", "S1E01"], environment: environment)
        expectErrorLine(play, status: 1, containing: ["S1E01", "demo", configPath])
    }

    /// Guards issue 17: a URL without a token was told "the backend rejected the token (401)".
    @Test("a base URL and no token: the error says no token was given")
    func noToken() async throws {
        let backend = try DemoBackend(token: Self.token)
        defer { backend.stop() }
        var environment = try Self.isolatedEnvironment(nil)
        environment["ALICIA_BASE_URL"] = backend.baseURL
        for command in [["tracks"], ["play", "1"]] {
            let result = try await Playback.run(command, environment: environment)
            expectErrorLine(result, status: 1, containing: ["no token was given"])
        }
    }

    /// A home directory whose alicia config file (`config/alicia/config`) holds `text`, with the
    /// permissions `mode`; the directory and the file's path.
    static func home(withConfig text: String, mode: mode_t) throws -> (TemporaryDirectory, String) {
        let home = try TemporaryDirectory(prefix: "home")
        let configDirectory = home.file("config/alicia")
        try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true)
        let config = configDirectory + "/config"
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, mode)
        return (home, config)
    }

    /// Guards issue 17: `tokn = abc` in the config file was ignored without a word.
    @Test("a misspelt config key gets a warning naming the file and the line")
    func misspeltConfigKey() async throws {
        let backend = try DemoBackend(token: Self.token)
        defer { backend.stop() }
        let (home, config) = try Self.home(withConfig: "base_url = \(backend.baseURL)\ntokn = \(Self.token)\n", mode: 0o600)
        let result = try await Playback.run(["tracks"], environment: ["XDG_CONFIG_HOME": home.file("config")])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("warning: \(config):2: unknown key 'tokn' (did you mean 'token'?)"), "\(result)")
        #expect(result.stderr.contains("no token was given"), "\(result)")
        expectNoToken(result)
    }

    @Test("a refused connection names the host and port")
    func refused() async throws {
        // Regression: a port merely found free was taken by a parallel test's nginx (HTTP 404).
        let refusing = try LoopbackPort.refusing()
        let port = refusing.port
        var environment = try Self.isolatedEnvironment(nil)
        environment["ALICIA_BASE_URL"] = "http://127.0.0.1:\(port)"
        let result = try await Playback.run(["tracks"], environment: environment)
        expectErrorLine(result, status: 1, containing: ["127.0.0.1:\(port)"])
        withExtendedLifetime(refusing) {}
    }

    @Test("a reply that is not the expected JSON names the endpoint")
    func badJSON() async throws {
        let server = try NginxServer()
        for (directory, body) in [("api", "<html>not json</html>"), ("bad/api", #"[{"mood": "no title"}]"#)] {
            let path = server.fixturesDirectory + "/" + directory
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try body.write(toFile: path + "/tracks", atomically: true, encoding: .utf8)
        }
        var environment = try Self.isolatedEnvironment(nil)
        environment["ALICIA_BASE_URL"] = server.url("/media")
        let notJSON = try await Playback.run(["tracks"], environment: environment)
        expectErrorLine(notJSON, status: 1, containing: ["/api/tracks", "not JSON"])
        environment["ALICIA_BASE_URL"] = server.url("/media/bad")
        let missing = try await Playback.run(["tracks"], environment: environment)
        expectErrorLine(missing, status: 1, containing: ["/api/tracks", "title"])
    }

    @Test("flags beat the environment, which beats the config file; a readable config file gets a warning")
    func configuration() async throws {
        let backend = try DemoBackend(token: Self.token)
        defer { backend.stop() }
        let (home, _) = try Self.home(withConfig: "# test\nbase_url = \(backend.baseURL)\ntoken = \(Self.token)\n", mode: 0o644)
        var environment = ["XDG_CONFIG_HOME": home.file("config")]
        if let server = Self.pulseServer { environment["PULSE_SERVER"] = server }
        let fromFile = try await Playback.run(["tracks"], environment: environment)
        #expect(fromFile.status == 0, "\(fromFile)")
        #expect(fromFile.stderr.contains("chmod 600"), "no warning: \(fromFile)")
        expectNoToken(fromFile)
        var wrongEnvironment = environment
        wrongEnvironment["ALICIA_TOKEN"] = "wrong"
        let envWins = try await Playback.run(["tracks"], environment: wrongEnvironment)
        #expect(envWins.status == 1, "the environment should beat the file: \(envWins)")
        let flagWins = try await Playback.run(["tracks", "--token", Self.token], environment: wrongEnvironment)
        #expect(flagWins.status == 0, "the flag should beat the environment: \(flagWins)")
        let tokenFile = home.file("token")
        try "\(Self.token)\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile, 0o600)
        let viaFile = try await Playback.run(["tracks", "--token-file", tokenFile], environment: wrongEnvironment)
        #expect(viaFile.status == 0, "\(viaFile)")
        expectNoToken(viaFile)
    }

    @Test("chat streams the reply, plays its voice note, prints the message id, and reacts")
    func chat() async throws {
        let backend = try DemoBackend(token: Self.token)
        defer { backend.stop() }
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["chat", "hello Alicia", "--voice", "--react", "❤️", "--device", capture.sinkName],
                                            environment: Self.isolatedEnvironment(backend), timeout: .seconds(60))
        let captured = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 2)
        #expect(result.status == 0, "\(result)")
        expectNoToken(result)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count >= 2, "\(result)")
        let id = lines.first { $0.hasPrefix("message ") }?.dropFirst("message ".count)
        #expect(id != nil, "no message id: \(result)")
        // Guards issue 26: `--react` printed nothing; it says one confirming line.
        #expect(lines.last == "reacted ❤️ to message \(id ?? "")", "no confirmation of the reaction: \(result)")
        #expect(captured.count / 2 > 24_000, "the voice note did not reach the sink (\(captured.count / 2) frames)")
        #expect(backend.requests.contains { $0.path.hasPrefix("/api/react") && $0.status == 200 })
        #expect(backend.requests.contains { $0.path.contains("voice-") })
    }

    @Test("voice plays one note given as a media path of the backend")
    func voice() async throws {
        let backend = try DemoBackend(token: Self.token)
        defer { backend.stop() }
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["voice", "/api/audio/voice-1.wav", "--device", capture.sinkName],
                                            environment: Self.isolatedEnvironment(backend))
        let captured = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 2)
        expectSuccess(result)
        #expect(captured.count / 2 > 24_000)
    }

    /// Guards issue 17: the demo backend could be used only from its own Studio.
    @Test("demo --serve prints a line a shell can eval, serves the other commands, and stops on Ctrl-C")
    func demoServe() async throws {
        let token = "demo-\(UInt32.random(in: 1000...9999))"
        let child = try PlayerProcess.start(["demo", "--serve", "--token", token], environment: Self.isolatedEnvironment(nil))
        let line = try #require(await BlockingWork.run { child.firstLine(timeout: .seconds(20)) }, "no export line")
        #expect(line.hasPrefix("export ALICIA_BASE_URL=http://127.0.0.1:"), "\(line)")
        #expect(line.hasSuffix(" ALICIA_TOKEN=\(token)"), "\(line)")
        // What a shell makes of it, and a command run with that environment.
        let shell = try await ChildProcess.run("bash", ["-c", line + #"; printf '%s\n%s' "$ALICIA_BASE_URL" "$ALICIA_TOKEN""#],
                                                 timeout: .seconds(10))
        let values = shell.stdoutText.split(separator: "\n").map(String.init)
        #expect(values.count == 2 && values[1] == token, "\(shell.stdoutText)")
        var environment = try Self.isolatedEnvironment(nil)
        environment["ALICIA_BASE_URL"] = values.first ?? ""
        environment["ALICIA_TOKEN"] = token
        let tracks = try await Playback.run(["tracks"], environment: environment)
        #expect(tracks.status == 0, "\(tracks)")
        #expect(tracks.stdout.contains("Morning Light"), "\(tracks)")
        child.send(SIGINT)
        let result = try await PlayerProcess.result(of: child, timeout: .seconds(10))
        #expect(result.status == 130, "\(result)")
        #expect(result.stdout.split(separator: "\n").count == 1, "\(result)")
    }

    @Test("demo --port serves on that port; a port in use is one clear line")
    func demoPort() async throws {
        let refusing = try LoopbackPort.refusing()
        let busy = try await Playback.run(["demo", "--serve", "--port", String(refusing.port)], environment: Self.isolatedEnvironment(nil))
        expectErrorLine(busy, status: 1, containing: ["cannot start the demo backend", "127.0.0.1:\(refusing.port)"])
        withExtendedLifetime(refusing) {}
    }

    /// Guards issue 17: `alicia-player demo </dev/null | head -1` never exited after head closed the pipe.
    @Test("a closed stdout ends the plain Studio quietly with status 0")
    func closedStdout() async throws {
        try await Playback.gated {
            let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
            let player = try PlayerProcess.executablePath()
            let script = "'\(player)' demo --device \(capture.sinkName) </dev/null 2>/dev/null | head -1; echo \"status ${PIPESTATUS[0]}\""
            let result = try await ChildProcess.run("bash", ["-c", script], environment: Self.isolatedEnvironment(nil), timeout: .seconds(30))
            _ = await capture.finish()
            let lines = result.stdoutText.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(result.stdoutText)")
            #expect(lines.first?.hasPrefix("playing ") == true, "\(result.stdoutText)")
            #expect(lines.last == "status 0", "\(result.stdoutText)")
        }
    }

    /// Guards issue 17: without PulseAudio the plain Studio said the same error for all five episodes.
    @Test("without PulseAudio the plain Studio stops at the first output error, said once")
    func noPulseAudio() async throws {
        var environment = try Self.isolatedEnvironment(nil)
        environment["PULSE_SERVER"] = "unix:/nonexistent/alicia-test/native"
        let result = try await Playback.run(["demo"], environment: environment)
        #expect(result.status == 1, "\(result)")
        let errors = result.stderrLines.filter { $0.contains("no PulseAudio server") }
        #expect(errors.count == 1, "\(result)")
        #expect(result.stderrLines.count == 2, "the demo's address and the error, nothing more: \(result)")
    }

    /// Guards issue 17 (item 9): mixers showed the stream as "Alicia"; it is the episode's title.
    @Test("PulseAudio's media.name of the stream is the episode's title")
    func mediaNameIsTheTitle() async throws {
        try await Playback.gated {
            let backend = try DemoBackend(token: Self.token)
            defer { backend.stop() }
            let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
            let child = try PlayerProcess.start(["play", "S1E01", "--device", capture.sinkName], environment: Self.isolatedEnvironment(backend))
            #expect(await capture.waitForAudio(timeout: .seconds(20)), "nothing played")
            let deadline = ContinuousClock.now + .seconds(10)
            var inputs = ""
            while ContinuousClock.now < deadline {
                inputs = (try? Pactl.run(["list", "sink-inputs"])) ?? ""
                if inputs.contains(#"media.name = "Morning Light""#) { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(inputs.contains(#"media.name = "Morning Light""#), "\(inputs)")
            child.send(SIGINT)
            let result = try await PlayerProcess.result(of: child, timeout: .seconds(10))
            _ = await capture.finish()
            #expect(result.status == 130, "\(result)")
        }
    }

    @Test("demo starts its own backend and plays; Ctrl-C stops it cleanly")
    func demo() async throws {
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let child = try PlayerProcess.start(["demo", "--device", capture.sinkName, "--quiet"], environment: Self.isolatedEnvironment(nil))
        #expect(await capture.waitForAudio(timeout: .seconds(30)), "the demo made no sound")
        child.send(SIGINT)
        let result = try await PlayerProcess.result(of: child, timeout: .seconds(30))
        _ = await capture.finish()
        #expect(result.status == 130, "\(result)")
        #expect(result.signal == nil)
        #expect(result.stderr.contains("demo backend"), "\(result)")
        #expect(result.stderr.contains("token ***"))
    }
}
