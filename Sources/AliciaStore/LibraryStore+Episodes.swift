/// Episodes: what a refresh writes, and the lists the player shows.
extension LibraryStore {
    /// `EpisodeInfo`'s columns, bound as parameters 1 to 19 in this order by `bind(_:to:)`.
    private static let infoColumns = [
        "guid", "title", "url", "mime", "bytes", "published", "duration", "summary", "notes_html", "image_url",
        "chapters_url", "chapters_type", "transcripts", "season", "episode", "episode_type", "persons", "funding",
        "position_key",
    ]

    private static let insertEpisode = """
        INSERT INTO episodes (\(infoColumns.joined(separator: ", ")), show_id, first_seen, is_new)
        VALUES (\((1...19).map { "?\($0)" }.joined(separator: ", ")), ?20, ?21, ?22)
        ON CONFLICT(show_id, guid) DO NOTHING
        """

    /// Everything but the guid (the key), first_seen and is_new (kept from when it was first seen).
    private static let updateEpisode = """
        UPDATE episodes SET \(infoColumns.enumerated().dropFirst().map { "\($0.element) = ?\($0.offset + 1)" }.joined(separator: ", "))
        WHERE show_id = ?20 AND guid = ?1
        """

    /// Writes a refresh's episodes of one show in one transaction: those it did not have are added
    /// (flagged new when `markNew`, first seen `now`), those it had are written over except for
    /// when they were first seen and whether they are new.
    package func upsertEpisodes(_ episodes: [EpisodeInfo], showID: Int64, markNew: Bool = true,
                                at now: Int64 = nowSeconds()) throws(LibraryError) -> EpisodeUpsert {
        try guarded { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                var result = EpisodeUpsert()
                for info in episodes {
                    let added = try database.run(Self.insertEpisode) { statement throws(SQLiteError) in
                        try Self.bind(info, to: statement)
                        try statement.bind(showID, at: 20)
                        try statement.bind(now, at: 21)
                        try statement.bind(markNew, at: 22)
                    }
                    if added > 0 {
                        result.inserted.append(database.lastInsertRowID)
                        continue
                    }
                    try database.run(Self.updateEpisode) { statement throws(SQLiteError) in
                        try Self.bind(info, to: statement)
                        try statement.bind(showID, at: 20)
                    }
                    result.updated += 1
                }
                return result
            }
        }
    }

    private static func bind(_ info: EpisodeInfo, to statement: SQLiteStatement) throws(SQLiteError) {
        try statement.bind(info.guid, at: 1)
        try statement.bind(info.title, at: 2)
        try statement.bind(info.url, at: 3)
        try statement.bind(info.mime, at: 4)
        try statement.bind(info.bytes, at: 5)
        try statement.bind(info.published, at: 6)
        try statement.bind(info.duration, at: 7)
        try statement.bind(info.summary, at: 8)
        try statement.bind(info.notesHTML, at: 9)
        try statement.bind(info.imageURL, at: 10)
        try statement.bind(info.chaptersURL, at: 11)
        try statement.bind(info.chaptersType, at: 12)
        try statement.bind(info.transcripts, at: 13)
        try statement.bind(info.season, at: 14)
        try statement.bind(info.episode, at: 15)
        try statement.bind(info.episodeType, at: 16)
        try statement.bind(info.persons, at: 17)
        try statement.bind(info.funding, at: 18)
        try statement.bind(info.resolvedPositionKey, at: 19)
    }

    // MARK: Lists

    /// One query per list: the episodes walked newest first along an index (`episodes_newest`, its
    /// partial copy for the new ones, or the show's), each joined by primary key with its show, its
    /// position and its download. The columns are those the first two indexes cover: a column
    /// added here goes into them too (LibrarySchema). Undated episodes come last.
    private static func listing(where condition: String) -> String {
        """
        SELECT e.id, e.show_id, s.title, e.guid, e.title, e.url, e.published, e.duration, e.image_url, e.is_new,
            e.position_key, p.position_ms, p.duration_ms, p.played, p.updated_ms, d.path
        FROM episodes AS e
        JOIN shows AS s ON s.id = e.show_id
        LEFT JOIN positions AS p ON p.key = e.position_key
        LEFT JOIN downloads AS d ON d.key = e.position_key
        \(condition)
        ORDER BY e.published DESC, e.id DESC
        LIMIT ?1
        """
    }

    /// The episodes `filter` names, newest first, with their positions, played marks and downloads;
    /// at most `limit` of them.
    package func episodes(_ filter: EpisodeFilter = .all, limit: Int? = nil) throws(LibraryError) -> [EpisodeListing] {
        let sql: String
        var show: Int64?
        switch filter {
        case .all: sql = Self.listing(where: "")
        // `is_new = 1` as the partial index states it, so that the planner can use the index.
        case .new: sql = Self.listing(where: "WHERE e.is_new = 1")
        case .show(let id):
            sql = Self.listing(where: "WHERE e.show_id = ?2")
            show = id
        }
        return try list(sql) { statement throws(SQLiteError) in
            try statement.bind(limit.map { Int64($0) } ?? -1, at: 1)
            if let show { try statement.bind(show, at: 2) }
        }
    }

    /// The episodes whose title holds `piece` (ignoring the case of ASCII letters), newest first.
    package func episodes(titleContaining piece: String, limit: Int? = nil) throws(LibraryError) -> [EpisodeListing] {
        var pattern = "%"
        for character in piece {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        pattern.append("%")
        return try list(Self.listing(where: "WHERE e.title LIKE ?2 ESCAPE '\\'")) { statement throws(SQLiteError) in
            try statement.bind(limit.map { Int64($0) } ?? -1, at: 1)
            try statement.bind(pattern, at: 2)
        }
    }

    private func list(_ sql: String, _ bind: (SQLiteStatement) throws(SQLiteError) -> Void) throws(LibraryError) -> [EpisodeListing] {
        try guarded { () throws(SQLiteError) in
            try database.withStatement(sql) { row throws(SQLiteError) in
                try bind(row)
                var listings: [EpisodeListing] = []
                while try row.step() {
                    listings.append(EpisodeListing(
                        id: row.int64(at: 0), showID: row.int64(at: 1), showTitle: row.string(at: 2), guid: row.string(at: 3),
                        title: row.string(at: 4), url: row.optionalString(at: 5), published: row.optionalInt64(at: 6),
                        duration: row.optionalInt64(at: 7), imageURL: row.optionalString(at: 8), isNew: row.bool(at: 9),
                        positionKey: row.string(at: 10), position: row.isNull(at: 11) ? nil : Self.position(row, from: 11),
                        downloadPath: row.optionalString(at: 15)))
                }
                return listings
            }
        }
    }

    /// One episode, every field.
    package func episode(_ id: Int64) throws(LibraryError) -> Episode? {
        let sql = "SELECT \(Self.infoColumns.joined(separator: ", ")), id, show_id, first_seen, is_new FROM episodes WHERE id = ?1"
        return try guarded { () throws(SQLiteError) in
            try database.withStatement(sql) { row throws(SQLiteError) in
                try row.bind(id, at: 1)
                guard try row.step() else { return nil }
                let info = EpisodeInfo(
                    guid: row.string(at: 0), title: row.string(at: 1), url: row.optionalString(at: 2), mime: row.optionalString(at: 3),
                    bytes: row.optionalInt64(at: 4), published: row.optionalInt64(at: 5), duration: row.optionalInt64(at: 6),
                    summary: row.optionalString(at: 7), notesHTML: row.optionalString(at: 8), imageURL: row.optionalString(at: 9),
                    chaptersURL: row.optionalString(at: 10), chaptersType: row.optionalString(at: 11),
                    transcripts: row.optionalString(at: 12), season: row.optionalInt64(at: 13), episode: row.optionalInt64(at: 14),
                    episodeType: row.optionalString(at: 15), persons: row.optionalString(at: 16), funding: row.optionalString(at: 17),
                    positionKey: row.string(at: 18))
                return Episode(id: row.int64(at: 19), showID: row.int64(at: 20), info: info, firstSeen: row.int64(at: 21),
                               isNew: row.bool(at: 22))
            }
        }
    }

    // MARK: New

    /// Clears the new flag of the episodes with `ids`, in one transaction.
    package func markNotNew(_ ids: [Int64]) throws(LibraryError) {
        try guarded { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                for id in ids {
                    try database.run("UPDATE episodes SET is_new = 0 WHERE id = ?1 AND is_new = 1") { statement throws(SQLiteError) in
                        try statement.bind(id, at: 1)
                    }
                }
            }
        }
    }

    /// Clears the new flag of every episode of the show with `showID`, or of every show.
    package func markAllNotNew(showID: Int64? = nil) throws(LibraryError) {
        try guarded { () throws(SQLiteError) in
            guard let showID else {
                try database.run("UPDATE episodes SET is_new = 0 WHERE is_new = 1")
                return
            }
            try database.run("UPDATE episodes SET is_new = 0 WHERE show_id = ?1 AND is_new = 1") { statement throws(SQLiteError) in
                try statement.bind(showID, at: 1)
            }
        }
    }
}
