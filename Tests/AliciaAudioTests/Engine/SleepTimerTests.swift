import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// The sleep timer on a recording sink: it counts only what the sink plays, fades to silence over
/// its last 10 s, pauses exactly where it ends, and at the end of an entry the next does not start.
@Suite struct SleepTimerTests {
    static let rate = 48_000

    /// The peak of each 10 ms window of the left channel.
    private func envelope(_ samples: [Int16], from: Int, to: Int) -> [Int] {
        stride(from: from, to: to - 480, by: 480).map { start in
            (start..<start + 480).map { abs(Int(samples[$0 * 2])) }.max() ?? 0
        }
    }

    @Test func afterItsSecondsOfPlayingItFadesToSilenceAndPausesThere() throws {
        let rig = try FakeSinkRig(prefix: "sleep")
        let player = rig.player
        let tone = Tone.wav(frequency: 1000, seconds: 20, rate: Self.rate, channels: 2, amplitude: 0.5)
        player.setSleepTimer(.after(seconds: 12))
        player.play([try rig.item(tone, "tone.wav")])
        let sink = try rig.sink()

        // 3 s played, then paused: the clock stands at 9 s left, however long the pause.
        rig.play(sink, upTo: 3 * Int64(Self.rate))
        player.pause()
        guard case .after(let left) = player.sleepTimer else { Issue.record("\(player.sleepTimer)"); return }
        #expect(abs(left - 9) < 1e-9, "\(left) s left after 3 s of playing")
        player.resume()

        let seen = rig.play { $0.kind == .sleepTimerEnded }
        #expect(!seen.contains { $0.kind == .queueEnded })
        // The pause that follows is posted after it.
        _ = player.waitForEvent { $0 == .stateChanged(.paused) }
        let snapshot = player.snapshot()
        #expect(snapshot.state == .paused)
        #expect(snapshot.sleepTimer == .off)
        let samples = AudioCompare.int16Samples(littleEndian: sink.bytes)
        let frames = samples.count / 2
        #expect(frames == 12 * Self.rate, "\(frames) frames written, 12 s expected")
        #expect(snapshot.positionFrames == Int64(frames), "paused at \(snapshot.positionFrames), the sink played \(frames)")
        // Untouched before the fade, then never louder from one 10 ms to the next, ending in silence.
        let source = Tone.samples(frequency: 1000, seconds: 20, rate: Self.rate, channels: 2, amplitude: 0.5)
        #expect(Array(samples.prefix(2 * 2 * Self.rate)) == Array(source.prefix(2 * 2 * Self.rate)), "changed before the fade")
        let fade = envelope(samples, from: 2 * Self.rate, to: frames)
        #expect(zip(fade, fade.dropFirst()).allSatisfy { $1 <= $0 }, "the fade is not monotonic")
        #expect(fade.first ?? 0 > 16_000, "the fade starts low: \(fade.first ?? 0)")
        // The last 5 ms at most 8 LSB (5 ms of 10 s of 16,383), the last frame at most 1: silence.
        let last = (frames - 240..<frames).map { abs(Int(samples[$0 * 2])) }
        #expect((last.max() ?? 0) <= 9 && (last.last ?? 0) <= 1, "it does not end in silence: \(last.suffix(8))")
        // Halfway through, half the level (straight in amplitude).
        let half = envelope(samples, from: 7 * Self.rate, to: 7 * Self.rate + 960).first ?? 0
        #expect(abs(half - 8192) < 200, "halfway: \(half)")

        // A resume plays on from there.
        player.resume()
        rig.playOut()
        #expect(AudioCompare.int16Samples(littleEndian: sink.bytes).count / 2 == 20 * Self.rate)
    }

    @Test func atTheEndOfTheEntryTheNextDoesNotStartUntilAResume() throws {
        let rig = try FakeSinkRig(prefix: "sleep")
        let player = rig.player
        let a = WAVFixture(seconds: 3, seed: 81)
        let b = WAVFixture(seconds: 1, seed: 82)
        player.setSleepTimer(.endOfEntries(1))
        let ids = try rig.play([a, b])
        let sink = try rig.sink()
        let seen = rig.play { $0.kind == .sleepTimerEnded }
        #expect(seen.last?.entry == ids[0])
        #expect(!seen.contains { $0.entry == ids[1] && $0.kind == .entryStarted }, "the next entry started: \(seen)")
        _ = player.waitForEvent { $0 == .stateChanged(.paused) }
        #expect(sink.snapshot.written == Int64(a.frameCount), "\(sink.snapshot.written) frames written, A has \(a.frameCount)")
        let snapshot = player.snapshot()
        #expect(snapshot.entry == ids[0] && snapshot.positionFrames == Int64(a.frameCount) && snapshot.state == .paused)
        // The whole of A was within the fade (3 s of 10): it began at 30 % and ends silent.
        let samples = AudioCompare.int16Samples(littleEndian: sink.bytes)
        let fade = envelope(samples, from: 0, to: samples.count / 2)
        #expect(zip(fade, fade.dropFirst()).allSatisfy { $1 <= $0 + 1000 }, "the fade rises")

        player.resume()
        let after = rig.playOut()
        #expect(after.contains { $0.entry == ids[1] && $0.kind == .entryStarted }, "\(after)")
        #expect(sink.snapshot.written == Int64(a.frameCount + b.frameCount))
        let tail = Array(AudioCompare.int16Samples(littleEndian: sink.bytes).suffix(b.samples16.count))
        #expect(tail == b.samples16, "B is not played as it is after the resume")
    }

    @Test func theCycleGoesOffFifteenToSixtyMinutesEndAndOff() {
        var timer = SleepTimer.off
        var seen: [SleepTimer] = []
        for _ in 0..<7 {
            timer = timer.next
            seen.append(timer)
        }
        #expect(seen == [.after(seconds: 900), .after(seconds: 1800), .after(seconds: 2700), .after(seconds: 3600), .endOfChapter, .endOfEntries(1), .off])
        #expect(SleepTimer.after(seconds: 700).next == .after(seconds: 900), "12 minutes left: the next step is 15")
    }
}
