import AliciaTestSupport
import Testing

/// `play --speed`: the episode faster or slower at the same pitch, through the pitch stretcher and a
/// real PulseAudio.
@Suite("Speed")
struct SpeedTests {
    static let rate = 48_000

    @Test("--speed plays in proportionally less (or more) time at the same pitch", arguments: ["2", "1.5x", "0.75"])
    func speed(_ text: String) async throws {
        let speed = Double(text.hasSuffix("x") ? String(text.dropLast()) : text)!
        let seconds = 3.0
        let server = try NginxServer()
        try server.serve(Tone.wav(frequency: 440, seconds: seconds, rate: Self.rate, channels: 2, amplitude: 0.25), as: "tone.wav")
        let (result, captured) = try await Playback.playCapturing16(server.url("/media/tone.wav"), ["--speed", text])
        expectSuccess(result)
        let audible = AudioCompare.trimmingSilentFrames(captured, channels: 2)
        let frames = audible.count / 2
        let expected = seconds / speed * Double(Self.rate)
        #expect(abs(Double(frames) - expected) <= 0.03 * expected, "\(frames) frames played, \(Int(expected)) expected")
        // The run, not the samples, in the message: a failure names the gap without printing the capture.
        let gap = AudioCompare.longestSilentRunFrames(audible, channels: 2)
        #expect(gap.count < Self.rate / 100, "a gap in the middle: \(gap.count) silent frames from frame \(gap.lowerBound) of \(frames)")
        let window = 4096
        let middle = frames / 2 - window / 2
        let kept = Tone.level(audible, channels: 2, from: middle, frames: window, frequency: 440, rate: Self.rate)
        let shifted = Tone.level(audible, channels: 2, from: middle, frames: window, frequency: 440 * speed, rate: Self.rate)
        #expect(kept - shifted >= 20, "440 Hz at \(kept) dB, \(440 * speed) Hz at \(shifted) dB")
    }

    @Test("--speed 1 is bit-exact, as without it")
    func normalSpeed() async throws {
        let noise = WAVFixture(seconds: 2, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 0x5EED)
        let server = try NginxServer()
        try server.serve(noise, as: "noise.wav")
        let (result, captured) = try await Playback.playCapturing16(server.url("/media/noise.wav"), ["--speed", "1"])
        expectSuccess(result)
        expectBitExact(captured: captured, expected: noise.samples16, channels: 2)
    }

    @Test("a --speed outside 0.5 to 3 is a usage error naming it (exit 2)", arguments: ["4", "0.2", "fast", "0", "-1"])
    func outOfRange(_ value: String) async throws {
        let directory = try TemporaryDirectory(prefix: "speed")
        let path = try directory.write(WAVFixture(seconds: 1).bytes, as: "noise.wav")
        let result = try await Playback.run(["play", path, "--speed", value], timeout: .seconds(10))
        #expect(result.signal == nil, "\(result)")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("alicia-player: "), "\(result)")
        #expect(result.stderr.split(separator: "\n").first?.contains("--speed '\(value)'") == true, "\(result)")
    }
}
