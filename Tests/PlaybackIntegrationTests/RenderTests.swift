import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// `alicia-player render`: the queue `play` would play, into a file, checked against a capture of
/// `play` and read back by ffprobe (a program we did not write).
@Suite("Render")
struct RenderTests {
    static let first = WAVFixture(seconds: 3, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xE1)
    static let second = WAVFixture(seconds: 2, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xE2)
    static let third = WAVFixture(seconds: 2.5, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xE3)

    @Test("at 1x with loudness off, a WAV render of A and a 24 kHz mono B holds exactly the samples play A B gives the sound server")
    func wavRenderIsWhatPlayPlays() async throws {
        let note = WAVFixture(seconds: 0.8, sampleRate: 24_000, channels: 1, format: .pcm16, seed: 0xE4)
        let directory = try TemporaryDirectory(prefix: "render")
        let a = try directory.write(Self.first.bytes, as: "a.wav")
        let b = try directory.write(note.bytes, as: "note.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let played = try await Playback.run(["play", a, b, "--loudness", "off", "--device", capture.sinkName])
        // Silent frames left out on both sides: a loaded machine's sink may insert silence where
        // the player fell behind (noise has none of its own).
        let captured = ScriptCommandTests.withoutSilentFrames(await capture.finishInt16())
        expectSuccess(played)
        let out = directory.path + "/out.wav"
        let rendered = try await Playback.run(["render", a, b, "--loudness", "off", "-o", out])
        expectRendered(rendered)
        #expect(rendered.stdout.hasPrefix("rendered \(out): 0:03, 2 chapters"), "\(rendered.stdout)")
        let samples = ScriptCommandTests.withoutSilentFrames(try Self.wavSamples(out))
        #expect(samples.count == captured.count, "render: \(samples.count / 2) frames, play: \(captured.count / 2)")
        #expect(samples == captured, "the render is not what play played")
    }

    @Test("MP3 and Opus renders of three items at 1.5x: ffprobe lists a chapter per item and the first item's own, where speed put them", arguments: ["mp3", "opus"])
    func chaptersAtTheirTimes(_ kind: String) async throws {
        let directory = try TemporaryDirectory(prefix: "render")
        let withCues = PodcastFixture.withCuePoints(Self.first.bytes, cues: [(0, "Opening"), (72_000, "Middle")])
        let paths = [try directory.write(withCues, as: "one.wav"), try directory.write(Self.second.bytes, as: "two.wav"),
                     try directory.write(Self.third.bytes, as: "three.wav")]
        let out = directory.path + "/evening." + kind
        let result = try await Playback.run(["render"] + paths + ["--speed", "1.5", "--loudness", "off", "-o", out])
        expectRendered(result)
        let probe = try Self.ffprobe(out)
        let chapters = probe.chapters
        let expected: [(String, Double)] = [("one.wav: Opening", 0), ("Middle", 1.0), ("two.wav", 2.0), ("three.wav", 2.0 + 2.0 / 1.5)]
        #expect(chapters.map(\.title) == expected.map(\.0), "\(chapters)")
        for (chapter, (title, start)) in zip(chapters, expected) {
            #expect(abs(chapter.start - start) <= 0.05, "\(title) starts at \(chapter.start) s, not \(start) s")
        }
        let total = (3 + 2 + 2.5) / 1.5
        #expect(abs(probe.duration - total) <= 0.06, "the file lasts \(probe.duration) s, not \(total) s")
        #expect(abs((chapters.last?.end ?? 0) - total) <= 0.06, "the last chapter ends at \(chapters.last?.end ?? 0) s")
        let hidden = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "left beside the file: \(hidden)")
    }

    @Test("an unknown extension or a directory that is not there is one line and exit 2, before anything is fetched")
    func badOutputIsAUsageError() async throws {
        let server = try NginxServer()
        try server.serve(Self.second, as: "b.wav")
        let url = server.url("/media/b.wav")
        let unknown = try await Playback.run(["render", url, "-o", "/tmp/out.aiff"])
        #expect(unknown.status == 2 && unknown.stderr.contains("use .wav, .flac, .opus (or .ogg) or .mp3"), "\(unknown)")
        let nowhere = try await Playback.run(["render", url, "-o", "/nonexistent-dir/out.mp3"])
        #expect(nowhere.status == 2 && nowhere.stderr.contains("no such directory '/nonexistent-dir'"), "\(nowhere)")
        let lossless = try await Playback.run(["render", url, "-o", "/tmp/out.flac", "--bitrate", "64"])
        #expect(lossless.status == 2 && lossless.stderr.contains("--bitrate is for .opus and .mp3"), "\(lossless)")
        let fetched = await server.settledAccessLog().filter { $0.uri.hasPrefix("/media/") }
        #expect(fetched.isEmpty, "fetched: \(fetched)")
    }

