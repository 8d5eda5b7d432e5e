#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaLocks
import AliciaSession

/// Alicia's playlists as queues: which one a reference names, and its items (episodes by label,
/// syntheses as one item of their chunks, warming ones voiced first).
package enum PlaylistItems {
    /// The playlist `reference` names: its name (any case), a unique piece of it, or its index.
    package static func find(_ reference: String, in playlists: [Playlist]) -> Result<Playlist, QueueFile.Problem> {
        if let index = Int(reference), playlists.indices.contains(index - 1) { return .success(playlists[index - 1]) }
        let wanted = reference.lowercased()
        if let exact = playlists.first(where: { $0.name.lowercased() == wanted }) { return .success(exact) }
        let matches = playlists.filter { $0.name.lowercased().contains(wanted) }
        if matches.count == 1 { return .success(matches[0]) }
        let names = playlists.map(\.name).joined(separator: ", ")
        if matches.isEmpty { return .failure(.init(line: nil, "no playlist matches '\(reference)' (the playlists: \(names.isEmpty ? "none" : names))")) }
        return .failure(.init(line: nil, "'\(reference)' matches \(matches.count) playlists (\(matches.map(\.name).joined(separator: ", "))); say which"))
    }

    /// The queue items of `playlist`: episodes by their label, syntheses as one item of their
    /// chunks, warming ones voiced first: played from their first chunk, growing as the rest are
    /// voiced (`SpeechVoicing`). Items that cannot be voiced are skipped, with a warning.
    package static func items(of playlist: Playlist, backend: BackendSession, voiceWarming: Bool = true,
                      stop: () -> Bool = { false }) -> Result<[QueueItem], QueueFile.Problem> {
        var items: [QueueItem] = []
        for item in playlist.items {
            if item.chunks.isEmpty && !voiceWarming { continue }
            if item.chunks.isEmpty {
                guard let body = item.body, !body.isEmpty else {
                    Console.fail("warning: \(playlist.name): \(item.title) has nothing to voice (skipped)")
                    continue
                }
                switch SpeechVoicing.item(SpeechVoicing.Request(title: item.title, body: body), title: item.title, reference: "playlist:" + playlist.name, client: backend.client, stop: stop) {
                case .success(var voiced):
                    voiced.positionKey = positionKey(of: item)
                    items.append(voiced)
                case .failure(let problem): Console.fail("warning: \(playlist.name): \(problem.message) (skipped)")
                }
                continue
            }
            let chunks = item.chunks
            let locations = chunks.compactMap { backend.client.mediaLocation(for: $0.url) }
            guard let first = locations.first, locations.count == chunks.count else {
                return .failure(.init(line: nil, "\(playlist.name): \(item.title) has a chunk path that is not a URL"))
            }
            if item.isEpisode, let label = item.source {
                let streamed = QueueItem(location: first, title: item.title, label: label,
                                         positionKey: PositionStore.key(label: label, location: first), reference: label)
                var known = streamed
                known.duration = item.duration > 0 ? item.duration : nil
                items.append(OfflineCache.substitute(known, key: label, mediaPath: chunks[0].url))
            } else {
                var queued = QueueItem(location: first, title: item.title, positionKey: positionKey(of: item), reference: "playlist:" + playlist.name)
                queued.moreParts = Array(locations.dropFirst())
                queued.duration = item.duration > 0 ? item.duration : nil
                // Her words as they are read (the chunks' word cues, else her text split by its chunks):
                // follow-along with no transcript file.
                queued.transcript = SpeechTranscript.cues(chunks: chunks, text: item.body)
                items.append(OfflineCache.substitute(chunks: chunks.map(\.url), of: queued))
            }
        }
        return .success(items)
    }

    /// Under what a synthesis's position is kept: its item id, as an episode's is its label, so it
    /// resumes however its chunks are listed (voiced as it played, then all there).
    package static func positionKey(of item: PlaylistItem) -> String { "synthesis:" + item.id }

    /// Where an item stands: `downloaded` (every file of it in the cache), `ready` (it can stream
    /// now) or `warming` (still being voiced).
    package static func state(of item: PlaylistItem) -> String {
        guard item.isReady else { return "warming" }
        let cached = item.isEpisode
            ? OfflineCache.isCached(key: item.source, mediaPath: item.chunks[0].url)
            : item.chunks.allSatisfy { OfflineCache.isCached(key: $0.url, mediaPath: $0.url) }
        return cached ? "downloaded" : "ready"
    }
}
