extension DemoService {
    /// `GET /api/proactive?limit=N`: the newest N messages (default 20).
    func proactive(_ request: HTTPRequest) -> HTTPReply {
        var limit = 20
        if let text = request.query["limit"] {
            guard let value = Int(text), value >= 0 else {
                return .error(400, "limit must be a whole number of 0 or more, not \(text)")
            }
            limit = value
        }
        return .json(ProactiveFeed.latest(limit))
    }

    /// `GET /api/episode/<label>`: the episode's show notes.
    func episodeNotes(_ label: String) -> HTTPReply {
        guard let episode = library.episode(label: label) else {
            return .error(404, "no episode labelled \(label)")
        }
        return .json(DemoAPI.EpisodeNotes(label: label, markdown: episode.showNotes))
    }
}
