import AliciaTestSupport
import Foundation
import Testing

/// `--loudness`: two episodes 12 dB apart come out at the target, measured on the capture by
/// ffmpeg's ebur128 filter (a meter that is not ours).
@Suite("Matched loudness")
struct LoudnessTests {
    static let rate = 48_000

    /// ffmpeg's integrated loudness (LUFS) and true peak (dBTP) of 16-bit stereo `samples`.
    private func ffmpegMeasure(_ samples: [Int16], in directory: TemporaryDirectory, name: String) async throws -> (integrated: Double, truePeak: Double) {
        let path = try directory.write(WAVFixture.pcm16File(samples, sampleRate: Self.rate, channels: 2), as: name)
        let result = try await ChildProcess.run("ffmpeg", ["-nostats", "-hide_banner", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"],
                                                environment: [:], timeout: .seconds(60))
        // The summary at the end: "I:         -16.0 LUFS" and, under "True peak:", "Peak:  -3.2 dBFS".
        let lines = result.stderrText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let summary = lines.lastIndex { $0.hasSuffix("Summary:") }.map { Array(lines[$0...]) } ?? []
        func value(_ prefix: String) -> Double? {
            summary.first { $0.hasPrefix(prefix) }.flatMap { line in
                line.dropFirst(prefix.count).split(separator: " ").first.flatMap { Double($0) }
            }
        }
        guard let integrated = value("I:"), let peak = value("Peak:") else {
            throw HarnessError("no ebur128 summary from ffmpeg: \(result.stderrText.suffix(600))")
        }
        return (integrated, peak)
    }

    @Test("two episodes 12 dB apart both come out within 1 LU of -16 LUFS, true peak under -1 dBTP, the gain never stepping")
    func matched() async throws {
        try TestEnvironment.require((try? ChildProcess.resolve("ffmpeg")) != nil, "ffmpeg measures the loudness (scripts/test installs it)")
        let directory = try TemporaryDirectory(prefix: "loudness")
        let loud = SpeechLikeSignal(seed: 0x10D)
        let quiet = SpeechLikeSignal(seed: 0x0AE7).samples.map { Int16((Double($0) / 4).rounded()) }
        let pathA = try directory.write(loud.wav, as: "loud.wav")
        let pathB = try directory.write(WAVFixture.pcm16File(quiet, sampleRate: Self.rate, channels: 2), as: "quiet.wav")
        let before = (a: try await ffmpegMeasure(loud.samples, in: directory, name: "a-in.wav"),
                      b: try await ffmpegMeasure(quiet, in: directory, name: "b-in.wav"))
        #expect(abs(before.a.integrated - before.b.integrated - 12) < 1, "the fixtures are not 12 dB apart: \(before)")

        let capture = try await PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let result = try await Playback.run(["play", pathA, pathB, "--device", capture.sinkName, "--loudness", "-16"], timeout: .seconds(90))
        expectSuccess(result)
        let heard = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 2)
        // Both episodes start and end with a burst (never 0), so the capture is A then B, whole.
        // A short capture would index past its end below: the test stops here instead.
        try #require(heard.count == loud.samples.count + quiet.count, "\(heard.count / 2) frames heard")
        let outA = Array(heard.prefix(loud.samples.count))
        let outB = Array(heard.dropFirst(loud.samples.count))
        let a = try await ffmpegMeasure(outA, in: directory, name: "a-out.wav")
        let b = try await ffmpegMeasure(outB, in: directory, name: "b-out.wav")
        #expect(abs(a.integrated - -16) <= 1, "the loud episode came out at \(a.integrated) LUFS (was \(before.a.integrated))")
        #expect(abs(b.integrated - -16) <= 1, "the quiet episode came out at \(b.integrated) LUFS (was \(before.b.integrated))")
        #expect(a.truePeak < -1 && b.truePeak < -1, "true peaks \(a.truePeak), \(b.truePeak) dBTP")

        // The gain applied, window by window (100 ms of the bursts: out over in), never steps by
        // more than 1 dB, across the join too.
        let input = loud.samples + quiet
        var gains: [Double?] = []
        for start in stride(from: 0, to: heard.count / 2 - 4800, by: 4800) {
            var inPower = 0.0, outPower = 0.0
            for i in start * 2..<(start + 4800) * 2 {
                inPower += Double(input[i]) * Double(input[i])
                outPower += Double(heard[i]) * Double(heard[i])
            }
            // Windows of the faint pauses say little about the gain: only those with speech in.
            gains.append(inPower / 9600 > 300 * 300 ? 10 * log10(outPower / inPower) : nil)
        }
        var worst = 0.0
        for (x, y) in zip(gains, gains.dropFirst()) {
            if let x, let y { worst = max(worst, abs(y - x)) }
        }
        #expect(worst <= 1, "the gain stepped by \(worst) dB between 100 ms windows")
    }

