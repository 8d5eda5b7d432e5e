/// Subscriptions: what the feed code adds, refreshes, moves and removes.
extension LibraryStore {
    /// The columns `show(_:)` reads, in its order, with the two counts last (new: found by a refresh and
    /// never started, as `EpisodeListing.isUnheardNew`).
    private static let showColumns = """
        SELECT s.id, s.url, s.title, s.link, s.image_url, s.description, s.author, s.language, s.update_frequency,
            s.new_feed_url, s.etag, s.last_modified, s.last_checked, s.last_error, s.added_at,
            (SELECT count(*) FROM episodes WHERE show_id = s.id),
            (SELECT count(*) FROM episodes AS n WHERE n.show_id = s.id AND n.is_new = 1
                AND NOT EXISTS (SELECT 1 FROM positions WHERE key = n.position_key))
        FROM shows AS s
        """

    /// The show subscribed at `url` (its URL now or one it moved from), added if there is none, with
    /// `metadata` written over what it had when given. Returns its id.
    package func upsertShow(url: String, metadata: ShowMetadata? = nil, at now: Int64 = nowSeconds()) throws(LibraryError) -> Int64 {
        try transaction { () throws(LibraryError) in
            if let id = try showID(forURL: url) {
                if let metadata { try updateShow(id, metadata: metadata) }
                return id
            }
            let info = metadata ?? ShowMetadata(title: "")
            return try guarded { () throws(SQLiteError) in
                try database.run("""
                    INSERT INTO shows (url, title, link, image_url, description, author, language, update_frequency,
                        new_feed_url, added_at)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                    """) { statement throws(SQLiteError) in
                    try statement.bind(url, at: 1)
                    try Self.bind(info, to: statement, from: 2)
                    try statement.bind(now, at: 10)
                }
                return database.lastInsertRowID
            }
        }
    }

    /// The id of the show whose URL is `url` now or was before a move.
    package func showID(forURL url: String) throws(LibraryError) -> Int64? {
        try guarded { () throws(SQLiteError) in
            try database.withStatement("SELECT id FROM shows WHERE url = ?1 UNION ALL SELECT show_id FROM show_moves WHERE old_url = ?1") {
                statement throws(SQLiteError) in
                try statement.bind(url, at: 1)
                return try statement.step() ? statement.int64(at: 0) : nil
            }
        }
    }

    /// Writes what the feed says of the show over what was stored.
    package func updateShow(_ id: Int64, metadata: ShowMetadata) throws(LibraryError) {
        try guarded { () throws(SQLiteError) in
            try database.run("""
                UPDATE shows SET title = ?2, link = ?3, image_url = ?4, description = ?5, author = ?6, language = ?7,
                    update_frequency = ?8, new_feed_url = ?9
                WHERE id = ?1
                """) { statement throws(SQLiteError) in
                try statement.bind(id, at: 1)
                try Self.bind(metadata, to: statement, from: 2)
            }
        }
    }

    /// The eight metadata fields, as parameters `first` to `first + 7`.
    private static func bind(_ metadata: ShowMetadata, to statement: SQLiteStatement, from first: Int) throws(SQLiteError) {
        try statement.bind(metadata.title, at: first)
        try statement.bind(metadata.link, at: first + 1)
        try statement.bind(metadata.imageURL, at: first + 2)
        try statement.bind(metadata.description, at: first + 3)
        try statement.bind(metadata.author, at: first + 4)
        try statement.bind(metadata.language, at: first + 5)
        try statement.bind(metadata.updateFrequency, at: first + 6)
        try statement.bind(metadata.newFeedURL, at: first + 7)
    }

    /// Keeps the validators a response carried, for the next refresh's conditional request.
    package func setValidators(showID id: Int64, etag: String?, lastModified: String?) throws(LibraryError) {
        try guarded { () throws(SQLiteError) in
            try database.run("UPDATE shows SET etag = ?2, last_modified = ?3 WHERE id = ?1") { statement throws(SQLiteError) in
                try statement.bind(id, at: 1)
                try statement.bind(etag, at: 2)
                try statement.bind(lastModified, at: 3)
            }
        }
    }

