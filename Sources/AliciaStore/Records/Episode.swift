/// One episode as stored, every field (for its page: notes, chapters, transcripts).
package struct Episode: Equatable, Sendable {
    package var id: Int64
    package var showID: Int64
    /// `positionKey` is always set here: the key the row was stored with.
    package var info: EpisodeInfo
    /// When a refresh first saw it, UNIX seconds.
    package var firstSeen: Int64
    package var isNew: Bool
}
