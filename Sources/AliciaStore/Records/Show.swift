/// A subscribed show as stored, with its episode counts.
package struct Show: Equatable, Sendable {
    package var id: Int64
    /// The feed's URL now, after any moves.
    package var url: String
    package var metadata: ShowMetadata
    /// The validators the next refresh sends (`If-None-Match`, `If-Modified-Since`).
    package var etag: String?
    package var lastModified: String?
    /// When a refresh last finished, UNIX seconds; nil before the first.
    package var lastChecked: Int64?
    /// Why the last refresh failed; nil when it did not.
    package var lastError: String?
    /// UNIX seconds.
    package var addedAt: Int64
    package var episodeCount: Int
    package var newCount: Int
}