    /// Notes that a refresh of the show finished at `now`: with `error` nil it succeeded (a 304
    /// too), else why it failed.
    package func recordRefresh(showID id: Int64, error: String?, at now: Int64 = nowSeconds()) throws(LibraryError) {
        try guarded { () throws(SQLiteError) in
            try database.run("UPDATE shows SET last_checked = ?2, last_error = ?3 WHERE id = ?1") { statement throws(SQLiteError) in
                try statement.bind(id, at: 1)
                try statement.bind(now, at: 2)
                try statement.bind(error, at: 3)
            }
        }
    }

    /// Moves the show to `newURL` (a 301/308, or `itunes:new-feed-url` followed), keeping its old
    /// URL so that subscribing by it finds the show, and forgetting the validators (they belong
    /// to the old URL's responses). Throws when another show has `newURL`.
    package func moveShow(_ id: Int64, to newURL: String, at now: Int64 = nowSeconds()) throws(LibraryError) {
        try guarded { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                // A URL that is current is no one's former URL (a show moving back to one it had).
                try database.run("DELETE FROM show_moves WHERE old_url = ?1") { statement throws(SQLiteError) in
                    try statement.bind(newURL, at: 1)
                }
                try database.run("""
                    INSERT INTO show_moves (old_url, show_id, moved_at) SELECT url, id, ?2 FROM shows WHERE id = ?1 AND url != ?3
                    ON CONFLICT(old_url) DO UPDATE SET show_id = excluded.show_id, moved_at = excluded.moved_at
                    """) { statement throws(SQLiteError) in
                    try statement.bind(id, at: 1)
                    try statement.bind(now, at: 2)
                    try statement.bind(newURL, at: 3)
                }
                try database.run("""
                    UPDATE shows SET url = ?2, new_feed_url = NULL, etag = NULL, last_modified = NULL WHERE id = ?1 AND url != ?2
                    """) { statement throws(SQLiteError) in
                    try statement.bind(id, at: 1)
                    try statement.bind(newURL, at: 2)
                }
            }
        }
    }

    /// Unsubscribes: the show and its episodes go; positions stay (they are kept by key, and the
    /// same episode may come back or be played from elsewhere). False when there was no such show.
    @discardableResult
    package func removeShow(_ id: Int64) throws(LibraryError) -> Bool {
        try guarded { () throws(SQLiteError) in
            try database.run("DELETE FROM shows WHERE id = ?1") { statement throws(SQLiteError) in try statement.bind(id, at: 1) } > 0
        }
    }

    /// The show with `id`, with its counts.
    package func show(_ id: Int64) throws(LibraryError) -> Show? {
        try firstRow(Self.showColumns + " WHERE s.id = ?1", bind: { statement throws(SQLiteError) in try statement.bind(id, at: 1) },
                     Self.show)
    }

    /// Every show, by title, with how many episodes it has and how many of them are new.
    package func shows() throws(LibraryError) -> [Show] {
        try rows(Self.showColumns + " ORDER BY s.title COLLATE NOCASE, s.id", Self.show)
    }

    private static func show(_ row: SQLiteStatement) -> Show {
        let metadata = ShowMetadata(title: row.string(at: 2), link: row.optionalString(at: 3), imageURL: row.optionalString(at: 4),
                                    description: row.optionalString(at: 5), author: row.optionalString(at: 6),
                                    language: row.optionalString(at: 7), updateFrequency: row.optionalInt64(at: 8),
                                    newFeedURL: row.optionalString(at: 9))
        return Show(id: row.int64(at: 0), url: row.string(at: 1), metadata: metadata, etag: row.optionalString(at: 10),
                    lastModified: row.optionalString(at: 11), lastChecked: row.optionalInt64(at: 12),
                    lastError: row.optionalString(at: 13), addedAt: row.int64(at: 14), episodeCount: Int(row.int64(at: 15)),
                    newCount: Int(row.int64(at: 16)))
    }
}
