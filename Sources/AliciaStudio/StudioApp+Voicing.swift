import AliciaAudio
import AliciaBackend
import AliciaLibrary
import AliciaSession

/// A playlist's items still being voiced ("warming"), in the Studio: voiced on a thread of their
/// own, in the playlist's order, each appended to the queue (and played, when nothing else is) the
/// moment its first chunk is there, then growing as the rest are voiced (`SpeechVoicing`). The
/// Studio never waits for them; an item that cannot be voiced is one status line.
extension StudioApp {
    package func voiceWarming(_ playlist: Playlist, configuration: BackendConfiguration) {
        let warming = playlist.items.filter { $0.chunks.isEmpty }
        guard !warming.isEmpty else { return }
        setStatus("voicing \(warming.count) item\(warming.count == 1 ? "" : "s") of \(playlist.name): each plays once its first chunk is there")
        let inbox = self.inbox
        let quitting = self.quitting
        let name = playlist.name
        onBackendThread("alicia-voicing", configuration: configuration) { client throws(BackendError) in
            for item in warming {
                guard !quitting.isSet else { return }
                guard let body = item.body, !body.isEmpty else {
                    inbox.withLock { $0.error = "\(name): \(item.title) has nothing to voice (skipped)" }
                    continue
                }
                let voiced = SpeechVoicing.item(SpeechVoicing.Request(title: item.title, body: body), title: item.title, reference: "playlist:" + name, client: client,
                                                stop: { quitting.isSet }, announce: false) { line in
                    inbox.withLock { $0.error = line.hasPrefix("warning: ") ? String(line.dropFirst("warning: ".count)) : line }
                }
                switch voiced {
                case .success(var queued):
                    queued.positionKey = PlaylistItems.positionKey(of: item)
                    inbox.withLock { $0.voiced.append(queued) }
                case .failure(let problem):
                    inbox.withLock { $0.error = "\(name): \(problem.message) (skipped)" }
                }
            }
        } failed: { error in
            inbox.withLock { $0.error = "\(name): \(error.message)" }
        }
    }

    /// Items voiced since the last turn: to the end of the queue, played when nothing plays.
    package func queueVoiced(_ items: [QueueItem]) {
        for item in items {
            _ = session.perform(.load(LoadPlan([item], mode: .appendPlay)))
            if model.nowPlaying == nil { model.nowPlaying = nowPlaying(item) }
            setStatus("\(item.title) is voiced: queued")
        }
    }
}
