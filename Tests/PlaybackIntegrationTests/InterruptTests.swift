import AliciaLocks
import AliciaTestSupport
import Foundation
import Testing

/// Ctrl-C (SIGINT) and SIGTERM while playing.
@Suite("Interrupt")
struct InterruptTests {
    /// 20 s, so that it is still playing when interrupted.
    static let long = WAVFixture(seconds: 20, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 20)

    /// How long the waits may take before the test calls it a hang: not a figure the player must
    /// meet, so that a busy machine or a sanitizer build only makes the test slower.
    static let hangGuard: Duration = .seconds(30)

    @Test(
        "a signal while playing ends the player with 128 + the signal",
        arguments: [("path", SIGINT), ("http", SIGINT), ("http", SIGTERM)]
    )
    func interrupt(_ source: String, signal: Int32) async throws {
        let directory = try TemporaryDirectory(prefix: "interrupt")
        let server = try NginxServer()
        let location: String
        if source == "http" {
            try server.serve(Self.long, as: "long.wav")
            location = server.url("/media/long.wav")
        } else {
            location = try directory.write(Self.long.bytes, as: "long.wav")
        }
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)

        await Playback.gate.enter()
        let child: ChildProcess
        do {
            child = try PlayerProcess.start(["play", location, "--device", capture.sinkName])
        } catch {
            await Playback.gate.leave()
            throw error
        }
        // Sent from the capture's own thread at the first audio: an await could resume seconds
        // late on a loaded suite's busy cooperative pool (a 20 s file then ended by itself, exit 0).
        let heard = Locked(false)
        capture.whenAudible {
            heard.withLock { $0 = true }
            child.send(signal)
        }
        let outcome = await child.wait(timeout: Self.hangGuard * 2)
        let playing = heard.withLock { $0 }
        await Playback.gate.leave()
        _ = await capture.finish(quietFor: .milliseconds(200))

        let result = PlayerResult(outcome)
        #expect(playing, "no audio reached the sink within \(Self.hangGuard): \(result)")
        #expect(!outcome.timedOut, "still running \(Self.hangGuard) after signal \(signal): \(result)")
        #expect(result.signal == nil || result.signal == signal, "crashed: \(result)")
        // A player that ignored the signal would play the 20 s to the end and exit 0.
        #expect(result.status == 128 + signal, "\(result)")
    }
}
