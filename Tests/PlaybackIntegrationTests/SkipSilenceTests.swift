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
        // Its log, shown when a pause comes out longer: silence the sink mixed in (an underflow, a
        // stream held while it refilled) is not the skipper's, and the log tells them apart.
        let log = directory.file("player.log")
        let (result, captured) = try await Playback.playCapturing16(path, ["--skip-silence=\(level)"],
                                                                    environment: ["ALICIA_LOG": "info", "ALICIA_LOG_FILE": log])
        expectSuccess(result)
        let heard = AudioCompare.trimmingSilentFrames(captured, channels: 2)
        let (problems, saved) = signal.problems(in: heard, level: level)
        let told = problems.isEmpty ? "" : (try? String(contentsOfFile: log, encoding: .utf8)) ?? "no log"
        #expect(problems.isEmpty, "\(problems); its log:\n\(told)")
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
