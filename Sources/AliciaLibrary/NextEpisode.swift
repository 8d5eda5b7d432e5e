import AliciaBackend
import AliciaSession

/// The app's "Next episode" (alicia-api.md, "How the app's Studio plays"): after the episode heard
/// last, the next (season, episode) of the same series, or the next episode number of the same
/// named collection; the one heard last is the newer of the player's own record (its resume
/// positions) and the backend's `latest_playback`.
package enum NextEpisode {
    /// The reference `play`, scripts and the socket take for it.
    package static let reference = "next"

    /// The episode after `heard` by the app's rule, with audio; nil when there is none.
    package static func after(_ heard: Episode, in episodes: [Episode]) -> Episode? {
        let playable = episodes.filter { $0.hasAudio && $0.label != heard.label }
        if isNamedRun(heard), let number = heard.episode {
            return playable.filter { $0.collection == heard.collection && ($0.episode ?? Int.min) > number }
                .min { ($0.episode ?? 0) < ($1.episode ?? 0) }
        }
        guard let number = heard.episode else { return nil }
        let series = playable.filter { $0.series == heard.series && !isNamedRun($0) && $0.episode != nil }
        if let next = series.filter({ $0.season == heard.season && ($0.episode ?? 0) > number }).min(by: { ($0.episode ?? 0) < ($1.episode ?? 0) }) {
            return next
        }
        return series.filter { $0.season > heard.season }.min { ($0.season, $0.episode ?? 0) < ($1.season, $1.episode ?? 0) }
    }

    /// A collection of its own name (`NIGHTS`), not a season's (`S1`).
    static func isNamedRun(_ episode: Episode) -> Bool { episode.collection != "S\(episode.season)" }

    /// The label of the episode heard last: the newest of the positions kept (of the library's
    /// episodes) and the backend's `latest_playback` (its episode id, `episode:LABEL` or the label,
    /// at UNIX seconds `observedAt`).
    package static func lastHeard(positions: [String: SavedPosition], latest: (episodeID: String, observedAt: Double)?,
                                  labels: Set<String>) -> String? {
        let own = positions.filter { labels.contains($0.key) }.max { $0.value.updated < $1.value.updated }
        let theirs = latest.map { (label: $0.episodeID.hasPrefix("episode:") ? String($0.episodeID.dropFirst(8)) : $0.episodeID,
                                   at: $0.observedAt) }
        switch (own, theirs) {
        case let (own?, theirs?): return theirs.at > own.value.updated && labels.contains(theirs.label) ? theirs.label : own.key
        case let (own?, nil): return own.key
        case let (nil, theirs?): return labels.contains(theirs.label) ? theirs.label : nil
        case (nil, nil): return nil
        }
    }

    /// The next episode for this listener: after the one heard last, asked of the backend's
    /// `latest_playback` too (an older backend has none: the player's own record alone).
    package static func find(in library: Library, client: BackendClient, positions: PositionStore?) -> Episode? {
        let episodes = library.entries.map(\.episode)
        let labels = Set(episodes.compactMap(\.label))
        let latest = (try? client.episodeDay(day: nil))?.latestPlayback.map { ($0.episodeID, $0.observedSeconds ?? 0) }
        guard let heard = lastHeard(positions: positions?.all ?? [:], latest: latest, labels: labels),
              let episode = episodes.first(where: { $0.label == heard }) else { return nil }
        return after(episode, in: episodes)
    }
}
