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

    @Test func pauseHoldsTheEpisodeAtItsExactFrameAndResumesThere() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let episode = WAVFixture(seconds: 3, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 31)
        let note = WAVFixture(seconds: 1, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 32)
        try server.serve(episode, as: "episode.wav")
        try server.serve(note, as: "note.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let player = Player(configuration: PlayerConfiguration(device: capture.sinkName))
        let voice = VoiceNotes(episode: player, configuration: PlayerConfiguration(device: capture.sinkName), focus: .pause)
        defer { voice.stop() }

        try player.play(MediaLocation(server.url("/media/episode.wav")))
        player.waitForPosition(atLeast: 1.0)
        voice.enqueue(try MediaLocation(server.url("/media/note.wav")), title: "note")
        let seen = events(voice, until: .focusReleased)
        guard case .started(_, let heldAt?) = seen.first else {
            Issue.record("no held frame reported: \(seen)")
            return
        }
        #expect(seen.contains(.finished(title: "note")))
        player.waitForEnd()
        player.stop()

        let k = Int(heldAt)
        let captured = withoutSilentFrames(await capture.finishInt16())
        let expected = Array(episode.samples16[0..<k * 2]) + note.samples16 + Array(episode.samples16[(k * 2)...])
        #expect(k >= Self.rate && k < episode.frameCount)
        #expect(captured == expected, "\(AudioCompare.describeDifference(expected: expected, actual: captured, channels: 2))")
    }

    /// Guards issue 17: skipping the last note stopped it but never gave the episode its focus back,
    /// so the episode stayed held.
    @Test func skippingTheLastNoteGivesTheEpisodeItsFocusBack() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let episode = WAVFixture(seconds: 20, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 35)
        let note = WAVFixture(seconds: 10, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 36)
        try server.serve(episode, as: "episode.wav")
        try server.serve(note, as: "note.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let player = Player(configuration: PlayerConfiguration(device: capture.sinkName))
        let voice = VoiceNotes(episode: player, configuration: PlayerConfiguration(device: capture.sinkName), focus: .pause)
        defer { voice.stop() }
        try player.play(MediaLocation(server.url("/media/episode.wav")))
        player.waitForPosition(atLeast: 0.5)
        voice.enqueue(try MediaLocation(server.url("/media/note.wav")), title: "note")
        let deadline = ContinuousClock.now + .seconds(20)
        var started = false
        while !started, ContinuousClock.now < deadline {
            if case .started? = voice.nextEvent(timeout: .milliseconds(100)) { started = true }
        }
        #expect(started, "the note did not start")
        #expect(player.snapshot().isHeld)
        voice.skip()
        let seen = events(voice, until: .focusReleased)
        #expect(seen.last == .focusReleased)
        #expect(!player.snapshot().isHeld, "the episode is still held")
        #expect(voice.isIdle)
        player.stop()
        _ = await capture.finish()
    }

    @Test func aNoteAtAnotherRateAndChannelCountPlaysBetweenExactEpisodeParts() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let episode = WAVFixture(seconds: 2.5, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 33)
        let note = WAVFixture(seconds: 0.8, sampleRate: 24_000, channels: 1, format: .pcm16, seed: 34)
        try server.serve(episode, as: "episode.wav")
        try server.serve(note, as: "note24.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let player = Player(configuration: PlayerConfiguration(device: capture.sinkName))
        let voice = VoiceNotes(episode: player, configuration: PlayerConfiguration(device: capture.sinkName), focus: .pause)
        defer { voice.stop() }

        try player.play(MediaLocation(server.url("/media/episode.wav")))
        player.waitForPosition(atLeast: 0.8)
        voice.enqueue(try MediaLocation(server.url("/media/note24.wav")), title: "note")
        let seen = events(voice, until: .focusReleased)
        guard case .started(_, let heldAt?) = seen.first else {
            Issue.record("no held frame reported: \(seen)")
            return
        }
        player.waitForEnd()
        player.stop()

        let k = Int(heldAt)
        let captured = withoutSilentFrames(await capture.finishInt16())
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
        let server = try NginxServer()
        defer { server.stop() }
        try server.serve(Tone.wav(frequency: 440, seconds: 4, rate: Self.rate, channels: 2, amplitude: 0.25), as: "tone.wav")
        try server.serve(Tone.wav(frequency: 1500, seconds: 1.5, rate: 24_000, channels: 1, amplitude: 0.25), as: "note.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let player = Player(configuration: PlayerConfiguration(device: capture.sinkName))
        let voice = VoiceNotes(episode: player, configuration: PlayerConfiguration(device: capture.sinkName), focus: .duck(decibels: -12))
        defer { voice.stop() }

        try player.play(MediaLocation(server.url("/media/tone.wav")))
        player.waitForPosition(atLeast: 1.0)
        voice.enqueue(try MediaLocation(server.url("/media/note.wav")), title: "note")
        _ = events(voice, until: .focusReleased)
        player.waitForEnd()
        player.stop()

        let captured = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 2)
        let window = Self.rate / 50  // 20 ms
        let levels = stride(from: 0, to: captured.count / 2 - window, by: window).map {
            Tone.level(captured, channels: 2, from: $0, frames: window, frequency: 440, rate: Self.rate)
        }
        guard levels.count > 150 else {
            Issue.record("capture too short: \(levels.count) windows")
            return
        }
        let full = levels[5..<40].sorted()[17]
        let ducked = levels.sorted()[levels.count / 6]
        let after = levels[(levels.count - 30)..<(levels.count - 5)].sorted()[12]
        #expect(abs((ducked - full) - -12) <= 1, "ducked by \(ducked - full) dB")
        #expect(abs(after - full) <= 1, "back to \(after - full) dB after the note")
        // No step between 20 ms windows larger than the ramp allows (0.6 dB per 10 ms step).
        let jumps = zip(levels, levels.dropFirst()).map { abs($1 - $0) }
        #expect(jumps.max() ?? 0 <= 3, "largest level step \(jumps.max() ?? 0) dB")
        // The ramps are there: the level passes through the middle (-6 dB ± 3) on the way down.
        #expect(levels.contains { ($0 - full) < -3 && ($0 - full) > -9 }, "no ramp: the level jumped")
    }

    @Test func notesArrivingTogetherPlayInOrderAndAPausedEpisodeStaysPaused() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let episode = WAVFixture(seconds: 3, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 35)
        let first = WAVFixture(seconds: 0.5, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 36)
        let second = WAVFixture(seconds: 0.5, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 37)
        try server.serve(episode, as: "episode.wav")
        try server.serve(first, as: "first.wav")
        try server.serve(second, as: "second.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let player = Player(configuration: PlayerConfiguration(device: capture.sinkName))
        let voice = VoiceNotes(episode: player, configuration: PlayerConfiguration(device: capture.sinkName), focus: .pause)
        defer { voice.stop() }

        try player.play(MediaLocation(server.url("/media/episode.wav")))
        player.waitForPosition(atLeast: 1.0)
        voice.enqueue(try MediaLocation(server.url("/media/first.wav")), title: "first")
        voice.enqueue(try MediaLocation(server.url("/media/second.wav")), title: "second")
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
        player.stop()

        guard case .started(_, let heldAt?) = seen.first else {
            Issue.record("no held frame: \(seen)")
            return
        }
        let k = Int(heldAt)
        let captured = withoutSilentFrames(await capture.finishInt16())
        let expected = Array(episode.samples16[0..<k * 2]) + first.samples16 + second.samples16 + Array(episode.samples16[(k * 2)...])
        #expect(captured == expected, "\(AudioCompare.describeDifference(expected: expected, actual: captured, channels: 2))")
    }
}
