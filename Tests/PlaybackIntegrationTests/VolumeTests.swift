import AliciaTestSupport
import Foundation
import Testing

/// `--volume N`: the mixer's percent, through the engine's gain, into a real PulseAudio.
@Suite("Volume")
struct VolumeTests {
    /// Guards issue 17: volume was linear amplitude; 50 % on the mixer's scale is (0.5)³ = 0.125.
    @Test("--volume 50 scales every sample by 0.125, the cube of one half", arguments: ["50", "50%"])
    func halfOnTheMixersScale(_ text: String) async throws {
        let noise = WAVFixture(seconds: 1, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0x7A)
        let directory = try TemporaryDirectory(prefix: "volume")
        let path = try directory.write(noise.bytes, as: "noise.wav")
        let (result, captured) = try await Playback.playCapturing16(path, ["--volume", text])
        expectSuccess(result)
        let expected = noise.samples16.map { Int16(clamping: Int((Double($0) * 0.125).rounded(.toNearestOrEven))) }
        // The capture is the scaled file between the sink's silences (and the file's own quiet
        // edges, which round to 0 once scaled).
        #expect(AudioCompare.trimmingSilentFrames(captured, channels: 2) == AudioCompare.trimmingSilentFrames(expected, channels: 2),
                "the samples are not each times 0.125")
    }

    @Test("--volume 100 is bit-exact, as without it")
    func unity() async throws {
        let noise = WAVFixture(seconds: 1, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0x7B)
        let directory = try TemporaryDirectory(prefix: "volume")
        let path = try directory.write(noise.bytes, as: "noise.wav")
        let (result, captured) = try await Playback.playCapturing16(path, ["--volume", "100"])
        expectSuccess(result)
        expectBitExact(captured: captured, expected: noise.samples16, channels: 2)
    }
}
