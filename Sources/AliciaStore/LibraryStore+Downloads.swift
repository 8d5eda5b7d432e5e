/// The download cache's index: what `MediaCache` has on disk, by key, so that lists can show what
/// is downloaded in the query that lists them. `MediaCache` stays the owner of the files and the
/// truth about them: it writes here after a file is renamed into place and before one is removed.
extension LibraryStore {
    private static let downloadColumns = "SELECT key, url, path, bytes, completed_ms, title, pinned FROM downloads"

    /// Notes (or replaces) the completed download of `record.key`.
    package func recordDownload(_ record: DownloadRecord) throws(LibraryError) {
        try guarded { () throws(SQLiteError) in
            try database.run("""
                INSERT INTO downloads (key, url, path, bytes, completed_ms, title, pinned) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                ON CONFLICT(key) DO UPDATE SET url = excluded.url, path = excluded.path, bytes = excluded.bytes,
                    completed_ms = excluded.completed_ms, title = excluded.title, pinned = excluded.pinned
                """) { statement throws(SQLiteError) in
                try statement.bind(record.key, at: 1)
                try statement.bind(record.url, at: 2)
                try statement.bind(record.path, at: 3)
                try statement.bind(max(0, record.bytes), at: 4)
                try statement.bind(record.completedMS, at: 5)
                try statement.bind(record.title, at: 6)
                try statement.bind(record.pinned, at: 7)
            }
        }
    }

    /// The download of `key`, if the index has one.
    package func download(for key: String) throws(LibraryError) -> DownloadRecord? {
        try firstRow(Self.downloadColumns + " WHERE key = ?1", bind: { statement throws(SQLiteError) in try statement.bind(key, at: 1) },
                     Self.download)
    }

    /// Every download, oldest first (the eviction order's tie-break, as `MediaCache.entries()`).
    package func downloads() throws(LibraryError) -> [DownloadRecord] {
        try rows(Self.downloadColumns + " ORDER BY completed_ms, key", Self.download)
    }

    /// Marks `key`'s download pinned (or not); false when there is none.
    @discardableResult
    package func setPinned(_ pinned: Bool, downloadKey key: String) throws(LibraryError) -> Bool {
        try guarded { () throws(SQLiteError) in
            try database.run("UPDATE downloads SET pinned = ?2 WHERE key = ?1") { statement throws(SQLiteError) in
                try statement.bind(key, at: 1)
                try statement.bind(pinned, at: 2)
            } > 0
        }
    }

    /// Forgets `key`'s download (its file was removed); false when there was none.
    @discardableResult
    package func removeDownload(for key: String) throws(LibraryError) -> Bool {
        try guarded { () throws(SQLiteError) in
            try database.run("DELETE FROM downloads WHERE key = ?1") { statement throws(SQLiteError) in try statement.bind(key, at: 1) } > 0
        }
    }

    private static func download(_ row: SQLiteStatement) -> DownloadRecord {
        DownloadRecord(key: row.string(at: 0), url: row.optionalString(at: 1), path: row.string(at: 2), bytes: row.int64(at: 3),
                       completedMS: row.int64(at: 4), title: row.optionalString(at: 5), pinned: row.bool(at: 6))
    }
}
