#if canImport(Glibc)
import Glibc
#endif

/// The listener's library: subscribed shows, their episodes, resume positions and played marks,
/// downloads and small state, in one SQLite database at `$XDG_DATA_HOME/alicia-player/library.db`
/// (default `~/.local/share/alicia-player/library.db`), shared by every running instance.
///
/// Several programs use it at once (a Studio, a `play`, a watcher, a cron refresh), each with its
/// own connection. Every write is one transaction that takes the write lock first (`BEGIN
/// IMMEDIATE`), waiting up to 5 s for another writer; with the write-ahead log readers never wait.
/// A committed transaction survives the process being killed (`synchronous = NORMAL` in WAL mode
/// gives up only the last commits to a power loss), and one cut short leaves nothing behind.
///
/// Threads: one `LibraryStore` per thread that uses it (see `SQLiteDatabase`).
package final class LibraryStore {
    package let path: String
    let database: SQLiteDatabase
    /// Said once each while opening (old state that could not be read, a file moved aside).
    package private(set) var warnings: [String] = []

    /// The schema version this program writes.
    package static var schemaVersion: Int { LibrarySchema.latestVersion }

    /// `$XDG_DATA_HOME/alicia-player/library.db`, or `~/.local/share/alicia-player/library.db`.
    package static func defaultPath(environment: [String: String]) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/alicia-player/library.db" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/share/alicia-player/library.db"
    }

    /// Where the state files before the database are (`PositionStore.defaultDirectory()`'s answer):
    /// `$XDG_STATE_HOME/alicia-player`, or `~/.local/state/alicia-player`.
    package static func legacyStateDirectory(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/alicia-player" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/state/alicia-player"
    }

    /// Opens the database at `path`, creating it (and its directory) when it is not there, and
    /// brings its schema up to date.
    ///
    /// With `legacyDirectory` (the old state directory), a database created now takes in what is
    /// there, in the same transaction as its schema (`LegacyStateImport`): the resume positions and
    /// played marks, and the Studio's last queue and settings. A `positions.json` found there later
    /// (written by an older alicia-player still running) is taken in too, each key's newer save winning.
    ///
    /// Throws `.newerSchema` without writing anything when a newer program made the file, and
    /// `.notADatabase` or `.corrupt` when the file is not a sound SQLite database.
    package convenience init(path: String, importingFrom legacyDirectory: String? = nil) throws(LibraryError) {
        try self.init(path: path, importingFrom: legacyDirectory, migrations: Self.migrations)
    }

    /// The schema's migrations, in order (`LibrarySchema`).
    package static var migrations: [Migration] { LibrarySchema.migrations }

    /// Opens with `migrations` for the schema instead of `LibraryStore.migrations`: how the tests
    /// append one (and one that fails) to check the machinery. The program uses `init(path:importingFrom:)`.
    package init(path: String, importingFrom legacyDirectory: String?, migrations: [Migration]) throws(LibraryError) {
        self.path = path
        do {
            database = try SQLiteDatabase(path: path)
        } catch {
            throw LibraryError(error, path: path)
        }
        // The version is read before anything is written: a newer program's file is not touched.
        let found = try guarded { () throws(SQLiteError) in try database.userVersion() }
        guard found <= migrations.count else {
            throw LibraryError.newerSchema(path: path, found: found, known: migrations.count)
        }
        let mode = try guarded { () throws(SQLiteError) in try database.enableWriteAheadLog() }
        if mode.lowercased() != "wal" {
            warn("\(path): the file system does not allow SQLite's write-ahead log (journal mode \(mode)); readers wait for writers")
        }
        let legacy = legacyDirectory.map(LegacyStateImport.init(directory:))
        guard found < migrations.count || legacy?.hasPositionsFile == true else { return }
        try migrate(migrations, importing: legacy)
    }

    /// Migrates and imports in one transaction; renames the imported file once it committed.
    private func migrate(_ migrations: [Migration], importing legacy: LegacyStateImport?) throws(LibraryError) {
        var importWarnings: [String] = []
        let imported = try transaction { () throws(LibraryError) -> LegacyStateImport.Imported? in
            // Read again under the write lock: another program may have migrated it since.
            let outcome = try guarded { () throws(SQLiteError) in try Migration.apply(migrations, to: database) }
            if case .newer(let found, let known) = outcome {
                throw LibraryError.newerSchema(path: path, found: found, known: known)
            }
            guard let legacy else { return nil }
            var created = false
            if case .migrated(from: 0, _) = outcome { created = true }
            return try guarded { () throws(SQLiteError) in
                try legacy.run(into: database, created: created) { importWarnings.append($0) }
            }
        }
        importWarnings.forEach(warn)
        if let problem = imported?.markImported() { warn(problem) }
    }

    func warn(_ text: String) {
        if !warnings.contains(text) { warnings.append(text) }
    }

    /// `body`'s SQLite error as this database's `LibraryError`.
    @discardableResult
    func guarded<R>(_ body: () throws(SQLiteError) -> R) throws(LibraryError) -> R {
        do {
            return try body()
        } catch {
            throw LibraryError(error, path: path)
        }
    }

    /// The rows `sql` yields, each read by `row`; `bind` sets its parameters first.
    func rows<R>(_ sql: String, bind: (SQLiteStatement) throws(SQLiteError) -> Void = { _ in },
                 _ row: (SQLiteStatement) -> R) throws(LibraryError) -> [R] {
        try guarded { () throws(SQLiteError) in
            try database.withStatement(sql) { statement throws(SQLiteError) in
                try bind(statement)
                var all: [R] = []
                while try statement.step() { all.append(row(statement)) }
                return all
            }
        }
    }

    /// The first row `sql` yields, read by `row` (nil: none); `bind` sets its parameters first.
    func firstRow<R>(_ sql: String, bind: (SQLiteStatement) throws(SQLiteError) -> Void,
                     _ row: (SQLiteStatement) -> R) throws(LibraryError) -> R? {
        try guarded { () throws(SQLiteError) in
            try database.withStatement(sql) { statement throws(SQLiteError) in
                try bind(statement)
                return try statement.step() ? row(statement) : nil
            }
        }
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`): all its writes land, or none. Inside
    /// another it is a savepoint of it.
    package func transaction<R>(_ body: () throws(LibraryError) -> R) throws(LibraryError) -> R {
        try guarded { () throws(SQLiteError) in try database.begin() }
        do {
            let result = try body()
            try guarded { () throws(SQLiteError) in try database.commit() }
            return result
        } catch {
            database.rollBack()
            throw error
        }
    }

    // MARK: Small state

    /// `ContinueListening`'s text (`continue.m3u8`, as the Studio renders it): its last queue.
    package static let continueListeningKey = "studio.continue"
    /// `ListenerState`'s text (the `state` file's `key = value` lines): the Studio's volume and speed.
    package static let listenerStateKey = "studio.state"

    /// The text kept under `key` (`studio.continue`, `studio.state`, …), if any.
    package func value(forKey key: String) throws(LibraryError) -> String? {
        try guarded { () throws(SQLiteError) in
            try database.withStatement("SELECT value FROM kv WHERE key = ?1") { statement throws(SQLiteError) in
                try statement.bind(key, at: 1)
                return try statement.step() ? statement.string(at: 0) : nil
            }
        }
    }

    /// Keeps `value` under `key`; nil removes it.
    package func setValue(_ value: String?, forKey key: String) throws(LibraryError) {
        try guarded { () throws(SQLiteError) in
            guard let value else {
                try database.run("DELETE FROM kv WHERE key = ?1") { statement throws(SQLiteError) in try statement.bind(key, at: 1) }
                return
            }
            try Self.setValue(value, forKey: key, in: database)
        }
    }

    static func setValue(_ value: String, forKey key: String, in database: SQLiteDatabase) throws(SQLiteError) {
        try database.run("INSERT INTO kv (key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value") {
            statement throws(SQLiteError) in
            try statement.bind(key, at: 1)
            try statement.bind(value, at: 2)
        }
    }

    // MARK: Time

    /// UNIX seconds now: shows' and episodes' times.
    package static func nowSeconds() -> Int64 { nowMilliseconds() / 1000 }

    /// UNIX milliseconds now: positions' and downloads' times (as `PositionStore.now()`, in ms).
    package static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
