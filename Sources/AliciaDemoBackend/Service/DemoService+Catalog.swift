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
        let dialect = self.dialect
        return .json(conversation.withLock { $0.proactive.latest(limit, in: dialect) })
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
        return withBody(DemoPlaylists.Action.self, of: request) { action in
            let (problem, lists) = playlists.withLock { lists in (lists.apply(action), lists.playlists) }
            if let problem { return .json(Reply(ok: false, error: problem)) }
            return .json(Reply(ok: true, playlists: shelf(lists)))
        }
    }

    /// The playlists as served: with `foreignMedia`, episodes' audio as the phone's absolute URLs.
    func shelf(_ lists: [DemoPlaylists.Playlist]) -> [DemoPlaylists.Playlist] {
        guard let foreignMedia else { return lists }
        return lists.map { list in
            var list = list
            for index in list.items.indices where list.items[index].kind == "episode" {
                guard var speech = list.items[index].speech else { continue }
                speech.chunks = speech.chunks.map { chunk in
                    var chunk = chunk
                    chunk.url = foreignMedia.absolute(chunk.url)
                    return chunk
                }
                list.items[index].speech = speech
            }
            return list
        }
    }

    /// `POST /api/speak`: `{"status", "chunks", "duration"}`, and in v2 the chunks' words and cues,
    /// `spoken_text`, `timing_status` and `speech_backend`. Takes the older body `{text, kind}` and
    /// the app's `{text: "<title>.\n\n<body>", kind, required_backend}` alike.
    func speak(_ request: HTTPRequest) -> HTTPReply {
        struct Body: Decodable { var text: String; var kind: String?; var required_backend: String? }
        return withBody(Body.self, of: request) { body in
            let reply = playlists.withLock { $0.speak(body.text, voicing: faults.voicing) }
            guard dialect == .v2 else { return .json(reply) }
            return .json(DemoSpeech.annotated(reply, spokenText: body.text, backend: body.required_backend))
        }
    }
}
