/// Resume positions and played marks, under the keys `PositionStore` uses (`PositionStore.key`:
/// labels, file paths, URLs without a token, `synthesis:…`), with its merge rule: of two saves of
/// one key the later (`updatedMS`) wins, and an equal time keeps what is there. So several
/// instances saving at once never lose each other's positions, and a save that lost says so.
///
/// What a `PositionStore` backend needs: `positions()` to load, `savePositions` for `save()`'s
/// changed keys, `position(for:)` to look one up again. The played rule (`isPlayed`) and the rewind
/// after a pause stay in `PositionStore`: a record arrives here already decided.
extension LibraryStore {
    /// The position kept under `key`, if any.
    package func position(for key: String) throws(LibraryError) -> PositionRecord? {
        try firstRow("SELECT position_ms, duration_ms, played, updated_ms FROM positions WHERE key = ?1",
                     bind: { statement throws(SQLiteError) in try statement.bind(key, at: 1) }) { Self.position($0, from: 0) }
    }

    /// Every position, by key.
    package func positions() throws(LibraryError) -> [String: PositionRecord] {
        let rows = try rows("SELECT key, position_ms, duration_ms, played, updated_ms FROM positions") {
            ($0.string(at: 0), Self.position($0, from: 1))
        }
        return Dictionary(rows, uniquingKeysWith: { _, last in last })  // the key is the table's primary key
    }

    /// Saves `record` under `key` unless the database holds a save of it at least as recent.
    /// Returns whether it was written (false: a newer save, or this very one, is there).
    @discardableResult
    package func savePosition(_ record: PositionRecord, for key: String) throws(LibraryError) -> Bool {
        try guarded { () throws(SQLiteError) in try Self.merge(record, for: key, in: database) }
    }

    /// Saves each of `records` as `savePosition` does, in one transaction. Returns the keys that
    /// were not written because the database held a save at least as recent.
    @discardableResult
    package func savePositions(_ records: [String: PositionRecord]) throws(LibraryError) -> Set<String> {
        try guarded { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                var kept: Set<String> = []
                for (key, record) in records {
                    if try !Self.merge(record, for: key, in: database) { kept.insert(key) }
                }
                return kept
            }
        }
    }

    /// Marks `key` heard to its end: it starts from the beginning next time.
    package func markPlayed(_ key: String, durationMS: Int64?, at updatedMS: Int64 = nowMilliseconds()) throws(LibraryError) {
        try savePosition(PositionRecord(positionMS: 0, durationMS: durationMS, played: true, updatedMS: updatedMS), for: key)
    }

    /// Forgets `key`'s position; false when there was none.
    @discardableResult
    package func removePosition(for key: String) throws(LibraryError) -> Bool {
        try guarded { () throws(SQLiteError) in
            try database.run("DELETE FROM positions WHERE key = ?1") { statement throws(SQLiteError) in try statement.bind(key, at: 1) } > 0
        }
    }

    /// The merge rule as one statement: written when the key is new or `record` is strictly newer.
    static func merge(_ record: PositionRecord, for key: String, in database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        try database.run("""
            INSERT INTO positions (key, position_ms, duration_ms, played, updated_ms) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT(key) DO UPDATE SET position_ms = excluded.position_ms, duration_ms = excluded.duration_ms,
                played = excluded.played, updated_ms = excluded.updated_ms
            WHERE excluded.updated_ms > positions.updated_ms
            """) { statement throws(SQLiteError) in
            try statement.bind(key, at: 1)
            try statement.bind(max(0, record.positionMS), at: 2)
            try statement.bind(record.durationMS.map { max(0, $0) }, at: 3)
            try statement.bind(record.played, at: 4)
            try statement.bind(record.updatedMS, at: 5)
        } > 0
    }

    /// The four columns from `first` on: position_ms, duration_ms, played, updated_ms.
    static func position(_ statement: SQLiteStatement, from first: Int) -> PositionRecord {
        PositionRecord(positionMS: statement.int64(at: first), durationMS: statement.optionalInt64(at: first + 1),
                       played: statement.bool(at: first + 2), updatedMS: statement.int64(at: first + 3))
    }
}
