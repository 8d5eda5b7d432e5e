/// One entry of the demo library: what `/api/tracks` says about it, its show notes and, when it has
/// audio, the sound its WAV is made of.
struct DemoEpisode: Sendable {
    var title: String
    var mood: String
    var symbol: String
    var label: String?
    var season: Int?
    var episode: Int?
    var series: String?
    var collection: String?
    var collectionTitle: String?
    /// The audio's name under `/api/audio/` without `.wav`; nil for an episode with no audio yet.
    var audioName: String?
    var sound: EpisodeSound?
    /// The length announced for an episode without audio.
    var plannedSeconds: Double = 0
    /// Show notes: a paragraph and a few bullet points.
    var summary: String
    var highlights: [String]

    /// Seconds: exactly the WAV's frames over its rate, so a client can check one against the other.
    var duration: Double {
        sound.map { Double($0.frameCount) / Double($0.sampleRate) } ?? plannedSeconds
    }

    var track: DemoAPI.Track {
        DemoAPI.Track(
            title: title,
            mood: mood,
            duration: duration,
            symbol: symbol,
            fileName: audioName.map { "/api/audio/\($0).wav" },
            season: season,
            episode: episode,
            label: label,
            series: series,
            collection: collection,
            collectionTitle: collectionTitle
        )
    }

    var showNotes: String {
        var markdown = "# \(title)\n\n*\(mood)*\n\n\(summary)\n\n"
        for highlight in highlights {
            markdown += "- \(highlight)\n"
        }
        return markdown
    }
}
