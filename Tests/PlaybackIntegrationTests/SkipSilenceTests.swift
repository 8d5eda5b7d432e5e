import AliciaTestSupport
import Testing

/// `--skip-silence`: a speech-like signal through the real engine and a real PulseAudio, the
/// capture measured against the rules (not against the engine's own figures).
@Suite("Skip silence")
struct SkipSilenceTests {
    @Test("--skip-silence shortens pauses by what the level's rules predict; speech and short pauses stay bit for bit",
          arguments: ["mild", "medium", "strong"])
    func shortened(_ level: String) async throws {
        let signal = SpeechLikeSignal()
        let directory = try TemporaryDirectory(prefix: "skip")
        let path = try directory.write(signal.wav, as: "speech.wav")
        let (result, captured) = try await Playback.playCapturing16(path, ["--skip-silence=\(level)"])
        expectSuccess(result)
        let heard = AudioCompare.trimmingSilentFrames(captured, channels: 2)
        let (problems, saved) = signal.problems(in: heard, level: level)
        #expect(problems.isEmpty, "\(problems)")
        #expect(heard.count / 2 == signal.frameCount - saved, "\(heard.count / 2) frames heard, \(signal.frameCount - saved) expected")
    }

    @Test("--skip-silence=off is bit-exact, as without it")
    func off() async throws {
        let signal = SpeechLikeSignal()
        let directory = try TemporaryDirectory(prefix: "skip")
        let path = try directory.write(signal.wav, as: "speech.wav")
        let (result, captured) = try await Playback.playCapturing16(path, ["--skip-silence=off"])
        expectSuccess(result)
        expectBitExact(captured: captured, expected: signal.samples, channels: 2)
    }
}
