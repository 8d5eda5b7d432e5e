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

extension DemoService {
    /// `POST /api/playlist`: `{"ok": true, "playlists": [...]}` or `{"ok": false, "error": ...}`.
    func playlistAction(_ request: HTTPRequest) -> HTTPReply {
        struct Reply: Encodable {
            var ok: Bool
            var playlists: [DemoPlaylists.Playlist]?
            var error: String?
        }
        let action: DemoPlaylists.Action
        do {
            action = try decodeBody(DemoPlaylists.Action.self, from: request)
        } catch {
            return .error(error.status, error.message)
        }
        let (problem, shelf) = playlists.withLock { lists in (lists.apply(action), lists.playlists) }
        if let problem { return .json(Reply(ok: false, error: problem)) }
        return .json(Reply(ok: true, playlists: shelf))
    }

    /// `POST /api/speak`: `{"status", "chunks", "duration"}`.
    func speak(_ request: HTTPRequest) -> HTTPReply {
        struct Body: Decodable { var text: String; var kind: String? }
        let body: Body
        do {
            body = try decodeBody(Body.self, from: request)
        } catch {
            return .error(error.status, error.message)
        }
        return .json(playlists.withLock { $0.speak(body.text, voicing: faults.voicing) })
    }
}
