#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaLocks
import AliciaSession
import AliciaStore

/// Episodes of subscribed shows as queue items: `SHOW: piece of a title`, or a piece of a title,
/// looked up in the library database (`subscribe`, `refresh`). The item plays the enclosure (or its
/// download), keeps
/// its position under the enclosure's URL as any URL does (one resume rule for every episode), and
/// brings the feed's chapters and transcript (`FeedExtras`).
package enum FeedEpisodeItems {
    /// What `reference` names among the subscribed shows' episodes; nil when there is no library
    /// database or nothing in it matches (the reference is someone else's to resolve).
    package static func find(_ reference: String, title: String? = nil) -> Result<QueueItem, QueueFile.Problem>? {
        switch listing(reference) {
        case nil: return nil
        case .failure(let problem)?: return .failure(problem)
        case .success(let (listing, store))?: return item(listing, title: title, store: store)
        }
    }

    /// The one episode `reference` names among the subscribed shows' (and the database it is in);
    /// nil when there is no library database or nothing in it matches.
    package static func listing(_ reference: String) -> Result<(EpisodeListing, LibraryStore), QueueFile.Problem>? {
        guard let store = openStore() else { return nil }
        let found: [EpisodeListing]
        do {
            found = try matches(reference, in: store)
        } catch {
            return .failure(.init(line: nil, error.message))
        }
        guard !found.isEmpty else { return nil }
        let lower = reference.lowercased()
        let exact = found.filter { $0.title.lowercased() == lower || "\($0.showTitle): \($0.title)".lowercased() == lower }
        let chosen = found.count == 1 ? found : exact
        guard chosen.count == 1, let listing = chosen.first else {
            let names = found.prefix(5).map { "\($0.showTitle): \($0.title)" }.joined(separator: "; ")
            return .failure(.init(line: nil, "'\(reference)' names \(found.count) episodes of your shows: \(names)\(found.count > 5 ? "; …" : "")"))
        }
        return .success((listing, store))
    }

    /// `SHOW: piece` (the show's title holding SHOW, the episode's holding piece), else the whole
    /// reference as a piece of a title; only episodes with an enclosure.
    static func matches(_ reference: String, in store: LibraryStore) throws(LibraryError) -> [EpisodeListing] {
        let characters = Array(reference)
        if let colon = characters.indices.first(where: { characters[$0] == ":" && $0 + 1 < characters.count && characters[$0 + 1] == " " }) {
            let show = String(characters[..<colon]).lowercased()
            let piece = String(characters[(colon + 2)...])
            let inShow = try store.episodes(titleContaining: piece).filter { $0.url != nil && $0.showTitle.lowercased().contains(show) }
            if !inShow.isEmpty { return inShow }
        }
        return try store.episodes(titleContaining: reference).filter { $0.url != nil }
    }

    private static func item(_ listing: EpisodeListing, title: String?, store: LibraryStore) -> Result<QueueItem, QueueFile.Problem> {
        guard let url = listing.url, let location = try? MediaLocation(url) else {
            return .failure(.init(line: nil, "'\(listing.title)' has no enclosure that can be played"))
        }
        var item = QueueItem(location: location, title: title ?? listing.title, positionKey: listing.positionKey,
                             reference: "\(listing.showTitle): \(listing.title)")
        item.album = listing.showTitle
        item.artist = listing.showTitle
        item.duration = listing.duration.map(Double.init)
        // The episode's image, else the show's (as the feed was read): only http(s), so a remote
        // feed can never point a desktop at a local file.
        if let image = listing.imageURL, image.lowercased().hasPrefix("https://") || image.lowercased().hasPrefix("http://") {
            item.artURL = image
        }
        let details = (try? store.episodeDetails(showID: listing.showID))?[listing.id]
        let language = environment()["LANG"].map { String($0.prefix { $0 != "." && $0 != "@" }) }
        let extras = FeedExtras(cacheDirectory: OfflineCache.environment()["XDG_CACHE_HOME"].map { $0 + "/alicia-player/feeds" }
                                    ?? environment()["HOME"].map { $0 + "/.cache/alicia-player/feeds" })
        if let chapters = details?.chaptersURL { item.chapters = extras.chapters(chapters) }
        if let transcript = FeedExtras.preferredTranscript(details?.transcripts, language: language) {
            item.transcript = extras.transcript(transcript.url, type: transcript.type)
        }
        // Downloaded (`download`, `refresh --download N`): it plays from the cache, offline too.
        return .success(OfflineCache.substitute(item, key: listing.positionKey, mediaPath: nil))
    }

    /// The library database, when there is one (never made here); nil else.
    package static func openStore() -> LibraryStore? {
        guard let path = LibraryStore.defaultPath(environment: environment()), access(path, F_OK) == 0 else { return nil }
        return try? LibraryStore(path: path)
    }

    static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for key in ["XDG_DATA_HOME", "HOME", "LANG"] {
            if let value = getenv(key) { values[key] = String(cString: value) }
        }
        return values
    }
}
