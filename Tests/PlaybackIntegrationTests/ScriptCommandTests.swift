import AliciaTestSupport
import Foundation
import Testing

/// `alicia-player script`: checked whole first, then run against a real PulseAudio capture.
@Suite("Script mode")
struct ScriptCommandTests {
    static let episode = WAVFixture(seconds: 4, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xB1)
    static let note = WAVFixture(seconds: 0.5, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xB2)

    @Test("play, seek 50%, wait, pause, resume, voice, wait voice, quit: exactly the expected audio")
    func runsAScript() async throws {
        let directory = try TemporaryDirectory(prefix: "script")
        _ = try directory.write(Self.episode.bytes, as: "episode.wav")
        _ = try directory.write(Self.note.bytes, as: "note.wav")
        let script = try directory.write(Array("""
            # the whole vocabulary a listener's script needs
            play episode.wav
            seek 50%
            wait 1s
            pause
            status
            wait 300ms
            resume
            voice note.wav
            wait voice
            echo done
            quit

            """.utf8), as: "run.txt")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["script", script, "--device", capture.sinkName])
        let captured = Self.withoutSilentFrames(await capture.finishInt16())
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("paused ") && lines[0].hasSuffix(" 4.00 episode.wav") && lines[1] == "done", "\(lines)")

        // The episode from its middle (the seek came before it started), held for the note at some
        // frame j, the note whole, then the episode on from j: nothing lost, repeated or between.
        let episode = Self.episode.samples16
        let middle = Self.episode.frameCount / 2 * 2
        let heard = (AudioCompare.firstMismatch(expected: Array(episode[middle...]), actual: captured) ?? captured.count) / 2 * 2
        #expect(heard > 0, "the capture does not start at the middle of the episode: \(AudioCompare.describeDifference(expected: Array(episode[middle...]), actual: captured, channels: 2))")
        #expect(heard >= 48_000, "only \(heard / 2) frames from the middle before the note")
        let j = middle + heard
        let note = Self.note.samples16
        #expect(captured.count >= heard + note.count, "the note is missing")
        guard captured.count >= heard + note.count else { return }
        let noteHeard = Array(captured[heard..<heard + note.count])
        #expect(noteHeard == note, "the note is not whole right after the held frame: \(AudioCompare.describeDifference(expected: note, actual: noteHeard, channels: 2))")
        let rest = Array(captured[(heard + note.count)...])
        let after = Array(episode[j..<min(episode.count, j + rest.count)])
        #expect(rest == after, "the episode does not go on from the held frame: \(AudioCompare.describeDifference(expected: after, actual: rest, channels: 2))")
    }

    /// Without the silence a sink fills corks and holds with (the noise has no silent frame).
    static func withoutSilentFrames(_ samples: [Int16]) -> [Int16] {
        var kept: [Int16] = []
        kept.reserveCapacity(samples.count)
        var index = 0
        while index + 1 < samples.count {
            if samples[index] != 0 || samples[index + 1] != 0 { kept += [samples[index], samples[index + 1]] }
            index += 2
        }
        return kept
    }

    @Test("a bad line stops it before anything plays: FILE:LINE: what is wrong, exit 2; --check only checks")
    func checksFirst() async throws {
        let directory = try TemporaryDirectory(prefix: "script")
        _ = try directory.write(Self.note.bytes, as: "note.wav")
        let bad = try directory.write(Array("play note.wav\nwait 1s\nplay missing.wav\nfrobnicate\n".utf8), as: "bad.txt")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["script", bad, "--device", capture.sinkName])
        let captured = await capture.finishInt16(quietFor: .milliseconds(300))
        #expect(result.status == 2, "\(result)")
        // Every problem at once, in line order.
        #expect(result.stderrLines.count == 2, "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("alicia-player: \(bad):3: no such file") == true, "\(result)")
        #expect(result.stderrLines.last?.hasPrefix("alicia-player: \(bad):4: unknown command 'frobnicate'") == true, "\(result)")
        #expect(AudioCompare.trimmingSilentFrames(captured, channels: 2).isEmpty, "something played before the check failed")

        let good = try directory.write(Array("play note.wav\nwait end\n".utf8), as: "good.txt")
        let checked = try await Playback.run(["script", "--check", good])
        #expect(checked.status == 0 && checked.stderr.isEmpty && checked.stdout.isEmpty, "\(checked)")
    }

    @Test("wait end waits for the queue; a script read from standard input works")
    func waitEndFromStandardInput() async throws {
        let directory = try TemporaryDirectory(prefix: "script")
        let note = try directory.write(Self.note.bytes, as: "note.wav")
        let script = try directory.write(Array("play \(note) \(note)\nwait end\nstatus\n".utf8), as: "s.txt")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let run = try await ChildProcess.run("/bin/sh", ["-c", "'\(try PlayerProcess.executablePath())' script - --device \(capture.sinkName) < '\(script)'"],
                                               environment: try PlayerProcess.isolated(["XDG_STATE_HOME": try PlayerProcess.freshStateDirectory(),
                                                                                         "ALICIA_LOUDNESS": "off"]),
                                               timeout: .seconds(60))
        let captured = await capture.finishInt16()
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(run.stdoutText.hasPrefix("ended "), "\(run.stdoutText)")
        expectBitExact(captured: captured, expected: Self.note.samples16 + Self.note.samples16, channels: 2)
    }

    /// Guards issue 22: `play URL` / `seek 12` / `wait` / `quit` exited after half a second having
    /// played nothing (the wait looked at an entry that was not there yet while the item loaded).
    @Test("play URL, seek 12, wait, quit: from 12 s to the end, bit for bit")
    func waitIsForTheItemItStarted() async throws {
        let server = try NginxServer()
        let fixture = WAVFixture(seconds: 14, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xB3)
        try server.serve(fixture, as: "fourteen.wav")
        let directory = try TemporaryDirectory(prefix: "script")
        let script = try directory.write(Array("""
            play \(server.url("/media/fourteen.wav"))
            seek 12
            wait
            quit

            """.utf8), as: "run.txt")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["script", script, "--device", capture.sinkName])
        let captured = Self.withoutSilentFrames(await capture.finishInt16())
        #expect(result.status == 0, "\(result)")
        let from = Array(fixture.samples16[(12 * 48_000 * 2)...])
        #expect(captured == from, "\(AudioCompare.describeDifference(expected: from, actual: captured, channels: 2))")
    }

    /// Guards issue 22: a script's `volume` set only the episode player, so a voice note played at
    /// the old level.
    @Test("volume 50 then a voice note: the note plays at 50 % too")
    func volumeIsForTheVoiceNoteToo() async throws {
        let directory = try TemporaryDirectory(prefix: "script")
        _ = try directory.write(Tone.wav(frequency: 440, seconds: 2, rate: 48_000, channels: 2, amplitude: 0), as: "silence.wav")
        _ = try directory.write(Self.note.bytes, as: "note.wav")
        let script = try directory.write(Array("""
            play silence.wav
            volume 50
            voice note.wav
            wait voice
            quit

            """.utf8), as: "run.txt")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["script", script, "--device", capture.sinkName])
        let captured = Self.withoutSilentFrames(await capture.finishInt16())
        #expect(result.status == 0, "\(result)")
        func rms(_ samples: [Int16]) -> Double {
            (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
        }
        // 50 % on the mixer's cubic scale is an amplitude of 0.125.
        let ratio = rms(captured) / rms(Self.note.samples16)
        #expect(abs(ratio - 0.125) < 0.005, "the note played at \(ratio) of its level, 0.125 expected (\(captured.count / 2) frames)")
    }

}
