extension LibrarySchema {
    /// Listening reports waiting to go to Alicia's backend (`POST /api/episode_day`), in the order
    /// they were made: written before any send, removed once the backend took them or refused them
    /// for good (DECISIONS.md, "Listening reports: an outbox in the library database").
    static let version2 = """
        CREATE TABLE report_outbox (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,  -- the order written; never reused, so order holds across runs
            backend TEXT NOT NULL,                  -- the base URL they are for (never a token)
            event_id TEXT NOT NULL UNIQUE,          -- the event's own id: a resend is the same event
            body TEXT NOT NULL,                     -- the event's JSON, as it is sent
            queued_ms INTEGER NOT NULL,             -- when it was written, UNIX ms
            attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
            next_try_ms INTEGER NOT NULL DEFAULT 0, -- not sent again before this, UNIX ms (a run of its own tries at once)
            last_error TEXT                         -- why the last attempt did not take
        ) STRICT;
        CREATE INDEX report_outbox_by_backend ON report_outbox(backend, seq);
        """
}
