import AliciaTestSupport
import Foundation
import Testing

/// `alicia-player play A B …`: a queue played into one persistent stream, captured by a pipe sink.
/// A join is a write, not a reopen: no silence between items, nothing dropped or repeated.
@Suite("Queue playback")
struct QueuePlaybackTests {
    static let first = WAVFixture(seconds: 1.5, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xF1)
    static let second = WAVFixture(seconds: 1.25, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xF2)

    @Test("two local WAVs of one format play as one, bit-exact, with 0 frames of silence at the join")
    func gaplessLocal() async throws {
        let directory = try TemporaryDirectory(prefix: "queue")
        let a = try directory.write(Self.first.bytes, as: "a.wav")
        let b = try directory.write(Self.second.bytes, as: "b.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["play", a, b, "--device", capture.sinkName])
        let captured = await capture.finishInt16()
        expectSuccess(result)
        expectBitExact(captured: captured, expected: Self.first.samples16 + Self.second.samples16, channels: 2)
    }

    @Test("two WAVs over HTTP play as one, bit-exact and gapless")
    func gaplessHTTP() async throws {
        let server = try NginxServer()
        try server.serve(Self.first, as: "a.wav")
        try server.serve(Self.second, as: "b.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["play", server.url("/media/a.wav"), server.url("/media/b.wav"), "--device", capture.sinkName])
        let captured = await capture.finishInt16()
        expectSuccess(result)
        expectBitExact(captured: captured, expected: Self.first.samples16 + Self.second.samples16, channels: 2)
    }

    /// A 24 kHz mono note after a 48 kHz stereo episode joins the running stream through libsoxr.
    @Test("a 24 kHz mono item after a 48 kHz stereo one joins with no silence and keeps its length (±1 ms)")
    func joinConvertsTheFormat() async throws {
        let note = WAVFixture(seconds: 0.8, sampleRate: 24_000, channels: 1, format: .pcm16, seed: 0xF3)
        let directory = try TemporaryDirectory(prefix: "queue")
        let a = try directory.write(Self.first.bytes, as: "a.wav")
        let b = try directory.write(note.bytes, as: "note.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["play", a, b, "--device", capture.sinkName])
        let captured = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 2)
        expectSuccess(result)
        let head = Self.first.samples16
        #expect(Array(captured.prefix(head.count)) == head, "the first item is not exact")
        // Resampled noise may cross zero on both channels in one frame, never for two in a row.
        #expect(AudioCompare.longestSilentRun(captured, channels: 2) <= 1, "silence inside the capture")
        let noteFrames = captured.count / 2 - Self.first.frameCount
        let seconds = Double(noteFrames) / 48_000
        #expect(abs(seconds - note.duration) <= 0.001, "the converted item lasted \(seconds) s, not \(note.duration) s")
        // Mono to stereo: both channels carry the same samples.
        let tail = captured[head.count...]
        #expect(stride(from: tail.startIndex, to: tail.endIndex - 1, by: 2).allSatisfy { tail[$0] == tail[$0 + 1] })
    }

    @Test("--loop plays the queue again after its last item")
    func loop() async throws {
        let short = WAVFixture(seconds: 0.5, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xF4)
        let directory = try TemporaryDirectory(prefix: "queue")
        let a = try directory.write(short.bytes, as: "a.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        await Playback.gate.enter()
        let child: ChildProcess
        do {
            child = try PlayerProcess.start(["play", a, "--loop", "--device", capture.sinkName])
        } catch {
            await Playback.gate.leave()
            throw error
        }
        let playing = await capture.waitForAudio(timeout: .seconds(30))
        // Three times round and more (a hang guard bounds the wait), then stop it.
        let rounds = 3 * short.frameCount * 2
        let deadline = ContinuousClock.now + .seconds(60)
        while AudioCompare.trimmingSilentFrames(AudioCompare.int16Samples(littleEndian: capture.bytesSoFar), channels: 2).count < rounds + 9_600,
              ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        child.send(SIGTERM)
        let outcome = await child.wait(timeout: .seconds(30))
        await Playback.gate.leave()
        let captured = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 2)
        let result = PlayerResult(outcome)
        #expect(playing, "no audio: \(result)")
        #expect(result.status == 143, "\(result)")
        let three = short.samples16 + short.samples16 + short.samples16
        #expect(Array(captured.prefix(three.count)) == three, "three rounds are not the item three times, gapless")
    }

    @Test("an item that cannot be played is reported and the queue goes on (exit 1)")
    func failingItemDoesNotStopTheQueue() async throws {
        let directory = try TemporaryDirectory(prefix: "queue")
        let a = try directory.write(Array("not audio at all".utf8), as: "bad.wav")
        let b = try directory.write(Self.second.bytes, as: "b.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["play", a, b, "--device", capture.sinkName])
        let captured = await capture.finishInt16()
        expectErrorLine(result, status: 1, containing: ["bad.wav", "cannot decode"])
        expectBitExact(captured: captured, expected: Self.second.samples16, channels: 2)
    }

    /// Guards "a failed item silences the rest of the queue": after a 404 in the middle, the entry
    /// that follows stayed at 0:00 forever (its fetcher never went past the header).
    @Test("a 404 in the middle of a queue is reported once, the next entry plays bit-exact, exit 1",
          arguments: ["play, local after", "play, HTTP after", "queue, HTTP after", "queue --keep-going, HTTP after"])
    func missingEntryInTheMiddle(_ how: String) async throws {
        let after = WAVFixture(seconds: 3, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xF5)
        let directory = try TemporaryDirectory(prefix: "queue")
        let server = try NginxServer()
        let a = try directory.write(Self.first.bytes, as: "a.wav")
        let c = try directory.write(after.bytes, as: "c.wav")
        try server.serve(after, as: "c.wav")
        let missing = server.url("/media/missing.wav")
        var arguments = ["play", a, missing, how.hasSuffix("HTTP after") ? server.url("/media/c.wav") : c]
        if how.hasPrefix("queue") {
            let list = try directory.write(Array(arguments.dropFirst().joined(separator: "\n").utf8), as: "list.txt")
            arguments = ["queue", list] + (how.contains("--keep-going") ? ["--keep-going"] : [])
        }
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(arguments + ["--device", capture.sinkName])
        let captured = await capture.finishInt16()
        expectErrorLine(result, status: 1, containing: ["HTTP 404", "missing.wav"])
        expectBitExact(captured: captured, expected: Self.first.samples16 + after.samples16, channels: 2)
    }
}
