import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Synchronization
import Testing

/// Read-aloud that speaks as it renders: `speak TEXT` against a demo backend whose voice renders in
/// time (`DemoBackend.Voicing`), captured at the chunks' own format (24 kHz mono 16-bit), where
/// the player passes samples through untouched.
@Suite("Read-aloud as it renders")
struct ReadAloudTests {
    /// The samples of a WAV body (after its `data` chunk's header).
    static func dataSamples(_ bytes: [UInt8]) -> [Int16] {
        guard let at = (0..<max(0, bytes.count - 8)).first(where: { bytes[$0..<$0 + 4].elementsEqual("data".utf8) }) else { return [] }
        return AudioCompare.int16Samples(littleEndian: bytes[(at + 8)...])
    }

    /// A chunk's samples, fetched with curl (a client that is not ours).
    static func chunk(_ backend: DemoBackend, _ text: String, _ index: Int) async throws -> [Int16] {
        try await download(backend.baseURL + DemoBackend.spokenChunkPath(of: text, index: index) + "?token=" + backend.token)
    }

    /// The samples of the WAV at `url`, fetched with curl (off the cooperative pool).
    static func download(_ url: String) async throws -> [Int16] {
        dataSamples(try await ChildProcess.run(try ChildProcess.resolve("curl"), ["-sf", url], timeout: .seconds(30)).stdout)
    }

    /// `count` chunks of `text`, one after another.
    static func chunks(_ backend: DemoBackend, _ text: String, _ count: Int) async throws -> [Int16] {
        var samples: [Int16] = []
        for index in 0..<count { samples += try await chunk(backend, text, index) }
        return samples
    }

    static func trimmed(_ samples: [Int16]) -> [Int16] {
        guard let first = samples.firstIndex(where: { $0 != 0 }), let last = samples.lastIndex(where: { $0 != 0 }) else { return [] }
        return Array(samples[first...last])
    }

    /// A text of its own per test (the demo voices each text once, from its first ask).
    static func text(_ what: String) -> String { "Read aloud as it renders, \(what), \(UInt32.random(in: 1000...9999))." }

