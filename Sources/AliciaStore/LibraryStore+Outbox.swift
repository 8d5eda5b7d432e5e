/// The listening reports' outbox (`report_outbox`): events appended in order, read from the oldest,
/// removed when sent. Rows are kept per backend (its base URL), so a report made against one
/// backend is never sent to another. What the JSON says is the sender's business.
extension LibraryStore {
    /// The most events kept for one backend: beyond it the oldest go (a backend away for weeks,
    /// at 240 progress events an hour of listening, would otherwise grow the file without end).
    package static let outboxLimit = 10_000

    /// Appends `events` (each an event id and its JSON) for `backend`, in order, in one transaction.
    /// An event id already there is not added again. Returns how many of the oldest were removed to
    /// keep `limit`.
    @discardableResult
    package func appendToOutbox(_ events: [(eventID: String, body: String)], backend: String,
                                at queuedMS: Int64 = nowMilliseconds(), limit: Int = outboxLimit) throws(LibraryError) -> Int {
        try guarded { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                for event in events {
                    try database.run("""
                        INSERT INTO report_outbox (backend, event_id, body, queued_ms) VALUES (?1, ?2, ?3, ?4)
                        ON CONFLICT(event_id) DO NOTHING
                        """) { statement throws(SQLiteError) in
                        try statement.bind(backend, at: 1)
                        try statement.bind(event.eventID, at: 2)
                        try statement.bind(event.body, at: 3)
                        try statement.bind(queuedMS, at: 4)
                    }
                }
                return try database.run("""
                    DELETE FROM report_outbox WHERE backend = ?1 AND seq NOT IN
                        (SELECT seq FROM report_outbox WHERE backend = ?1 ORDER BY seq DESC LIMIT ?2)
                    """) { statement throws(SQLiteError) in
                    try statement.bind(backend, at: 1)
                    try statement.bind(max(1, limit), at: 2)
                }
            }
        }
    }

    /// The oldest event waiting for `backend`, if any.
    package func outboxHead(backend: String) throws(LibraryError) -> OutboxRecord? {
        try outbox(backend: backend, limit: 1).first
    }

    /// The events waiting for `backend` (every backend's when nil), oldest first.
    package func outbox(backend: String? = nil, limit: Int = Int(Int32.max)) throws(LibraryError) -> [OutboxRecord] {
        try rows("""
            SELECT seq, backend, event_id, body, queued_ms, attempts, next_try_ms, last_error FROM report_outbox
            WHERE ?1 IS NULL OR backend = ?1 ORDER BY seq LIMIT ?2
            """, bind: { statement throws(SQLiteError) in
                try statement.bind(backend, at: 1)
                try statement.bind(limit, at: 2)
            }) { row in
            OutboxRecord(seq: row.int64(at: 0), backend: row.string(at: 1), eventID: row.string(at: 2), body: row.string(at: 3),
                         queuedMS: row.int64(at: 4), attempts: Int(row.int64(at: 5)), nextTryMS: row.int64(at: 6),
                         lastError: row.optionalString(at: 7))
        }
    }

    /// Takes the event `seq` out (sent, or refused for good); false when it was gone already (another
    /// instance sent it).
    @discardableResult
    package func removeFromOutbox(seq: Int64) throws(LibraryError) -> Bool {
        try guarded { () throws(SQLiteError) in
            try database.run("DELETE FROM report_outbox WHERE seq = ?1") { statement throws(SQLiteError) in try statement.bind(seq, at: 1) } > 0
        }
    }

    /// Records a send of `seq` that did not take: one more attempt, the next not before `nextTryMS`.
    package func deferOutbox(seq: Int64, nextTryMS: Int64, error: String) throws(LibraryError) {
        try guarded { () throws(SQLiteError) in
            try database.run("""
                UPDATE report_outbox SET attempts = attempts + 1, next_try_ms = ?2, last_error = ?3 WHERE seq = ?1
                """) { statement throws(SQLiteError) in
                try statement.bind(seq, at: 1)
                try statement.bind(nextTryMS, at: 2)
                try statement.bind(error, at: 3)
            }
        }
    }
}
