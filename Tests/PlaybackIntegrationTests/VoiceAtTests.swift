import AliciaTestSupport
import Testing

/// `play --voice-at T=URL`: the scriptable trigger of the voice-note player.
@Suite("play --voice-at")
struct VoiceAtTests {
    static let episode = WAVFixture(seconds: 2.5, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xE915)
    static let note = WAVFixture(seconds: 0.6, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0x107E)

    /// Frames of `samples` (stereo) that are not silent.
    static func audible(_ samples: [Int16]) -> [Int16] {
        var kept: [Int16] = []
        for frame in stride(from: 0, to: samples.count - 1, by: 2) where samples[frame] != 0 || samples[frame + 1] != 0 {
            kept += [samples[frame], samples[frame + 1]]
        }
        return kept
    }

    @Test("the note plays at T and the episode resumes at the exact frame where it was held")
    func pauseFocus() async throws {
        let server = try NginxServer()
        try server.serve(Self.episode, as: "episode.wav")
        try server.serve(Self.note, as: "note.wav")
        let (result, captured) = try await Playback.playCapturing16(
            server.url("/media/episode.wav"), ["--voice-at", "1=" + server.url("/media/note.wav")])
        expectSuccess(result)
        let audio = Self.audible(captured)
        let episode = Self.episode.samples16
        let note = Self.note.samples16
        #expect(audio.count == episode.count + note.count, "\(audio.count / 2) frames, expected \(episode.count / 2 + note.count / 2)")
        // k: where the note begins; the capture must be episode[0..<k] ++ note ++ episode[k...].
        guard let k = (0...(episode.count / 2)).first(where: { k in
            audio.count > k * 2 + 8 && audio[(k * 2)..<(k * 2 + 8)].elementsEqual(note[0..<8])
        }) else {
            Issue.record("the note is not in the capture")
            return
        }
        #expect(k >= 48_000 && k <= 48_000 + 4_800, "the note began at frame \(k), not at about 1 s")
        let expected = Array(episode[0..<(k * 2)]) + note + Array(episode[(k * 2)...])
        #expect(audio == expected, "\(AudioCompare.describeDifference(expected: expected, actual: audio, channels: 2))")
    }
}