    /// `play speak:TEXT FILE`: a text made of `words`, then `fixture` as a file, into a capture sink in
    /// the fixture's format. The text, the player's result and the capture trimmed.
    static func play(speaking words: String, then fixture: WAVFixture, on backend: DemoBackend) async throws
        -> (text: String, result: PlayerResult, captured: [Int16]) {
        let directory = try TemporaryDirectory(prefix: "readaloud")
        let path = try directory.write(fixture.bytes, as: "item.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: fixture.sampleRate, channels: fixture.channels)
        let text = Self.text(words)
        let result = try await Playback.run(["play", "speak:" + text, path, "--device", capture.sinkName],
                                            environment: BackendCommandTests.isolatedEnvironment(backend), timeout: .seconds(60))
        return (text, result, Self.trimmed(await capture.finishInt16()))
    }

    /// Where the first audible frame arrived, on the test's clock.
    final class FirstAudio: Sendable {
        let at = Mutex<ContinuousClock.Instant?>(nil)
        init(_ capture: PipeSinkCapture) {
            capture.whenAudible { [self] in at.withLock { $0 = $0 ?? .now } }
        }
    }

    /// `captured` (trimmed) is `first`'s audio then, after silence only, `second`'s, bit-exact:
    /// the frames of silence between them beyond the chunks' own.
    static func silenceBetween(_ captured: [Int16], _ first: [Int16], _ second: [Int16]) -> Int? {
        let head = trimmed(first)
        guard let lead = first.firstIndex(where: { $0 != 0 }) else { return nil }
        let firstPart = Array(first[lead...])
        guard captured.count > firstPart.count, Array(captured.prefix(firstPart.count)) == firstPart, !head.isEmpty else { return nil }
        let rest = captured[firstPart.count...]
        guard let resume = rest.firstIndex(where: { $0 != 0 }) else { return nil }
        let secondLead = second.firstIndex(where: { $0 != 0 }) ?? 0
        guard Array(rest[resume...]) == trimmed(second) else { return nil }
        return (resume - firstPart.count) - secondLead
    }

    @Test("voice behind: first chunk after 1 s, second after 7 s — heard from the first chunk, in order, bit-exact, silent only while waiting")
    func voiceBehind() async throws {
        let voicing = DemoBackend.Voicing(chunkDelays: [.seconds(1), .seconds(7)])
        let backend = try DemoBackend(token: "ra-\(UInt32.random(in: 1000...9999))", faults: .init(voicing: voicing))
        defer { backend.stop() }
        let capture = try await PipeSinkCapture(format: .s16le, rate: 24_000, channels: 1)
        let first = FirstAudio(capture)
        let text = Self.text("behind")
        let result = try await Playback.run(["speak", text, "--device", capture.sinkName],
                                            environment: BackendCommandTests.isolatedEnvironment(backend), timeout: .seconds(60))
        let captured = Self.trimmed(await capture.finishInt16())
        #expect(result.status == 0, "\(result)")
        let start = try #require(backend.voicingStart(of: text))
        let heard = try #require(first.at.withLock { $0 })
        // The first chunk is voiced 1 s after the first ask, the second after 7 s: heard from the
        // first chunk, before the second exists (not after `ready`). How soon (about one polling
        // interval, 150 ms) is the bench's figure, not asserted here: a loaded suite is slower.
        let latency = heard - (start + .seconds(1))
        #expect(heard < start + .seconds(7), "first audio \(latency) after the first chunk was voiced: not before the second")
        let chunks = [try await Self.chunk(backend, text, 0), try await Self.chunk(backend, text, 1)]
        let silence = Self.silenceBetween(captured, chunks[0], chunks[1])
        #expect(silence != nil, "not chunk 1, silence, chunk 2 bit-exact: \(captured.count) samples")
        if let silence {
            // The second chunk comes 7 s after the first ask; the first lasts 2–5 s from about 1 s on.
            let chunk0Seconds = Double(chunks[0].count) / 24_000
            let behind = 7 - 1 - chunk0Seconds
            #expect(silence > 0 && Double(silence) / 24_000 < behind + 2.0, "\(silence) frames of silence; the voice was \(behind) s behind")
        }
        #expect(result.stderr.contains("could not be voiced") == false, "\(result.stderr)")
    }

    @Test("voice ahead: chunks listed while the first plays are joined with 0 frames of silence, bit-exact")
    func voiceAhead() async throws {
        let voicing = DemoBackend.Voicing(chunkDelays: [.zero, .seconds(1), .milliseconds(1500)])
        let backend = try DemoBackend(token: "ra-\(UInt32.random(in: 1000...9999))", faults: .init(voicing: voicing))
        defer { backend.stop() }
        let capture = try await PipeSinkCapture(format: .s16le, rate: 24_000, channels: 1)
        let text = Self.text("ahead")
        // The player's log beside it: a whole-suite run beside two busy loads once heard two chunks
        // of three, and the log is what can tell the voicing's side from the sound server's.
        var environment = try BackendCommandTests.isolatedEnvironment(backend)
        let log = try TemporaryDirectory(prefix: "readaloud").file("player.log")
        environment["ALICIA_LOG"] = "debug"
        environment["ALICIA_LOG_FILE"] = log
        let result = try await Playback.run(["speak", text, "--device", capture.sinkName], environment: environment, timeout: .seconds(60))
        let captured = Self.trimmed(await capture.finishInt16())
        let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(result.status == 0, "\(result)")
        // The first ask found one chunk: the item was a growing one (not all there at once).
        let speaks = backend.requests.filter { $0.path.hasPrefix("/api/speak") }.count
        #expect(speaks >= 2, "\(speaks) asks of /api/speak")
        let expected = Self.trimmed(try await Self.chunks(backend, text, 3))
        #expect(captured.count == expected.count, "\(captured.count) samples played, \(expected.count) in the chunks; the player's log:\n\(logged)")
        #expect(AudioCompare.firstMismatch(expected: expected, actual: captured) == nil,
                "not the chunks back to back: \(AudioCompare.describeDifference(expected: expected, actual: captured, channels: 1))")
    }

    @Test("each item at its own quality: a 48 kHz stereo episode after a 24 kHz mono synthesis is bit-exact stereo 48 kHz")
    func episodeAfterSynthesisAtItsOwnQuality() async throws {
        let backend = try DemoBackend(token: "ra-\(UInt32.random(in: 1000...9999))")
        defer { backend.stop() }
        let episode = WAVFixture(seconds: 2, sampleRate: 48_000, channels: 2, seed: 48)
        let (_, result, captured) = try await Self.play(speaking: "then an episode", then: episode, on: backend)
        #expect(result.status == 0, "\(result)")
        let expected = Self.trimmed(episode.samples16)
        let tail = Array(captured.suffix(expected.count))
        let difference = AudioCompare.describeDifference(expected: expected, actual: tail, channels: 2)
        #expect(tail == expected, "the episode is not bit-exact at the end of the capture: \(difference) \(result.stderr)")
        // Not downmixed: its frames are not all L = R.
        #expect(stride(from: 0, to: tail.count - 1, by: 2).contains { tail[$0] != tail[$0 + 1] })
    }

