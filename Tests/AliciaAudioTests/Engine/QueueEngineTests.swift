import Testing
import AliciaTestSupport
@testable import AliciaAudio
import AliciaSession

/// The queue engine against a real PulseAudio: positions across a join and a seek, checked
/// against what the pipe sink received; the next command near an entry's end; a duck that leaves
/// the listener's volume alone.
@Suite(.serialized) struct QueueEngineTests {
    static let rate = 48_000
    /// One millisecond: how far the reported position may be from the frame heard.
    static let millisecond = rate / 1000

    @Test func thePositionAcrossAJoinIsTheFrameHeard() async throws {
        let a = WAVFixture(seconds: 1.5, seed: 41)
        let b = WAVFixture(seconds: 2, seed: 42)
        let rig = try await PipeSinkRig(serving: ["a.wav": a.bytes, "b.wav": b.bytes])
        defer { rig.stop() }
        let player = rig.player
        player.play(try rig.items(["a.wav", "b.wav"]))
        let second = player.queue.entries[1].id
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let snapshot = player.snapshot()
            if snapshot.entry == second && snapshot.position >= 0.5 { break }
            _ = player.nextEvent(timeout: .milliseconds(20))
        }
        rig.pauseAndSettle()
        let snapshot = player.snapshot()
        let heard = rig.audibleSoFar()
        _ = await rig.finishPlayed()

