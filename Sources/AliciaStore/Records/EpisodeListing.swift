/// One row of an episode list: what a list shows, with where it was left and whether it is
/// downloaded (no notes or summary: those are `LibraryStore.episode(id:)`'s).
package struct EpisodeListing: Equatable, Sendable {
    package var id: Int64
    package var showID: Int64
    package var showTitle: String
    package var guid: String
    package var title: String
    package var url: String?
    /// UNIX seconds.
    package var published: Int64?
    /// Seconds.
    package var duration: Int64?
    package var imageURL: String?
    package var isNew: Bool
    package var positionKey: String
    /// Its row in `positions`, when it has one (played or not).
    package var position: PositionRecord?
    /// The downloaded file's path, when the cache has it.
    package var downloadPath: String?

    package var isPlayed: Bool { position?.played ?? false }
    /// New as lists show it: found by a refresh after the show was subscribed, and never started.
    package var isUnheardNew: Bool { isNew && position == nil }
}
