/// The demo backend's episodes and voice notes, all synthesized (no audio is stored anywhere).
struct DemoLibrary: Sendable {
    let episodes: [DemoEpisode]

    /// The shipped library (see `DemoLibrary+Episodes.swift`).
    static let standard = DemoLibrary(episodes: DemoLibrary.standardEpisodes)

    /// The sound behind `/api/audio/<name>`: an episode's audio, or voice note `voice-N.wav` for
    /// 1 ≤ N ≤ `latestVoiceNote` (the notes the chat has handed out so far, and the history before it).
    func sound(forAudio name: String, latestVoiceNote: Int) -> (any SoundSource)? {
        guard name.hasSuffix(".wav") else { return nil }
        let base = String(name.dropLast(4))
        if let episode = episodes.first(where: { $0.audioName == base }) {
            return episode.sound
        }
        if let chunk = DemoPlaylists.chunkSound(named: base) { return chunk }
        let prefix = "voice-"
        let digits = base.dropFirst(prefix.count)
        // One spelling per note: no sign, no leading zeros.
        guard base.hasPrefix(prefix), let number = Int(digits), String(number) == digits,
            (1...max(1, latestVoiceNote)).contains(number)
        else { return nil }
        return VoiceNoteSound(number: number)
    }

    func episode(label: String) -> DemoEpisode? {
        episodes.first { $0.label == label }
    }
}
