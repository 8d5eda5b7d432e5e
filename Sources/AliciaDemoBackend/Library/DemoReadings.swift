/// What Alicia 2.0's reading shelves hold in the demo: the morning briefing, her syntheses (some
/// read aloud beforehand, one to voice with `/api/speak`) and her reflections (one read, one still
/// rendering). Chunks are the synthesized 24 kHz hums of `/api/audio/chunk-<id>-<n>.wav`; the
/// briefing's audio is one WAV at `/api/morning_briefing/audio/<id>.wav` (the real backend serves M4A).
enum DemoReadings {
    static let briefingID = "mb-2025-06-12"
    static let briefingDay = "2025-06-12"
    static let briefingText = "Good morning. It is Thursday, and the kettle is on. Morning Light is waiting, and the Nights run has a new lantern."
    /// The voice-note sound the briefing's audio is made of.
    static let briefingSoundNumber = 9_012

    /// The media path of the briefing's audio.
    static var briefingAudioPath: String { "/api/morning_briefing/audio/\(briefingID).wav" }

    static var briefingSound: VoiceNoteSound { VoiceNoteSound(number: briefingSoundNumber) }

    static func briefing(_ state: DemoBackend.BriefingState) -> DemoAPI.MorningBriefing {
        let sources = [DemoAPI.MorningBriefing.Source(id: "src-1", title: "Season 1 notes", path: "notes/season-1.md",
                                                      excerpt: "Morning Light opens the season."),
                       DemoAPI.MorningBriefing.Source(id: "src-2", title: "Lanterns", path: "syntheses/lanterns.md",
                                                      excerpt: "Small lights, carried.")]
        switch state {
        case .ready:
            let sound = briefingSound
            let duration = Double(sound.frameCount) / Double(sound.sampleRate)
            let chunk = DemoPlaylists.Chunk(url: briefingAudioPath, duration: duration)
            return DemoAPI.MorningBriefing(id: briefingID, day: briefingDay, title: "Thursday, 12 June", text: briefingText, status: "ready",
                                           audio_url: briefingAudioPath, duration: duration, playlist_id: "p1", error: nil, sources: sources,
                                           speech: DemoSpeech.reading([chunk], spokenText: briefingText))
        case .preparing:
            return DemoAPI.MorningBriefing(id: briefingID, day: briefingDay, title: "Thursday, 12 June", text: nil, status: "preparing",
                                           audio_url: nil, duration: nil, playlist_id: nil, error: nil, sources: [], speech: nil)
        case .unavailable:
            return DemoAPI.MorningBriefing(id: nil, day: briefingDay, title: nil, text: nil, status: "unavailable", audio_url: nil,
                                           duration: nil, playlist_id: nil, error: "no briefing today: the demo has not made one",
                                           sources: [], speech: nil)
        }
    }

    static let lanternsText = "Lanterns are small lights you carry. They do not chase the dark away; they keep you company in it."
    static let slowerText = "The answer is slower than you expect, and that is fine. Let the first chord ring out before you decide anything."

    static let syntheses: [DemoAPI.Synthesis] = [
        DemoAPI.Synthesis(title: "A Letter, Read Aloud", date: "2025-06-11", excerpt: "Dear listener…", body: DemoPlaylists.letterText,
                          speech: DemoSpeech.reading(DemoPlaylists.chunks(of: "syn-letter", count: 3), spokenText: DemoPlaylists.letterText)),
        DemoAPI.Synthesis(title: "On Lanterns", date: "2025-06-03", excerpt: "Small lights you carry.", body: lanternsText, speech: nil),
        DemoAPI.Synthesis(title: "Slower Than You Expect", date: "2025-06-01", excerpt: "Let the first chord ring out.", body: slowerText,
                          speech: DemoSpeech.reading(DemoPlaylists.chunks(of: "syn-slower", count: 2), spokenText: slowerText)),
    ]

    static let reflections: [DemoAPI.Reflection] = {
        let morning = "A slow start, and a good one. The kettle, the window, then the plan."
        return [
            DemoAPI.Reflection(id: "rf-2025-06-12-morning", kind: "morning", date: "2025-06-12", text: morning,
                               speech: DemoSpeech.reading(DemoPlaylists.chunks(of: "rf-morning", count: 2), spokenText: morning)),
            DemoAPI.Reflection(id: "rf-2025-06-11-evening", kind: "evening", date: "2025-06-11", text: "Enough for today. The lanterns can wait.",
                               speech: DemoAPI.Reading(status: "rendering", chunks: [], duration: 0)),
        ]
    }()
}
