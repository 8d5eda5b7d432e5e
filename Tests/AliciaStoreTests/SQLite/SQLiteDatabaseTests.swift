#if canImport(Glibc)
import Glibc
#endif
import Testing
import AliciaStore

@Suite struct SQLiteDatabaseTests {
    private func scratchDatabase() throws -> (ScratchDirectory, SQLiteDatabase) {
        let directory = try ScratchDirectory()
        let database = try SQLiteDatabase(path: directory.file("nested/deeper/test.db"))
        try database.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB)")
        return (directory, database)
    }

    @Test func theFileIs0600AndItsNewDirectories0700WhateverTheUmask() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let old = umask(0)
        defer { umask(old) }
        let path = directory.file("made/here/test.db")
        let database = try SQLiteDatabase(path: path)
        #expect(try database.enableWriteAheadLog() == "wal")
        try database.execute("CREATE TABLE t (i INTEGER)")
        #expect(ScratchDirectory.mode(of: path) == 0o600)
        #expect(ScratchDirectory.mode(of: path + "-wal") == 0o600, "the log takes the database's mode")
        #expect(ScratchDirectory.mode(of: directory.file("made")) == 0o700)
        #expect(ScratchDirectory.mode(of: directory.file("made/here")) == 0o700)
    }

    @Test func valuesOfEveryTypeRoundTripByIndexAndByName() throws {
        let (scratch, database) = try scratchDatabase()
        defer { scratch.remove() }
        let statement = try database.prepare("INSERT INTO t (i, r, s, b) VALUES (:i, :r, :s, :b)")
        try statement.bind(Int64.min, named: ":i")
        try statement.bind(-0.125, named: ":r")
        try statement.bind("naïve ☕ \u{0}after-nul", named: ":s")
        try statement.bind([0, 255, 7], named: ":b")
        #expect(try statement.step() == false)
        statement.reset()
        try statement.bind(Int64?.none, at: 1)
        try statement.bind(Double?.none, at: 2)
        try statement.bind("", at: 3)
        try statement.bind([UInt8](), at: 4)
        try statement.step()
        let rows = try database.prepare("SELECT i, r, s, b FROM t ORDER BY rowid")
        #expect(try rows.step())
        #expect(rows.int64(at: 0) == Int64.min && rows.double(at: 1) == -0.125)
        #expect(rows.string(at: 2) == "naïve ☕ \u{0}after-nul", "text is bound by its length, NUL and all")
        #expect(rows.bytes(at: 3) == [0, 255, 7])
        #expect(try rows.step())
        #expect(rows.optionalInt64(at: 0) == nil && rows.optionalDouble(at: 1) == nil)
        #expect(rows.optionalString(at: 2) == "", "an empty string is not NULL")
        #expect(!rows.isNull(at: 3) && rows.bytes(at: 3).isEmpty, "an empty blob is not NULL")
        #expect(try rows.step() == false)
    }

    @Test func anUnknownParameterNameIsAnErrorNamingIt() throws {
        let (scratch, database) = try scratchDatabase()
        defer { scratch.remove() }
        let statement = try database.prepare("INSERT INTO t (i) VALUES (:i)")
        #expect { try statement.bind(Int64(1), named: ":nope") } throws: { error in
            (error as? SQLiteError)?.primaryCode == SQLiteError.range && "\(error)".contains(":nope")
        }
    }

    @Test func anErrorIsOneLineWithTheCodeSQLitesWordsAndTheSQLButNoBoundValue() throws {
        let (scratch, database) = try scratchDatabase()
        defer { scratch.remove() }
        try database.execute("CREATE TABLE u (k TEXT PRIMARY KEY)")
        try database.run("INSERT INTO u (k) VALUES (?1)") { statement throws(SQLiteError) in try statement.bind("secret-token-1", at: 1) }
        do {
            try database.run("INSERT INTO u (k) VALUES (?1)") { statement throws(SQLiteError) in try statement.bind("secret-token-1", at: 1) }
            Issue.record("a duplicate key was accepted")
        } catch {
            #expect(error.primaryCode == SQLiteError.constraint)
            #expect(error.message.contains("UNIQUE constraint failed: u.k"))
            #expect(error.description.contains("INSERT INTO u (k) VALUES (?1)"))
            #expect(!error.description.contains("secret-token"), "\(error)")
            #expect(!error.description.contains("\n"))
        }
        #expect { try database.prepare("SELEKT 1") } throws: { error in
            let error = error as? SQLiteError
            return error?.primaryCode == SQLiteError.error && error?.operation.contains("SELEKT") == true
        }
    }

    @Test func aTransactionRollsBackWhenItsBodyThrowsAndANestedOneIsASavepoint() throws {
        let (scratch, database) = try scratchDatabase()
        defer { scratch.remove() }
        func count() throws -> Int64 {
            try database.withStatement("SELECT count(*) FROM t") { statement throws(SQLiteError) in
                try statement.step()
                return statement.int64(at: 0)
            }
        }
        let failure = SQLiteError(code: SQLiteError.error, message: "stop", operation: "testing")
        #expect(throws: SQLiteError.self) {
            try database.transaction { () throws(SQLiteError) in
                try database.execute("INSERT INTO t (i) VALUES (1)")
                throw failure
            }
        }
        #expect(try count() == 0)
        #expect(database.isAutocommit)
        try database.transaction { () throws(SQLiteError) in
            try database.execute("INSERT INTO t (i) VALUES (1)")
            #expect(throws: SQLiteError.self) {
                try database.transaction { () throws(SQLiteError) in
                    try database.execute("INSERT INTO t (i) VALUES (2)")
                    throw failure
                }
            }
            try database.transaction { () throws(SQLiteError) in try database.execute("INSERT INTO t (i) VALUES (3)") }
        }
        #expect(try count() == 2, "the outer rows and the inner one that returned; not the one that threw")
        #expect(database.isAutocommit)
    }

    @Test func aCachedStatementIsResetAfterUseAndNotSharedWhenLentTwice() throws {
        let (scratch, database) = try scratchDatabase()
        defer { scratch.remove() }
        for value in 1...3 {
            try database.run("INSERT INTO t (i) VALUES (?1)") { statement throws(SQLiteError) in try statement.bind(Int64(value), at: 1) }
        }
        #expect(database.lastInsertRowID == 3 && database.changes == 1)
        var pairs: [(Int64, Int64)] = []
        try database.withStatement("SELECT i FROM t ORDER BY i") { outer throws(SQLiteError) in
            while try outer.step() {
                let left = outer.int64(at: 0)
                try database.withStatement("SELECT i FROM t ORDER BY i") { inner throws(SQLiteError) in
                    while try inner.step() { pairs.append((left, inner.int64(at: 0))) }
                }
            }
        }
        #expect(pairs.count == 9)
        let again = try database.withStatement("SELECT i FROM t ORDER BY i") { statement throws(SQLiteError) in
            try statement.step() ? statement.int64(at: 0) : 0
        }
        #expect(again == 1, "reset after the last use: it starts from the first row")
    }

    @Test func aSecondConnectionsUncommittedTransactionVanishesWhenItCloses() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = directory.file("test.db")
        let first = try SQLiteDatabase(path: path)
        try first.enableWriteAheadLog()
        try first.execute("CREATE TABLE t (i INTEGER)")
        var second: SQLiteDatabase? = try SQLiteDatabase(path: path)
        try second?.begin()
        try second?.execute("INSERT INTO t (i) VALUES (1)")
        second = nil
        let count = try first.withStatement("SELECT count(*) FROM t") { statement throws(SQLiteError) in
            try statement.step() ? statement.int64(at: 0) : -1
        }
        #expect(count == 0)
        try first.execute("INSERT INTO t (i) VALUES (2)")
    }
}
