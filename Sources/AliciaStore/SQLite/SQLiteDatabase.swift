#if canImport(Glibc)
import Glibc
#endif
internal import CSQLite
import AliciaLocks

/// Owns one SQLite connection to a database file.
///
/// Threads: one `SQLiteDatabase` per thread that uses it. It is opened with `SQLITE_OPEN_NOMUTEX`
/// (SQLite takes no lock of its own around its calls), keeps a statement cache and a transaction
/// state that two threads would tear, and so is deliberately not `Sendable`: a thread that needs
/// the database opens its own connection, and connections (in this process or another) meet only
/// in the file, under SQLite's locks.
///
/// Concurrency between connections: every write runs in `BEGIN IMMEDIATE` (a single statement
/// outside `transaction` takes the same lock), so a writer takes the write lock before it reads and
/// never has to upgrade a read lock — the case SQLite answers with `SQLITE_BUSY` at once, whatever
/// the busy timeout. With the write-ahead log, readers never wait for the writer, and a writer
/// waits up to `busyTimeout` for another writer, which holds the lock for milliseconds.
package final class SQLiteDatabase {
    let handle: OpaquePointer
    package let path: String
    /// How long a statement waits for another connection's lock (`sqlite3_busy_timeout`).
    let busyTimeoutMilliseconds: Int32
    /// Statements by SQL text, prepared once (`withStatement`).
    private var cache: [String: SQLiteStatement] = [:]
    /// Transactions open: 1 inside `BEGIN`, more inside savepoints of it.
    private var depth = 0

    /// How long a write waits for another connection's write lock before `SQLITE_BUSY`: a refresh
    /// writes a show's episodes in well under a second, so five seconds is room for several.
    package static let defaultBusyTimeoutMilliseconds: Int32 = 5000

    /// Opens the database at `path`, creating the file (mode 0600) and its directories (mode 0700)
    /// when they are not there, with foreign keys enforced, `synchronous=NORMAL` and the busy
    /// timeout set. The journal mode is left as the file has it: `enableWriteAheadLog()` sets it,
    /// once the caller knows it may write to the file. Wraps `sqlite3_open_v2`.
    package init(path: String, busyTimeoutMilliseconds: Int32 = defaultBusyTimeoutMilliseconds) throws(SQLiteError) {
        try Self.createFile(path)
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError(code: code, connection: opened, operation: "opening \(path)")
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        // Connection settings only: neither writes to the file.
        try execute("PRAGMA foreign_keys = ON")
        try execute("PRAGMA synchronous = NORMAL")
    }

    /// Statements first: `sqlite3_close_v2` would otherwise keep the connection as a zombie until
    /// the last of them is finalized. Wraps `sqlite3_close_v2`.
    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// The directories (0700) and an empty file (0600) SQLite then opens as a new database: SQLite
    /// itself would create it with 0644 less the umask. The `-wal` and `-shm` files SQLite makes
    /// take the database file's mode.
    private static func createFile(_ path: String) throws(SQLiteError) {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex,
           let failure = AtomicFile.makeDirectories(String(path[..<slash])) {
            throw SQLiteError(code: SQLiteError.cannotOpen, message: failure.reason, operation: "making the directory \(failure.path)")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { return }
            throw SQLiteError(code: SQLiteError.cannotOpen, message: String(cString: strerror(errno)), operation: "creating \(path)")
        }
        // The umask may have taken bits off: the mode asked for is the mode kept.
        fchmod(fd, 0o600)
        close(fd)
    }

    /// `PRAGMA journal_mode = WAL`: readers and the writer no longer block each other, and a commit
    /// is one append to the log. Returns the mode now in force ("wal", or what the file system
    /// allowed instead).
    ///
    /// The switch reads the file and then wants it alone; while another connection holds its write
    /// lock, SQLite answers SQLITE_BUSY at once rather than wait in the busy handler (waiting could
    /// deadlock: it holds a read lock the other's commit waits on). So the switch is tried again,
    /// every 10 ms, within the busy timeout: two processes opening a new library at the same moment
    /// both get it.
    @discardableResult
    package func enableWriteAheadLog() throws(SQLiteError) -> String {
        let deadline = MonotonicClock.seconds() + Double(busyTimeoutMilliseconds) / 1000
        while true {
            do {
                return try withStatement("PRAGMA journal_mode = WAL") { statement throws(SQLiteError) in
                    try statement.step() ? statement.string(at: 0) : ""
                }
            } catch where error.code & 0xFF == SQLiteError.busy && MonotonicClock.seconds() < deadline {
                usleep(10_000)
            }
        }
    }

    // MARK: Running SQL

    /// Runs `sql`, one statement or several separated by `;`, with no parameters (a schema script, a
    /// pragma). Wraps `sqlite3_exec`.
    package func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? SQLiteError.text(of: code)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, operation: "running `\(sql)`")
        }
    }

    /// A statement of its own for the caller to keep (one used once, or held across calls).
    package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(connection: handle, sql: sql, persistent: false)
    }

    /// Lends `body` the cached statement for `sql` (prepared on first use), reset and unbound again
    /// when `body` returns. A statement already lent (the same SQL inside its own body) is not
    /// shared: a statement of its own is prepared for the inner use.
    package func withStatement<R>(_ sql: String, _ body: (SQLiteStatement) throws(SQLiteError) -> R) throws(SQLiteError) -> R {
        let statement: SQLiteStatement
        if let cached = cache[sql] {
            statement = cached.isLent ? try prepare(sql) : cached
        } else {
            statement = try SQLiteStatement(connection: handle, sql: sql, persistent: true)
            cache[sql] = statement
        }
        statement.isLent = true
        defer {
            statement.reset()
            statement.isLent = false
        }
        return try body(statement)
    }

    /// Binds with `bind`, runs the statement to its end and returns the rows it changed.
    @discardableResult
    package func run(_ sql: String, _ bind: (SQLiteStatement) throws(SQLiteError) -> Void = { _ in }) throws(SQLiteError) -> Int {
        try withStatement(sql) { statement throws(SQLiteError) in
            try bind(statement)
            while try statement.step() {}
            return changes
        }
    }

    /// The rowid of the last row inserted on this connection. Wraps `sqlite3_last_insert_rowid`.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection. Wraps `sqlite3_changes64`.
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    /// False inside a transaction. Wraps `sqlite3_get_autocommit`.
    package var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    // MARK: Transactions

    /// Runs `body` in a transaction that takes the write lock at once (`BEGIN IMMEDIATE`) and
    /// commits when it returns, or rolls back when it throws. Inside another transaction it is a
    /// savepoint of it: its changes go if it throws and commit with the outer one.
    package func transaction<R>(_ body: () throws(SQLiteError) -> R) throws(SQLiteError) -> R {
        try begin()
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            rollBack()
            throw error
        }
    }

    /// Opens a transaction (`BEGIN IMMEDIATE`), or a savepoint inside the one open; each `begin`
    /// is ended by one `commit` or one `rollBack`. `transaction` is the way to use them; these are
    /// for a caller whose body throws errors of its own type.
    package func begin() throws(SQLiteError) {
        try execute(depth == 0 ? "BEGIN IMMEDIATE" : "SAVEPOINT alicia_nested")
        depth += 1
    }

    /// Commits the transaction (or releases the savepoint) `begin` opened. When it throws, the
    /// transaction is still open: `rollBack()` ends it.
    package func commit() throws(SQLiteError) {
        precondition(depth > 0, "SQLiteDatabase.commit without begin")
        try execute(depth == 1 ? "COMMIT" : "RELEASE alicia_nested")
        depth -= 1
    }

    /// Undoes what was written since the matching `begin`.
    package func rollBack() {
        precondition(depth > 0, "SQLiteDatabase.rollBack without begin")
        depth -= 1
        // SQLite may have rolled the transaction back itself (a full disk, an I/O error): then there
        // is nothing left to undo. A rollback that fails leaves nothing committed either, and the
        // error that led here is the one the caller reports.
        guard !isAutocommit else { return }
        try? execute(depth == 0 ? "ROLLBACK" : "ROLLBACK TO alicia_nested; RELEASE alicia_nested")
    }

    // MARK: Schema version

    /// `PRAGMA user_version`: 0 in a new database.
    package func userVersion() throws(SQLiteError) -> Int {
        try withStatement("PRAGMA user_version") { statement throws(SQLiteError) in
            try statement.step() ? Int(statement.int64(at: 0)) : 0
        }
    }

    /// Sets `PRAGMA user_version` (inside the migration's transaction: it commits with it).
    package func setUserVersion(_ version: Int) throws(SQLiteError) {
        // A pragma takes no parameters; the number is ours, not input.
        try execute("PRAGMA user_version = \(version)")
    }
}