        #expect(snapshot.entry == second, "\(snapshot)")
        #expect(Array(heard.prefix(a.samples16.count)) == a.samples16, "the first entry is not exact")
        let heardOfSecond = heard.count / 2 - a.frameCount
        #expect(abs(Int(snapshot.positionFrames) - heardOfSecond) <= Self.millisecond,
                "position \(snapshot.positionFrames) of the second entry, but the sink got \(heardOfSecond) of its frames")
        #expect(Array(heard[a.samples16.count...]) == Array(b.samples16.prefix(heard.count - a.samples16.count)))
    }

    @Test func thePositionAfterASeekIsTheFrameHeard() async throws {
        let a = WAVFixture(seconds: 4, seed: 43)
        let rig = try await PipeSinkRig.playing(a, untilHeard: 1.0)
        defer { rig.stop() }
        let player = rig.player
        let target = 2 * Self.rate
        player.seek(to: 2.0)
        player.waitForPosition(atLeast: 2.6)
        rig.pauseAndSettle()
        let position = player.snapshot().positionFrames
        let heard = rig.audibleSoFar()
        _ = await rig.finishPlayed()

        // heard = a[0..<k] ++ (the sink's silence while the seek fetches, on a slow machine) ++
        // a[target..<target + m]: find k, then m.
        let k = (AudioCompare.firstMismatch(expected: a.samples16, actual: heard) ?? heard.count) / 2
        let after = AudioCompare.trimmingSilentFrames(Array(heard[(k * 2)...]), channels: 2)
        let m = after.count / 2
        let exact = after == Array(a.samples16[(target * 2)..<((target + m) * 2)])
        #expect(exact, "not exact after the seek")
        #expect(abs(Int(position) - (target + m)) <= Self.millisecond, "position \(position), heard up to \(target + m)")
    }

    /// After a speed change the position counts source frames at the new speed: the frames heard
    /// since the change, twice over at 2×.
    @Test func thePositionAfterASpeedChangeIsTheFrameHeard() async throws {
        let a = WAVFixture(seconds: 4, seed: 48)
        let rig = try await PipeSinkRig.playing(a, untilHeard: 1.0)
        defer { rig.stop() }
        let player = rig.player
        player.setSpeed(2)
        let seen = player.waitForEvent { if case .seeked = $0 { true } else { false } }
        guard case .seeked(let target)? = seen.last else { return }
        player.waitForPosition(atLeast: Double(target) / Double(Self.rate) + 1.0)
        rig.pauseAndSettle()
        let position = player.snapshot().positionFrames
        // Silence is no frame of the entry: an underrun on a loaded machine adds some, heard as a gap.
        let heard = withoutSilentFrames(AudioCompare.int16Samples(littleEndian: rig.capture.bytesSoFar))
        _ = await rig.finishPlayed()

        // heard = a[0..<target] at 1×, then the rest at 2×: the frames after the change count double.
        let k = (AudioCompare.firstMismatch(expected: a.samples16, actual: heard) ?? heard.count) / 2
        #expect(abs(k - Int(target)) <= Self.millisecond, "the change came at frame \(k) of the capture, the player says \(target)")
        let afterChange = heard.count / 2 - k
        let expected = Int(target) + 2 * afterChange
        #expect(abs(Int(position) - expected) <= 2 * Self.millisecond,
                "position \(position), but \(afterChange) frames at 2× were heard after frame \(target): \(expected)")
    }

    /// Guards the double skip: `n` pressed just before an entry ends used to move two entries,
    /// the old entry's end arriving after the new one had started.
    @Test func nextPressedInTheLastMomentsOfAnEntryMovesExactlyOne() async throws {
        let fixtures = (0..<3).map { WAVFixture(seconds: 1, seed: 44 + UInt64($0)) }
        let rig = try await PipeSinkRig(serving: ["0.wav": fixtures[0].bytes, "1.wav": fixtures[1].bytes, "2.wav": fixtures[2].bytes])
        defer { rig.stop() }
        let player = rig.player
        let events = player.subscribe()
        player.play(try rig.items(["0.wav", "1.wav", "2.wav"]))
        let ids = player.queue.entries.map(\.id)
        var pressedWhileHearing: QueueEntryID?
        var pressedAt = 0.0
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let snapshot = player.snapshot()
            if snapshot.entry == ids[0] && snapshot.position >= 0.92 {
                pressedWhileHearing = snapshot.entry
                pressedAt = snapshot.position
                #expect(player.next())
                break
            }
            _ = events.next(timeout: .milliseconds(2)).map { _ in () }
        }
        var started: [QueueEntryID] = []
        let end = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < end {
            guard let event = events.next(timeout: .milliseconds(100)) else { continue }
            if event.kind == .entryStarted, let entry = event.entry { started.append(entry) }
            if event.kind == .queueEnded { break }
        }
        player.stop()
        let heard = AudioCompare.trimmingSilentFrames(await rig.capture.finishInt16(), channels: 2)

        #expect(pressedWhileHearing == ids[0], "pressed at \(pressedAt) s")
        #expect(started.filter { $0 != ids[0] } == [ids[1], ids[2]], "entries started: \(started)")
        let tail = fixtures[1].samples16 + fixtures[2].samples16
        #expect(Array(heard.suffix(tail.count)) == tail, "the second and third entries are not whole and in order")
    }

    /// Guards the duck that wrote the listener's volume: after a duck, volume came back as 100 %.
    @Test func aDuckLeavesTheListenersVolumeAlone() async throws {
        let rig = try await PipeSinkRig(serving: [
            "tone.wav": Tone.wav(frequency: 440, seconds: 4, rate: Self.rate, channels: 2, amplitude: 0.25),
            "note.wav": Tone.wav(frequency: 1500, seconds: 1.2, rate: Self.rate, channels: 2, amplitude: 0.25),
        ])
        defer { rig.stop() }
        let player = rig.player
        let voice = VoiceNotes(episode: player, configuration: rig.configuration, focus: .duck(decibels: -12))
        defer { voice.stop() }
        player.setVolume(0.6)
        player.play(try rig.items(["tone.wav"]))
        player.waitForPosition(atLeast: 1.0)
        voice.enqueue(try rig.location("note.wav"), title: "note")
        #expect(voice.waitUntilIdle(timeout: .seconds(60)))
        #expect(player.snapshot().volume == 0.6, "the listener's volume after the duck: \(player.snapshot().volume)")
        player.waitForEnd()
        player.stop()

        let captured = AudioCompare.trimmingSilentFrames(await rig.capture.finishInt16(), channels: 2)
        guard let episode = DuckedEpisode(captured: captured, rate: Self.rate) else { return }
        let ducked = episode.ducked(lowestShare: 8)
        #expect(abs((ducked - episode.before) - -12) <= 1, "ducked by \(ducked - episode.before) dB")
        #expect(abs(episode.after - episode.before) <= 1, "after the note the episode is \(episode.after - episode.before) dB from before it")
    }
}
