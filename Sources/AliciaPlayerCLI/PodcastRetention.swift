#if canImport(Glibc)
import Glibc
#endif
import AliciaBackend
import AliciaCache
import AliciaLibrary
import AliciaLocks
import AliciaStore

/// What `refresh --download N` leaves downloaded of each show, as podcast apps keep it: at most
/// `keep` episodes a show, the newest (the config file's `keep`; unset, none is removed for their
/// count: a download made by hand stays), and none played more than `delete_played_after` days ago
/// (unset: played ones stay). Pinned downloads (`download --pin`) and files a player holds stay.
struct PodcastRetention {
    var keep: Int?
    var playedAfterDays: Int?

    /// The rule the config file's keys make; a key that is not a number is said once and left out.
    static func configured() -> PodcastRetention {
        let environment = BackendSession.environment()
        var rule = PodcastRetention(keep: nil, playedAfterDays: nil)
        if let text = ConfigurationLoader.fileValue("keep", environment: environment) {
            if let keep = Int(text), (1...100).contains(keep) { rule.keep = keep } else {
                Console.fail("warning: keep = \(text) in the config file is not a count from 1 to 100: no download is removed for its count")
            }
        }
        if let text = ConfigurationLoader.fileValue("delete_played_after", environment: environment) {
            let days = Int(text.hasSuffix("d") ? String(text.dropLast()) : text)
            if let days, (0...3650).contains(days) { rule.playedAfterDays = days } else {
                Console.fail("warning: delete_played_after = \(text) in the config file is not a number of days: played downloads stay")
            }
        }
        return rule
    }

    /// The downloads of `rows` (one show's episodes, newest first, with their positions and cache
    /// paths) that go: past the newest `keep`, or played longer ago than the days allow.
    func leaving(_ rows: [EpisodeListing], nowMS: Int64) -> [EpisodeListing] {
        var kept = 0
        var going: [EpisodeListing] = []
        for row in rows where row.downloadPath != nil {
            let playedLongAgo = playedAfterDays.map { days in
                row.isPlayed && (row.position?.updatedMS ?? nowMS) <= nowMS - Int64(days) * 86_400_000
            } ?? false
            if playedLongAgo || keep.map({ kept >= $0 }) == true {
                going.append(row)
            } else {
                kept += 1
            }
        }
        return going
    }

    /// Removes what `leaving` names from `cache`, pinned ones aside; one line each unless `quiet`.
    func apply(_ rows: [EpisodeListing], cache: MediaCache, quiet: Bool) {
        guard keep != nil || playedAfterDays != nil else { return }
        let entries = Dictionary(cache.entries().map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        // To the millisecond, as the positions store keeps `updated`: whole seconds would leave a
        // download played a moment ago for `delete_played_after = 0`.
        for row in leaving(rows, nowMS: Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000) {
            guard let entry = entries[row.positionKey], !entry.pinned else { continue }
            if case .removed = cache.remove(entry), !quiet { Console.out("removed the download of \(row.showTitle): \(row.title)\n") }
        }
    }
}
