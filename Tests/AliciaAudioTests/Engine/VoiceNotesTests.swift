#if canImport(Glibc)
import Glibc
#endif
import Testing
import AliciaTestSupport
@testable import AliciaAudio
import AliciaSession

/// The voice-note player next to an episode, captured through a pipe sink.
@Suite(.serialized) struct VoiceNotesTests {
    static let rate = 48_000

    private func events(_ notes: VoiceNotes, until last: VoiceEvent) -> [VoiceEvent] {
        var seen: [VoiceEvent] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            guard let event = notes.nextEvent(timeout: .milliseconds(100)) else { continue }
            seen.append(event)
            if event == last { return seen }
        }
        Issue.record("timed out; voice events: \(seen)")
        return seen
    }

    /// A rig serving `media`, with a voice-note player beside its episode player on the same sink.
    private func voiceRig(serving media: KeyValuePairs<String, [UInt8]>, focus: VoiceFocus = .pause) async throws -> (PipeSinkRig, VoiceNotes) {
        let rig = try await PipeSinkRig(serving: media)
        return (rig, VoiceNotes(episode: rig.player, configuration: rig.configuration, focus: focus))
    }

    /// The frame the episode was held at for the first note, from the events of the notes.
    private func heldFrame(_ seen: [VoiceEvent], sourceLocation: SourceLocation = #_sourceLocation) -> Int? {
        guard case .started(_, let heldAt?) = seen.first else {
            Issue.record("no held frame reported: \(seen)", sourceLocation: sourceLocation)
            return nil
        }
        return Int(heldAt)
    }

    /// Noise of `seconds` from `seed`, 16-bit at `rate`.
    private func noise(_ seconds: Double, rate: Int = Self.rate, channels: Int = 2, seed: UInt64) -> WAVFixture {
        WAVFixture(seconds: seconds, sampleRate: rate, channels: channels, format: .pcm16, seed: seed)
    }

    @Test func pauseHoldsTheEpisodeAtItsExactFrameAndResumesThere() async throws {
        let episode = noise(3, seed: 31)
        let note = noise(1, seed: 32)
        let (rig, voice) = try await voiceRig(serving: ["episode.wav": episode.bytes, "note.wav": note.bytes])
        defer { rig.stop() }
        defer { voice.stop() }

        try rig.play("episode.wav", untilHeard: 1.0)
        voice.enqueue(try rig.location("note.wav"), title: "note")
        let seen = events(voice, until: .focusReleased)
        guard let k = heldFrame(seen) else { return }
        #expect(seen.contains(.finished(title: "note")))
        rig.player.waitForEnd()

        let captured = await rig.finishPlayed()
        let expected = Array(episode.samples16[0..<k * 2]) + note.samples16 + Array(episode.samples16[(k * 2)...])
        #expect(k >= Self.rate && k < episode.frameCount)
        #expect(captured == expected, "\(AudioCompare.describeDifference(expected: expected, actual: captured, channels: 2))")
    }

    /// Guards issue 17: skipping the last note stopped it but never gave the episode its focus back,
    /// so the episode stayed held.
    @Test func skippingTheLastNoteGivesTheEpisodeItsFocusBack() async throws {
        let (rig, voice) = try await voiceRig(serving: ["episode.wav": noise(20, seed: 35).bytes, "note.wav": noise(10, seed: 36).bytes])
        defer { rig.stop() }
        defer { voice.stop() }
        try rig.play("episode.wav", untilHeard: 0.5)
        voice.enqueue(try rig.location("note.wav"), title: "note")
        let deadline = ContinuousClock.now + .seconds(20)
        var started = false
        while !started, ContinuousClock.now < deadline {
            if case .started? = voice.nextEvent(timeout: .milliseconds(100)) { started = true }
        }
        #expect(started, "the note did not start")
        #expect(rig.player.snapshot().isHeld)
        voice.skip()
        let seen = events(voice, until: .focusReleased)
        #expect(seen.last == .focusReleased)
        #expect(!rig.player.snapshot().isHeld, "the episode is still held")
        #expect(voice.isIdle)
        _ = await rig.finishPlayed()
    }

    @Test func aNoteAtAnotherRateAndChannelCountPlaysBetweenExactEpisodeParts() async throws {
        let episode = noise(2.5, seed: 33)
        let note = noise(0.8, rate: 24_000, channels: 1, seed: 34)
        let (rig, voice) = try await voiceRig(serving: ["episode.wav": episode.bytes, "note24.wav": note.bytes])
        defer { rig.stop() }
        defer { voice.stop() }

        try rig.play("episode.wav", untilHeard: 0.8)
        voice.enqueue(try rig.location("note24.wav"), title: "note")
        guard let k = heldFrame(events(voice, until: .focusReleased)) else { return }
        rig.player.waitForEnd()

        let captured = await rig.finishPlayed()
        let head = Array(episode.samples16[0..<k * 2])
        let tail = Array(episode.samples16[(k * 2)...])
        #expect(captured.count >= head.count + tail.count)
        #expect(Array(captured.prefix(head.count)) == head, "the episode before the note is not exact")
        #expect(Array(captured.suffix(tail.count)) == tail, "the episode after the note is not exact")
        let noteFrames = (captured.count - head.count - tail.count) / 2
        let noteSeconds = Double(noteFrames) / Double(Self.rate)
        #expect(abs(noteSeconds - 0.8) <= 0.010, "the note lasted \(noteSeconds) s in the capture")
    }

    /// The episode is a 440 Hz tone and the note 1500 Hz: their levels are told apart by frequency.
    @Test func duckLowersTheEpisodeTwelveDecibelsWithRampsAndRestoresIt() async throws {
        let (rig, voice) = try await voiceRig(serving: [
            "tone.wav": Tone.wav(frequency: 440, seconds: 4, rate: Self.rate, channels: 2, amplitude: 0.25),
            "note.wav": Tone.wav(frequency: 1500, seconds: 1.5, rate: 24_000, channels: 1, amplitude: 0.25),
        ], focus: .duck(decibels: -12))
        defer { rig.stop() }
        defer { voice.stop() }

        try rig.play("tone.wav", untilHeard: 1.0)
        voice.enqueue(try rig.location("note.wav"), title: "note")
        _ = events(voice, until: .focusReleased)
        rig.player.waitForEnd()
        rig.player.stop()

        let captured = AudioCompare.trimmingSilentFrames(await rig.capture.finishInt16(), channels: 2)
        guard let episode = DuckedEpisode(captured: captured, rate: Self.rate) else { return }
        let levels = episode.levels
        let full = episode.before
        let ducked = episode.ducked(lowestShare: 6)
        let after = episode.after
        #expect(abs((ducked - full) - -12) <= 1, "ducked by \(ducked - full) dB")
        #expect(abs(after - full) <= 1, "back to \(after - full) dB after the note")
        // No step between 20 ms windows larger than the ramp allows (0.6 dB per 10 ms step).
        let jumps = zip(levels, levels.dropFirst()).map { abs($1 - $0) }
        #expect(jumps.max() ?? 0 <= 3, "largest level step \(jumps.max() ?? 0) dB")
        // The ramps are there: the level passes through the middle (-6 dB ± 3) on the way down.
        #expect(levels.contains { ($0 - full) < -3 && ($0 - full) > -9 }, "no ramp: the level jumped")
    }

    @Test func notesArrivingTogetherPlayInOrderAndAPausedEpisodeStaysPaused() async throws {
        let episode = noise(3, seed: 35)
        let first = noise(0.5, seed: 36)
        let second = noise(0.5, seed: 37)
        let (rig, voice) = try await voiceRig(serving: ["episode.wav": episode.bytes, "first.wav": first.bytes, "second.wav": second.bytes])
        defer { rig.stop() }
        defer { voice.stop() }
        let player = rig.player

        try rig.play("episode.wav", untilHeard: 1.0)
        voice.enqueue(try rig.location("first.wav"), title: "first")
        voice.enqueue(try rig.location("second.wav"), title: "second")
        // The listener pauses the episode while the first note plays.
        player.pause()
        let seen = events(voice, until: .focusReleased)
        #expect(seen.filter { if case .started = $0 { return true } else { return false } }.count == 2)
        #expect(seen.contains(.finished(title: "first")))
        #expect(seen.firstIndex(of: .finished(title: "first"))! < seen.firstIndex(of: .finished(title: "second"))!)
        _ = player.nextEvent(timeout: .milliseconds(300))
        let snapshot = player.snapshot()
        #expect(snapshot.state == .paused, "a paused episode must stay paused after the notes")
        #expect(!snapshot.isHeld)
        player.resume()
        player.waitForEnd()

        let captured = await rig.finishPlayed()
        guard let k = heldFrame(seen) else { return }
        let expected = Array(episode.samples16[0..<k * 2]) + first.samples16 + second.samples16 + Array(episode.samples16[(k * 2)...])
        #expect(captured == expected, "\(AudioCompare.describeDifference(expected: expected, actual: captured, channels: 2))")
    }
}
