/// The library database's schema, as the ordered list of its migrations.
///
/// To change the schema, append one line to `migrations` naming a script in a file of its own
/// (`LibrarySchema+Version2.swift`: `static let version2 = """ALTER TABLE …"""`), and never edit a
/// migration that has shipped: databases out there are at its version already. A migration runs
/// in the transaction that opens the database, with foreign keys on (a table rebuild says
/// `PRAGMA defer_foreign_keys = ON` first).
///
/// Units: times of shows and episodes are UNIX seconds, as feeds give them; the positions' and the
/// downloads' are UNIX milliseconds, as `positions.json` and the cache's records keep them.
enum LibrarySchema {
    static let migrations: [Migration] = [
        Migration(version1),
        Migration(version2),
    ]

    static var latestVersion: Int { migrations.count }

    static let version1 = """
        CREATE TABLE shows (
            id INTEGER PRIMARY KEY,
            url TEXT NOT NULL UNIQUE,           -- the feed's URL now (after any moves)
            title TEXT NOT NULL DEFAULT '',
            link TEXT,
            image_url TEXT,
            description TEXT,
            author TEXT,
            language TEXT,
            etag TEXT,                          -- validators the next refresh sends
            last_modified TEXT,
            last_checked INTEGER,               -- when a refresh last finished, s
            last_error TEXT,                    -- NULL, or why the last refresh failed
            update_frequency INTEGER,           -- s between refreshes the feed asks for
            new_feed_url TEXT,                  -- itunes:new-feed-url as last seen, not yet followed
            added_at INTEGER NOT NULL
        ) STRICT;

        -- URLs a show was known by before it moved: a subscription by an old URL finds it.
        CREATE TABLE show_moves (
            old_url TEXT PRIMARY KEY,
            show_id INTEGER NOT NULL REFERENCES shows(id) ON DELETE CASCADE,
            moved_at INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX show_moves_by_show ON show_moves(show_id);

        CREATE TABLE episodes (
            id INTEGER PRIMARY KEY,
            show_id INTEGER NOT NULL REFERENCES shows(id) ON DELETE CASCADE,
            guid TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            url TEXT,                           -- the enclosure
            mime TEXT,
            bytes INTEGER,
            published INTEGER,                  -- s, NULL when the feed gives no date
            duration INTEGER,                   -- s
            summary TEXT,
            notes_html TEXT,
            image_url TEXT,
            chapters_url TEXT,
            chapters_type TEXT,
            transcripts TEXT,                   -- JSON: [{"url","type","language","rel"}]
            season INTEGER,
            episode INTEGER,
            episode_type TEXT,
            persons TEXT,                       -- JSON
            funding TEXT,                       -- JSON
            first_seen INTEGER NOT NULL,        -- s
            is_new INTEGER NOT NULL DEFAULT 1 CHECK (is_new IN (0, 1)),
            position_key TEXT NOT NULL,         -- its row in positions, when there is one
            UNIQUE (show_id, guid)
        ) STRICT;
        -- Newest first, for all episodes, the new ones and one show's: each listing is one index walk.
        -- The first two hold every column a list shows (covering): walking all episodes newest first
        -- visits the shows' rows in turn, and reading each row (notes and all) from the table took
        -- half of the 50,000-episode list's time. One show's few hundred rows read from the table.
        CREATE INDEX episodes_newest
            ON episodes(published DESC, id DESC, show_id, is_new, duration, title, guid, url, image_url, position_key);
        CREATE INDEX episodes_new_newest
            ON episodes(published DESC, id DESC, show_id, is_new, duration, title, guid, url, image_url, position_key)
            WHERE is_new = 1;
        CREATE INDEX episodes_of_show_newest ON episodes(show_id, published DESC, id DESC);
        CREATE INDEX episodes_by_position_key ON episodes(position_key);

        -- Keyed as positions.json was (labels, paths, URLs without a token, synthesis:…), not by
        -- episode: a position outlives its show's subscription and serves items that are no episode.
        CREATE TABLE positions (
            key TEXT PRIMARY KEY,
            position_ms INTEGER NOT NULL CHECK (position_ms >= 0),
            duration_ms INTEGER CHECK (duration_ms >= 0),
            played INTEGER NOT NULL CHECK (played IN (0, 1)),
            updated_ms INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;

        -- The download cache's files, as an index: MediaCache owns the files and stays the truth.
        CREATE TABLE downloads (
            key TEXT PRIMARY KEY,               -- the cache's key: the episode's position key
            url TEXT,                           -- what it was fetched from, without a token
            path TEXT NOT NULL,
            bytes INTEGER NOT NULL CHECK (bytes >= 0),
            completed_ms INTEGER NOT NULL,
            title TEXT,
            pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1))
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE kv (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) STRICT, WITHOUT ROWID;
        """
}
