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
        // Its log, shown when a pause comes out wrong.
        let log = directory.file("player.log")
        let (result, captured) = try await Playback.playCapturing16(path, ["--skip-silence=\(level)"],
                                                                    environment: ["ALICIA_LOG": "info", "ALICIA_LOG_FILE": log])
        expectSuccess(result)
        // What the player wrote: the sink's own silence left out, wherever it is (before, after, and
        // where a stream starved on a loaded machine ran dry: a whole-suite ThreadSanitizer run
        // found 192 ms of it in a 3 s pause). The signal's pauses are faint noise, and the kept
        // part of one at -20 dB has a zero frame in about 36, never sixteen in a row.
        let heard = AudioCompare.removingSilentRuns(captured, channels: 2, minFrames: 16)
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
