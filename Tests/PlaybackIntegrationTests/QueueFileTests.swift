import AliciaTestSupport
import Foundation
import Testing

/// `alicia-player queue FILE` and `play LIST.m3u8`: lists checked whole before anything plays.
@Suite("Queue files")
struct QueueFileCommandTests {
    static let first = WAVFixture(seconds: 0.8, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xA1)
    static let second = WAVFixture(seconds: 0.6, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xA2)

    @Test("an M3U8 of two WAVs (relative paths) plays both, bit-exact and gapless")
    func m3u8() async throws {
        let directory = try TemporaryDirectory(prefix: "list")
        _ = try directory.write(Self.first.bytes, as: "a.wav")
        _ = try directory.write(Self.second.bytes, as: "b.wav")
        let list = try directory.write(Array("#EXTM3U\n#EXTINF:1,First\na.wav\n# between\n\nb.wav\n".utf8), as: "list.m3u8")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["play", list, "--device", capture.sinkName])
        let captured = await capture.finishInt16()
        expectSuccess(result)
        expectBitExact(captured: captured, expected: Self.first.samples16 + Self.second.samples16, channels: 2)
    }

    @Test("a bad line is FILE:LINE: why, exit 2, before anything plays; --keep-going skips it with a warning")
    func badLine() async throws {
        let directory = try TemporaryDirectory(prefix: "list")
        _ = try directory.write(Self.first.bytes, as: "a.wav")
        let list = try directory.write(Array("a.wav\nmissing.wav\n".utf8), as: "list.txt")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let refused = try await Playback.run(["queue", list, "--device", capture.sinkName])
        expectErrorLine(refused, status: 2, containing: ["\(list):2:", "no such file"])
        let skipped = try await Playback.run(["queue", list, "--keep-going", "--device", capture.sinkName])
        let captured = await capture.finishInt16()
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.stderrLines.count == 1 && skipped.stderrLines[0].contains("warning: \(list):2:"), "\(skipped)")
        expectBitExact(captured: captured, expected: Self.first.samples16, channels: 2)
    }

    @Test("- reads the list from standard input; --save writes it as M3U8 without playing")
    func standardInputAndSave() async throws {
        let directory = try TemporaryDirectory(prefix: "list")
        let a = try directory.write(Self.first.bytes, as: "a.wav")
        let saved = directory.file("saved.m3u8")
        let list = try directory.write(Array("\(a)\n".utf8), as: "in.txt")
        let result = try await Playback.run(["queue", list, "--save", saved])
        #expect(result.status == 0, "\(result)")
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(text == "#EXTM3U\n#EXTINF:-1,a.wav\n\(a)\n", "\(text)")
        // And the saved list plays, fed on standard input.
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let child = try await ChildProcess.run("/bin/sh", ["-c", "'\(try PlayerProcess.executablePath())' queue - --device \(capture.sinkName) < '\(saved)'"],
                                                 environment: try PlayerProcess.isolated(["XDG_STATE_HOME": try PlayerProcess.freshStateDirectory(), "ALICIA_LOUDNESS": "off"]),
                                                 timeout: .seconds(60))
        let captured = await capture.finishInt16()
        #expect(child.status == 0, "\(child.stderrText)")
        expectBitExact(captured: captured, expected: Self.first.samples16, channels: 2)
    }

    @Test("a list that is missing, a directory, or not text: one clear line, never a crash", arguments: ["missing", "directory", "binary"])
    func unreadableLists(kind: String) async throws {
        let directory = try TemporaryDirectory(prefix: "list")
        let path: String
        switch kind {
        case "missing": path = directory.file("nope.m3u")
        case "directory": path = directory.path
        default: path = try directory.write([0xFF, 0xFE, 0x00, 0x81, 0x0A], as: "binary.m3u")
        }
        let result = try await Playback.run(["queue", path])
        expectErrorLine(result, status: 2, containing: [path])
    }
}
