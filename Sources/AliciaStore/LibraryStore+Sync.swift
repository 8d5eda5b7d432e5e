/// An episode as a sync server names it: its show's feed URL, its media URL and GUID, and the key
/// its position is kept under here.
package struct SyncReference: Equatable, Sendable {
    package var positionKey: String
    package var episodeURL: String
    package var guid: String
    package var showURL: String
    /// When a refresh first saw it (UNIX seconds), and whether it is still new (unheard, unlisted).
    package var firstSeen: Int64
    package var isNew: Bool

    package init(positionKey: String, episodeURL: String, guid: String, showURL: String, firstSeen: Int64 = 0, isNew: Bool = false) {
        self.positionKey = positionKey
        self.episodeURL = episodeURL
        self.guid = guid
        self.showURL = showURL
        self.firstSeen = firstSeen
        self.isNew = isNew
    }
}

extension LibraryStore {
    /// Every episode that has a media URL, as `SyncReference`s (one query, one index walk).
    package func syncReferences() throws(LibraryError) -> [SyncReference] {
        try rows("""
            SELECT e.position_key, e.url, e.guid, s.url, e.first_seen, e.is_new FROM episodes AS e JOIN shows AS s ON s.id = e.show_id
            WHERE e.url IS NOT NULL
            """) { row in
            SyncReference(positionKey: row.string(at: 0), episodeURL: row.string(at: 1), guid: row.string(at: 2),
                          showURL: row.string(at: 3), firstSeen: row.int64(at: 4), isNew: row.bool(at: 5))
        }
    }
}