    @Test("a script's speak TEXT plays the text as it is voiced, its chunks bit-exact back to back")
    func scriptSpeaks() async throws {
        let voicing = DemoBackend.Voicing(chunkDelays: [.zero, .milliseconds(700), .milliseconds(1400)])
        let backend = try DemoBackend(token: "ra-\(UInt32.random(in: 1000...9999))", faults: .init(voicing: voicing))
        defer { backend.stop() }
        let directory = try TemporaryDirectory(prefix: "readaloud")
        let text = Self.text("from a script")
        let script = try directory.write(Array("speak \(text)\nwait end\n".utf8), as: "speak.txt")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 24_000, channels: 1)
        let result = try await Playback.run(["script", script, "--device", capture.sinkName],
                                            environment: BackendCommandTests.isolatedEnvironment(backend), timeout: .seconds(60))
        let captured = Self.trimmed(await capture.finishInt16())
        #expect(result.status == 0, "\(result)")
        let expected = Self.trimmed(try await Self.chunks(backend, text, 3))
        #expect(captured == expected, "not the chunks back to back: \(AudioCompare.describeDifference(expected: expected, actual: captured, channels: 1))")
    }

    @Test("the socket's speak queues a text after what plays; while the voice is behind, ctl status says voicing with no length")
    func socketSpeaks() async throws {
        let voicing = DemoBackend.Voicing(chunkDelays: [.zero, .seconds(12)])
        let backend = try DemoBackend(token: "ra-\(UInt32.random(in: 1000...9999))", faults: .init(voicing: voicing))
        defer { backend.stop() }
        let directory = try TemporaryDirectory(prefix: "readaloud")
        let note = WAVFixture(seconds: 4, sampleRate: 24_000, channels: 1, seed: 99)
        let path = try directory.write(note.bytes, as: "note.wav")
        let socket = directory.file("socket")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 24_000, channels: 1)
        let environment = try BackendCommandTests.isolatedEnvironment(backend)
        let text = Self.text("over the socket")
        try await Playback.gated {
            let player = try PlayerProcess.start(["play", path, "--ipc", socket, "--device", capture.sinkName], environment: environment)
            try await ControlSocketTests.waitForSocket(socket, player: player)
            let asked = try await ControlSocketTests.ctl(socket, ["speak", text])
            #expect(asked.status == 0, "\(asked)")
            // Waits (a hang guard, not a figure) for the voice to fall behind the first chunk.
            var status = ""
            for _ in 0..<300 where !status.hasPrefix("voicing") {
                status = try await ControlSocketTests.ctl(socket, ["status"]).stdout
                if !status.hasPrefix("voicing") { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(status.hasPrefix("voicing ") && status.contains(" - "), "\(status)")
            let ended = try await PlayerProcess.result(of: player, timeout: .seconds(60))
            #expect(ended.status == 0, "\(ended)")
        }
        let captured = Self.trimmed(await capture.finishInt16())
        let chunks = [try await Self.chunk(backend, text, 0), try await Self.chunk(backend, text, 1)]
        #expect(Array(captured.prefix(note.samples16.count)) == note.samples16, "the note is not first, bit-exact")
        let rest = Self.trimmed(Array(captured.dropFirst(note.samples16.count)))
        #expect(Self.silenceBetween(rest, chunks[0], chunks[1]) != nil, "not the first chunk, silence, the second: \(rest.count) samples")
    }

    @Test("a synthesis's position is kept by its item id and resumed")
    func synthesisResumes() async throws {
        let backend = try DemoBackend(token: "ra-\(UInt32.random(in: 1000...9999))")
        defer { backend.stop() }
        var environment = try BackendCommandTests.isolatedEnvironment(backend)
        let state = try PlayerProcess.freshStateDirectory()
        environment["XDG_STATE_HOME"] = state
        // Its debug log, shown if a run hangs (CI once saw one killed after 120 s, saying nothing).
        let log = state + "/player.log"
        environment["ALICIA_LOG"] = "debug"
        environment["ALICIA_LOG_FILE"] = log
        var letter: [Int16] = []
        for index in 0..<3 { letter += try await Self.download(backend.baseURL + "/api/audio/chunk-syn-letter-\(index).wav?token=" + backend.token) }
        letter = Self.trimmed(letter)
        let first = try await PipeSinkCapture(format: .s16le, rate: 24_000, channels: 1)
        let interrupted = Mutex<ContinuousClock.Instant?>(nil)
        var exited = ContinuousClock.now
        var firstRun = ""
        try await Playback.gated {
            let player = try PlayerProcess.start(["play", "playlist:drive", "--device", first.sinkName], environment: environment)
            // Stopped once 2 s of the letter have been heard (on the capture's own thread): within
            // its first chunk, whenever the later ones are voiced.
            first.whenAudible(frames: 48_000) {
                interrupted.withLock { $0 = .now }
                player.send(SIGINT)
            }
            let result = try await PlayerProcess.result(of: player, timeout: .seconds(120), log: log)
            exited = .now
            firstRun = "\(result)"
        }
        let heard = Self.trimmed(await first.finishInt16()).count
        let late = interrupted.withLock { $0 }.map { "\(exited - $0)" } ?? "never"
        let logTail = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").suffix(60).joined(separator: "\n") ?? "no log"
        #expect(heard < letter.count, "the first run was heard past the letter (\(heard) samples); it exited \(late) after its SIGINT: \(firstRun)\nits log:\n\(logTail)")
        let positions = try String(contentsOfFile: state + "/alicia-player/positions.json", encoding: .utf8)
        let kept = try #require(Self.kept(positions, "synthesis:syn-letter"), "\(positions)")
        #expect(abs(kept.position * 24_000 - Double(heard)) <= 24_000 / 2, "kept \(kept.position) s, heard \(heard) samples")
        let second = try await PipeSinkCapture(format: .s16le, rate: 24_000, channels: 1)
        var away = 0.0
        try await Playback.gated {
            // A whole suite's gate may hold this run back past a minute: resuming then steps back
            // 3 s (PositionStore.rewind, AntennaPod's steps), which is what a listener gets too.
            away = Date().timeIntervalSince1970 - kept.updated
            let player = try PlayerProcess.start(["play", "playlist:drive", "--device", second.sinkName], environment: environment)
            second.whenAudible(frames: 12_000) { player.send(SIGINT) }
            _ = try await PlayerProcess.result(of: player, timeout: .seconds(120), log: log)
        }
        let resumed = Self.trimmed(await second.finishInt16())
        let probe = Array(resumed.prefix(64))
        let start = (0..<max(0, letter.count - 64)).first { letter[$0..<$0 + 64].elementsEqual(probe) }
        #expect(start != nil, "the second run's audio is not the letter's")
        guard let start else { return }
        let steps: [Double] = away < 58 ? [0] : away < 62 ? [0, 3] : [3]
        let expected = steps.map { max(0, kept.position - $0) * 24_000 }
        #expect(expected.contains { abs(Double(start) - $0) <= 24_000 / 2 },
                "resumed at sample \(start), kept \(kept.position) s, \(Int(away)) s away; the first run was heard to \(heard)")
    }

    /// The position and update time (seconds since 1970) `positions.json` keeps for `key`.
    static func kept(_ json: String, _ key: String) -> (position: Double, updated: Double)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let entry = (object["positions"] as? [String: Any])?[key] as? [String: Any],
              let position = (entry["position_ms"] as? NSNumber)?.doubleValue,
              let updated = (entry["updated_ms"] as? NSNumber)?.doubleValue else { return nil }
        return (position / 1000, updated / 1000)
    }

    @Test("a voicing that fails after one chunk: that chunk plays, one line says so, the next item plays, exit 1")
    func failsAfterOneChunk() async throws {
        let voicing = DemoBackend.Voicing(chunkDelays: [.zero, .seconds(2)], failAfter: 1)
        let backend = try DemoBackend(token: "ra-\(UInt32.random(in: 1000...9999))", faults: .init(voicing: voicing))
        defer { backend.stop() }
        let after = WAVFixture(seconds: 1.5, sampleRate: 24_000, channels: 1, seed: 24)
        let (text, result, captured) = try await Self.play(speaking: "failing", then: after, on: backend)
        // Scripts can tell: what was voiced played, and the status says the rest was not.
        #expect(result.status == 1, "\(result)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("could not be voiced") }
        #expect(lines.count == 1, "\(result.stderr)")
        let chunk = try await Self.chunk(backend, text, 0)
        let silence = Self.silenceBetween(captured, chunk, after.samples16)
        #expect(silence != nil, "not the one chunk, then the next item, bit-exact: \(captured.count) samples")
    }
}