    @Test("in duck mode a quiet voice note is matched to the target and sits 12 dB above the ducked episode")
    func duckedNote() async throws {
        // Tones tell the two apart in the mix (Goertzel): the episode at 400 Hz and loud (about
        // -11 LUFS), the note at 700 Hz and 24 dB quieter (about -35 LUFS). Unmatched, the note
        // would be 12 dB under the episode ducked by 12 dB; matched, both are at -16.
        let directory = try TemporaryDirectory(prefix: "loudness-duck")
        let episode = try directory.write(Tone.wav(frequency: 400, seconds: 4, rate: Self.rate, channels: 2, amplitude: 0.3), as: "episode.wav")
        let note = try directory.write(Tone.wav(frequency: 700, seconds: 1.5, rate: Self.rate, channels: 2, amplitude: 0.019), as: "note.wav")
        let (result, captured) = try await Playback.playCapturing16(episode, ["--voice-at", "1=" + note, "--voice-focus", "duck",
                                                                              "--loudness", "-16"])
        expectSuccess(result)
        // From the episode's first frame: the capture begins with however long the player took to start.
        let heard = AudioCompare.trimmingSilentFrames(captured, channels: 2)
        let window = 4_800
        let windows = stride(from: 0, to: heard.count / 2 - window, by: window / 2).map { start in
            (episode: Tone.level(heard, channels: 2, from: start, frames: window, frequency: 400, rate: Self.rate),
             note: Tone.level(heard, channels: 2, from: start, frames: window, frequency: 700, rate: Self.rate))
        }
        guard let loudest = windows.map(\.note).max() else {
            Issue.record("nothing captured")
            return
        }
        // The note's windows, less the first 300 ms (the duck's 200 ms ramp) and the last 100 ms.
        let noteWindows = windows.indices.filter { windows[$0].note > loudest - 3 }
        guard let first = noteWindows.first, let last = noteWindows.last, last - first > 20 else {
            Issue.record("the note is not in the capture (\(noteWindows.count) windows)")
            return
        }
        let during = windows[(first + 6)...(last - 2)]
        // The episode alone, between its first 300 ms and the note.
        let before = windows[6..<max(7, first - 2)]
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let episodeAlone = median(before.map(\.episode))
        let noteLevel = median(during.map(\.note))
        let ducked = median(during.map(\.episode))
        #expect(abs(noteLevel - episodeAlone) <= 1.5, "the note at \(noteLevel - episodeAlone) dB of the episode: both should be at the target")
        #expect(noteLevel - ducked >= 10, "the note only \(noteLevel - ducked) dB above the ducked episode")
        #expect(abs(episodeAlone - ducked - 12) <= 1, "the episode ducked by \(episodeAlone - ducked) dB, not 12")
    }

    @Test("--loudness off keeps the samples bit for bit")
    func off() async throws {
        let signal = SpeechLikeSignal()
        let directory = try TemporaryDirectory(prefix: "loudness")
        let path = try directory.write(signal.wav, as: "speech.wav")
        let (result, captured) = try await Playback.playCapturing16(path, ["--loudness", "off"])
        expectSuccess(result)
        expectBitExact(captured: captured, expected: signal.samples, channels: 2)
    }
}
