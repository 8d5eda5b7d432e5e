import AliciaTestSupport
import Foundation
import Testing

/// What the player writes depends on the audio alone, never on how fast it runs: skip silence holds a
/// pause until its length decides the cut, matched loudness and its limiter look ahead in frames, and
/// none of them may keep or cut more because the decoder got less done in time. A player starved of CPU
/// (nice 19 beside two busy loops at normal priority, on a two-core machine) plays the same file into a
/// capture as a free one, bit for bit, once the silence the server mixed in while the starved
/// player's stream ran dry is left out of both (frames of all zeros: the sink's own silence; a kept
/// pause at -20 dB of faint noise has zero frames too, and they go from both alike).
@Suite("Output under starvation", .serialized)
struct StarvedPlaybackTests {
    /// Busy loops at normal priority, one per core, for as long as this lives.
    final class BusyLoops {
        let children: [ChildProcess]

        init(count: Int) throws {
            children = try (0..<count).map { _ in try ChildProcess("sh", ["-c", "while :; do :; done"]) }
        }

        func stop() async {
            for child in children { child.send(SIGKILL) }
            for child in children { _ = await child.wait(timeout: .seconds(30)) }
        }
    }

    static func play(_ path: String, _ arguments: [String], niceness: Int?) async throws -> (PlayerResult, [Int16]) {
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.gated { () async throws -> PlayerResult in
            let child = try PlayerProcess.start(["play", path, "--device", capture.sinkName, "--no-ipc"] + arguments,
                                                niceness: niceness)
            return try await PlayerProcess.result(of: child, timeout: .seconds(120))
        }
        return (result, ScriptCommandTests.withoutSilentFrames(await capture.finishInt16()))
    }

    @Test("skip silence, matched loudness and its limiter: a starved player's output is a free one's, bit for bit",
          arguments: ["medium", "strong"])
    func starvedIsFree(_ level: String) async throws {
        // Quiet speech boosted toward -16 LUFS: the limiter works on its peaks.
        let signal = SpeechLikeSignal(pauses: [400, 1_500, 3_000, 600, 2_200])
        let directory = try TemporaryDirectory(prefix: "starved")
        let path = try directory.write(signal.wav, as: "speech.wav")
        let arguments = ["--skip-silence=\(level)", "--loudness", "-16"]
        let (free, freeOutput) = try await Self.play(path, arguments, niceness: nil)
        expectSuccess(free)
        let loops = try BusyLoops(count: 2)
        let starvedRun: (PlayerResult, [Int16])
        do {
            starvedRun = try await Self.play(path, arguments, niceness: 19)
        } catch {
            await loops.stop()
            throw error
        }
        await loops.stop()
        let (starved, starvedOutput) = starvedRun
        expectSuccess(starved)
        #expect(freeOutput.count < signal.samples.count, "nothing was cut: \(freeOutput.count / 2) of \(signal.frameCount) frames")
        let mismatch = AudioCompare.firstMismatch(expected: freeOutput, actual: starvedOutput)
        #expect(mismatch == nil && freeOutput.count == starvedOutput.count,
                "the starved run differs from frame \((mismatch ?? 0) / 2): \(starvedOutput.count / 2) frames against \(freeOutput.count / 2)")
    }
}
