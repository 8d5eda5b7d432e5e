import AliciaTestSupport
import Foundation
import Testing

/// What the server's buffer is for: a player held up (a swapping machine, a debugger, SIGSTOP) for
/// less than it holds is not heard. pipewire-pulse granted 329 ms of the 500 ms asked until the
/// player asked again for what its graph's quantum took; this suite runs on both servers.
@Suite("A stalled player")
struct StallTests {
    @Test("a player stopped for 350 ms while it plays is not heard: bit-exact, no silent run")
    func stallIsRiddenOut() async throws {
        try TestEnvironment.requirePulseAudio()
        let directory = try TemporaryDirectory(prefix: "stall")
        let fixture = WAVFixture(seconds: 4, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0x57A1)
        let path = try directory.write(fixture.bytes, as: "noise.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.gated { () async throws -> PlayerResult in
            let player = try PlayerProcess.start(["play", path, "--device", capture.sinkName, "--no-ipc"])
            let pid = player.pid
            // A second in, the buffer is full: the player stops for 350 ms (the stimulus, not a wait).
            capture.whenAudible(frames: 48_000) {
                kill(pid, SIGSTOP)
                usleep(350_000)
                kill(pid, SIGCONT)
            }
            return try await PlayerProcess.result(of: player, timeout: .seconds(30))
        }
        #expect(result.status == 0, "\(result)")
        expectBitExact(captured: await capture.finishInt16(), expected: fixture.samples16, channels: 2)
    }
}
