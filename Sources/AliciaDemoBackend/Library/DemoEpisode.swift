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

    var showNotes: String {
        var markdown = "# \(title)\n\n*\(mood)*\n\n\(summary)\n\n"
        for highlight in highlights {
            markdown += "- \(highlight)\n"
        }
        return markdown
    }
}

/// An entry of `GET /api/tracks` (see alicia-api.md): what the episode says of itself, the
/// optional fields left out when it has none; only `title`, `mood`, `duration` and `symbol` are
/// always there, and `fileName` only when it has audio.
extension DemoEpisode: Encodable {
    private enum TrackKeys: String, CodingKey {
        case title, mood, duration, symbol, fileName, season, episode, label, series, collection, collectionTitle
    }

    func encode(to encoder: any Encoder) throws {
        var track = encoder.container(keyedBy: TrackKeys.self)
        try track.encode(title, forKey: .title)
        try track.encode(mood, forKey: .mood)
        try track.encode(duration, forKey: .duration)
        try track.encode(symbol, forKey: .symbol)
        try track.encodeIfPresent(audioName.map { "/api/audio/\($0).wav" }, forKey: .fileName)
        try track.encodeIfPresent(season, forKey: .season)
        try track.encodeIfPresent(episode, forKey: .episode)
        try track.encodeIfPresent(label, forKey: .label)
        try track.encodeIfPresent(series, forKey: .series)
        try track.encodeIfPresent(collection, forKey: .collection)
        try track.encodeIfPresent(collectionTitle, forKey: .collectionTitle)
    }
}