    @Test("an item that fails is said and skipped, the rest rendered (exit 1)")
    func aFailingItemIsSkipped() async throws {
        let directory = try TemporaryDirectory(prefix: "render")
        let a = try directory.write(Self.second.bytes, as: "a.wav")
        let broken = try directory.write(Array("not audio at all".utf8), as: "broken.wav")
        let out = directory.path + "/out.flac"
        let result = try await Playback.run(["render", a, broken, a, "--loudness", "off", "-o", out])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("render: broken.wav skipped"), "\(result.stderr)")
        let probe = try Self.ffprobe(out)
        #expect(probe.chapters.count == 2 && abs(probe.duration - 4) <= 0.01, "\(probe)")
    }

    @Test("Ctrl-C during a render leaves nothing under the name and nothing beside it")
    func interruptedLeavesNothing() async throws {
        let long = WAVFixture(seconds: 240, sampleRate: 44_100, channels: 1, format: .pcm16, seed: 0xE5)
        let directory = try TemporaryDirectory(prefix: "render")
        let input = try directory.write(long.bytes, as: "long.wav")
        let out = directory.path + "/out.mp3"
        let child = try PlayerProcess.start(["render", input, "--loudness", "off", "-o", out])
        // The event: the encoder's hidden file beside the name exists.
        var seen = false
        for _ in 0..<20_000 where !seen {
            seen = (try FileManager.default.contentsOfDirectory(atPath: directory.path)).contains { $0.hasPrefix(".out.mp3.render-") }
            if !seen { usleep(1000) }
        }
        #expect(seen, "the render never began writing")
        child.send(SIGINT)
        let result = PlayerResult(await child.wait(timeout: .seconds(60)))
        #expect(result.status == 130, "\(result)")
        #expect(result.stderr.contains("stopped: \(out) was not made"), "\(result.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "long.wav" }
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test("a text read aloud renders as its chunks voice it (waited for, not real time), then an episode; the script and the list give the same queue")
    func synthesisScriptAndList() async throws {
        let voicing = DemoBackend.Voicing(chunkDelays: [.zero, .milliseconds(300), .milliseconds(600)])
        let backend = try DemoBackend(token: "rr-\(UInt32.random(in: 1000...9999))", faults: .init(voicing: voicing))
        defer { backend.stop() }
        let directory = try TemporaryDirectory(prefix: "render")
        let episode = try directory.write(Self.second.bytes, as: "episode.wav")
        let text = "A few words read aloud before the episode, long enough to take three chunks of speech."
        let environment = try BackendCommandTests.isolatedEnvironment(backend)
        let out = directory.path + "/spoken.flac"
        let result = try await Playback.run(["render", "speak:" + text, episode, "--loudness", "off", "-o", out],
                                            environment: environment, timeout: .seconds(60))
        expectRendered(result)
        let probe = try Self.ffprobe(out)
        #expect(probe.chapters.count == 2 && probe.chapters[0].start == 0, "\(probe)")
        let spoken = probe.chapters.count == 2 ? probe.chapters[1].start : 0
        #expect(spoken > 1 && abs(probe.duration - spoken - 2) <= 0.01, "the episode is not the last 2 s after the speech: \(probe)")
        // The same two items from a script's lines and from a list: the same file.
        let script = try directory.write(Array("loadfile \(episode)\nloadfile \(episode) append\nwait end\n".utf8), as: "two.script")
        let list = try directory.write(Array("\(episode)\n\(episode)\n".utf8), as: "two.txt")
        let fromScript = try await Playback.run(["render", "--script", script, "--loudness", "off", "-o", directory.path + "/s.wav"])
        let fromList = try await Playback.run(["render", "--queue", list, "--loudness", "off", "-o", directory.path + "/l.wav"])
        expectRendered(fromScript)
        expectRendered(fromList)
        let samples = try Self.wavSamples(directory.path + "/s.wav")
        #expect(samples == Self.second.samples16 + Self.second.samples16, "the script's queue is not the episode twice")
        #expect(try Self.wavSamples(directory.path + "/l.wav") == samples, "the list's render differs from the script's")
    }

    // MARK: Reading the results

    /// A render that ended well: exit 0, one line on stdout saying what it made, nothing on stderr.
    func expectRendered(_ result: PlayerResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0 && result.signal == nil, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.hasPrefix("rendered ") && result.stdout.filter { $0 == "\n" }.count == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty, "stderr not empty: \(result)", sourceLocation: sourceLocation)
    }

    /// The 16-bit samples of a WAV file's data chunk.
    static func wavSamples(_ path: String) throws -> [Int16] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if bytes[offset..<offset + 4].elementsEqual("data".utf8) {
                return AudioCompare.int16Samples(littleEndian: Array(bytes[(offset + 8)..<min(bytes.count, offset + 8 + size)]))
            }
            offset += 8 + size + (size & 1)
        }
        throw ProbeError("\(path) has no data chunk")
    }

    struct Probe: CustomStringConvertible {
        var duration: Double
        var chapters: [(title: String, start: Double, end: Double)]
        var description: String { "duration \(duration), chapters \(chapters)" }
    }

    struct ProbeError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// What ffprobe reads of `path`: its duration and its chapters.
    static func ffprobe(_ path: String) throws -> Probe {
        let result = try ChildProcess.runBlocking("ffprobe", ["-v", "error", "-show_entries", "format=duration:chapter=start_time,end_time:chapter_tags=title",
                                                             "-of", "json", path], timeout: .seconds(30))
        guard result.status == 0, let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any] else {
            throw ProbeError("ffprobe \(path): \(result.stderrText)")
        }
        let format = json["format"] as? [String: Any]
        let duration = Double(format?["duration"] as? String ?? "") ?? -1
        let chapters = (json["chapters"] as? [[String: Any]] ?? []).map { chapter in
            ((chapter["tags"] as? [String: Any])?["title"] as? String ?? "",
             Double(chapter["start_time"] as? String ?? "") ?? -1, Double(chapter["end_time"] as? String ?? "") ?? -1)
        }
        return Probe(duration: duration, chapters: chapters)
    }
}
