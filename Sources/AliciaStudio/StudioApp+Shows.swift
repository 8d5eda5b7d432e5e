import AliciaBackend
import AliciaLibrary
import AliciaSession
import AliciaStore

/// The listener's subscribed shows in the Studio: a shelf each after Alicia's, headed by the show's
/// title and how many of its episodes are new, holding its newest episodes marked new, played or
/// where they were left. An entry plays as `play "SHOW: TITLE"` would (`FeedEpisodeItems`).
extension StudioApp {
    /// How a show's episode is told from Alicia's in the list: `show:` and its reference.
    package static let showEpisodePrefix = "show:"

    /// Episodes a shelf shows at most, newest first (`episodes SHOW` lists them all).
    static let showShelfLength = 20

    /// The shelves as list entries; none without a library database or subscriptions.
    package func showEntries() -> [AliciaBackend.Episode] {
        guard let store = FeedEpisodeItems.openStore(), let shows = try? store.shows() else { return [] }
        var entries: [AliciaBackend.Episode] = []
        for show in shows {
            guard let rows = try? store.episodes(.show(show.id), limit: Self.showShelfLength) else { continue }
            let heading = show.metadata.title + (show.newCount > 0 ? " · \(show.newCount) new" : "")
            for row in rows where row.url != nil {
                entries.append(AliciaBackend.Episode(title: row.title, mood: mood(of: row), duration: Double(row.duration ?? 0),
                                       symbol: "dot.radiowaves.left.and.right",
                                       fileName: Self.showEpisodePrefix + "\(show.metadata.title): \(row.title)",
                                       series: show.metadata.title, collection: "show:\(show.id)", collectionTitle: heading))
            }
        }
        return entries
    }

    /// `new`, `played`, `at 12:03` (as positions keep it), else the date it came out.
    private func mood(of row: EpisodeListing) -> String {
        if let saved = session.positions?.position(for: row.positionKey) {
            if saved.played { return "played" }
            if saved.position > 0 { return "at " + TimeSpec.clock(saved.position) }
        }
        if row.isNew { return "new" }
        return row.published.map { ISO8601UTC.day(Int($0)) } ?? ""
    }

    /// The reference a list entry stands for, if it is a show's episode.
    package func showEpisode(for entry: Library.Entry) -> String? {
        guard let fileName = entry.episode.fileName, fileName.hasPrefix(Self.showEpisodePrefix) else { return nil }
        return String(fileName.dropFirst(Self.showEpisodePrefix.count))
    }

    /// Plays a show's episode: the queue becomes it (its chapters and transcript fetched first).
    package func playShowEpisode(_ reference: String) {
        switch FeedEpisodeItems.find(reference) {
        case .success(let item)?:
            session.perform(.load(LoadPlan([item])))
            model.nowPlaying = nowPlaying(item)
        case .failure(let problem)?: setStatus(problem.message, error: true)
        case nil: setStatus("\(reference) is no longer in your shows", error: true)
        }
    }
}
