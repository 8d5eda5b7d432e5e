import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// The sleep timer on a recording sink: it counts only what the sink plays, fades to silence over
/// its last 10 s, pauses exactly where it ends, and at the end of an entry the next does not start.
@Suite struct SleepTimerTests {
    static let rate = 48_000

    private func item(_ bytes: [UInt8], _ name: String, in directory: TemporaryDirectory) throws -> QueueItem {
        QueueItem(location: try MediaLocation(try directory.write(bytes, as: name)), title: name)
    }

    /// Plays the sink a block at a time until `stop` holds for an event; returns the events seen.
    private func play(_ sinks: RecordingSinks, _ events: PlayerSubscription, until stop: (PlayerEvent) -> Bool) -> [PlayerEvent] {
        var seen: [PlayerEvent] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let sink = sinks.current() {
                _ = sink.waitForWritten(sink.snapshot.played + 1, timeout: .milliseconds(50))
                sink.play(frames: 1024)
            }
            for event in events.drain() {
                seen.append(event)
                if stop(event) { return seen }
            }
        }
        Issue.record("never happened; events: \(seen)")
        return seen
    }

    /// The peak of each 10 ms window of the left channel.
    private func envelope(_ samples: [Int16], from: Int, to: Int) -> [Int] {
        stride(from: from, to: to - 480, by: 480).map { start in
            (start..<start + 480).map { abs(Int(samples[$0 * 2])) }.max() ?? 0
        }
    }

    @Test func afterItsSecondsOfPlayingItFadesToSilenceAndPausesThere() throws {
        let directory = try TemporaryDirectory(prefix: "sleep")
        let tone = Tone.wav(frequency: 1000, seconds: 20, rate: Self.rate, channels: 2, amplitude: 0.5)
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        player.setSleepTimer(.after(seconds: 12))
        player.play([try item(tone, "tone.wav", in: directory)])
        let sink = try #require(sinks.current())

        // 3 s played, then paused: the clock stands at 9 s left, however long the pause.
        while sink.snapshot.played < 3 * Int64(Self.rate) {
            _ = sink.waitForWritten(sink.snapshot.played + 1)
            sink.play(frames: min(1024, 3 * Int64(Self.rate) - sink.snapshot.played))
        }
        player.pause()
        guard case .after(let left) = player.sleepTimer else { Issue.record("\(player.sleepTimer)"); return }
        #expect(abs(left - 9) < 1e-9, "\(left) s left after 3 s of playing")
        player.resume()

        let seen = play(sinks, events) { $0.kind == .sleepTimerEnded }
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
        _ = play(sinks, events) { $0.kind == .queueEnded }
        #expect(AudioCompare.int16Samples(littleEndian: sink.bytes).count / 2 == 20 * Self.rate)
    }

    @Test func atTheEndOfTheEntryTheNextDoesNotStartUntilAResume() throws {
        let directory = try TemporaryDirectory(prefix: "sleep")
        let a = WAVFixture(seconds: 3, sampleRate: Self.rate, channels: 2, seed: 81)
        let b = WAVFixture(seconds: 1, sampleRate: Self.rate, channels: 2, seed: 82)
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        player.setSleepTimer(.endOfEntries(1))
        player.play([try item(a.bytes, "a.wav", in: directory), try item(b.bytes, "b.wav", in: directory)])
        let ids = player.queue.entries.map(\.id)
        let sink = try #require(sinks.current())
        let seen = play(sinks, events) { $0.kind == .sleepTimerEnded }
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
        let after = play(sinks, events) { $0.kind == .queueEnded }
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
