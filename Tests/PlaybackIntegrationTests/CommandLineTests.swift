import AliciaTestSupport
import Foundation
import Testing

/// Options and usage errors of the `alicia-player` command.
@Suite("Command line")
struct CommandLineTests {
    @Test("--help prints usage on stdout and exits 0")
    func help() async throws {
        let result = try await Playback.run(["--help"], timeout: .seconds(10))
        #expect(result.signal == nil, "\(result)")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Usage: alicia-player"), "\(result)")
    }

    @Test("--version prints the name and a version and exits 0")
    func version() async throws {
        let result = try await Playback.run(["--version"], timeout: .seconds(10))
        #expect(result.signal == nil, "\(result)")
        #expect(result.status == 0, "\(result)")
        let firstLine = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.hasPrefix("alicia-player "), "\(result)")
        #expect(!firstLine.dropFirst("alicia-player ".count).trimmingCharacters(in: .whitespaces).isEmpty, "no version: \(result)")
    }

    @Test(
        "an unknown option is a usage error (exit 2)",
        arguments: [["--frobnicate"], ["play", "--frobnicate", "/nonexistent/episode.wav"]]
    )
    func unknownOption(_ arguments: [String]) async throws {
        let result = try await Playback.run(arguments, timeout: .seconds(10))
        #expect(result.signal == nil, "\(result)")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("unknown option"), "\(result)")
        #expect(result.stderr.hasPrefix("alicia-player: "), "\(result)")
    }

    /// Guards issue 17: a usage error printed the whole 47-line help; it is one line and where to look.
    @Test("a usage error is one line and a pointer to the command's help, exit 2", arguments: [
        (["play", "--bogus", "a.wav"], "alicia-player: play: unknown option '--bogus'", "Try 'alicia-player play --help'."),
        (["--bogus"], "alicia-player: unknown option '--bogus'", "Try 'alicia-player --help'."),
        (["tracks", "--base-url", "--token", "x"], "alicia-player: tracks: --base-url needs a value", "Try 'alicia-player tracks --help'."),
    ])
    func usageErrorIsOneLine(_ arguments: [String], first: String, second: String) async throws {
        let result = try await Playback.run(arguments, timeout: .seconds(10))
        #expect(result.status == 2, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result)")
        #expect(lines.first?.hasPrefix(first) == true, "\(result)")
        #expect(lines.last == second, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    /// Guards issue 17: `play --help` printed the global help.
    @Test("help COMMAND and COMMAND --help print that command's usage", arguments: [["help", "play"], ["play", "--help"], ["play", "-h"]])
    func commandHelp(_ arguments: [String]) async throws {
        let result = try await Playback.run(arguments, timeout: .seconds(10))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("Usage: alicia-player play <ref>"), "\(result)")
        #expect(result.stdout.contains("--voice-at"), "\(result)")
        #expect(!result.stdout.contains("tracks [--json]"), "the global usage was printed: \(result)")
    }

    @Test("a missing argument is a usage error (exit 2)", arguments: [["play"], ["play", "/tmp/episode.wav", "--start"]])
    func missingArgument(_ arguments: [String]) async throws {
        let result = try await Playback.run(arguments, timeout: .seconds(10))
        #expect(result.signal == nil, "\(result)")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("alicia-player: "), "\(result)")
    }

    @Test("a malformed --start is a usage error naming the option or the value (exit 2)", arguments: ["abc", "-3", "50%%", "1:2:3:4"])
    func malformedStart(_ value: String) async throws {
        let directory = try TemporaryDirectory(prefix: "cli")
        let path = try directory.write(WAVFixture(seconds: 1).bytes, as: "noise.wav")
        let result = try await Playback.run(["play", path, "--start", value], timeout: .seconds(10))
        #expect(result.signal == nil, "\(result)")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("alicia-player: "), "\(result)")
        #expect(result.stderr.contains("--start") || result.stderr.contains(value), "\(result)")
    }

    /// A 3 s file started at 10 s: a usage error (README: exit 2), promptly, and nothing played.
    @Test("--start beyond the end is a clear error", arguments: ["10", "0:05"])
    func startBeyondEnd(_ value: String) async throws {
        let directory = try TemporaryDirectory(prefix: "cli")
        let fixture = WAVFixture(seconds: 3, seed: 3)
        let path = try directory.write(fixture.bytes, as: "noise.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["play", path, "--start", value, "--device", capture.sinkName], timeout: .seconds(15))
        let captured = await capture.finishInt16(quietFor: .milliseconds(300))
        expectErrorLine(result, status: 2)
        #expect(AudioCompare.trimmingSilentFrames(captured, channels: 2).isEmpty, "audio was played")
    }
}
