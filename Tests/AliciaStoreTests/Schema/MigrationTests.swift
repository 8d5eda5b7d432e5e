import Testing
import AliciaStore

@Suite struct MigrationTests {
    private func scalar(_ sql: String, in path: String) throws -> String {
        let database = try SQLiteDatabase(path: path)
        return try database.withStatement(sql) { statement throws(SQLiteError) in
            try statement.step() ? statement.string(at: 0) : ""
        }
    }

    @Test func aNewDatabaseIsAtTheLatestVersionInWriteAheadLogMode() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = directory.file("data/alicia-player/library.db")
        _ = try LibraryStore(path: path)
        #expect(LibraryStore.schemaVersion == LibraryStore.migrations.count)
        #expect(try scalar("PRAGMA user_version", in: path) == "\(LibraryStore.schemaVersion)")
        #expect(try scalar("PRAGMA journal_mode", in: path) == "wal")
        let tables = try scalar("SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name)", in: path)
        #expect(tables == "downloads episodes kv positions report_outbox show_moves shows sqlite_sequence")
        #expect(ScratchDirectory.mode(of: path) == 0o600)
        #expect(ScratchDirectory.mode(of: directory.file("data/alicia-player")) == 0o700)
    }

    /// What the next engineer does: one line appended. It runs once, in order, with its Swift step.
    @Test func anAppendedMigrationRunsOnceWithItsStepOverTheDataThere() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = directory.file("library.db")
        let id = try LibraryStore(path: path).upsertShow(url: "https://a.example/feed")
        let appended = LibraryStore.migrations + [
            Migration("ALTER TABLE shows ADD COLUMN rating INTEGER") { database throws(SQLiteError) in
                // Inserting a key twice fails: a second run would show.
                try database.execute("UPDATE shows SET rating = 5; INSERT INTO kv (key, value) VALUES ('rated', 'once')")
            },
        ]
        _ = try LibraryStore(path: path, importingFrom: nil, migrations: appended)
        let again = try LibraryStore(path: path, importingFrom: nil, migrations: appended)
        #expect(try scalar("PRAGMA user_version", in: path) == "\(LibraryStore.schemaVersion + 1)")
        #expect(try scalar("SELECT rating FROM shows WHERE id = \(id)", in: path) == "5")
        #expect(try again.value(forKey: "rated") == "once")
    }

    @Test func aFailingMigrationLeavesTheVersionAndTheDataAsTheyWere() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = directory.file("library.db")
        _ = try LibraryStore(path: path).upsertShow(url: "https://a.example/feed")
        let broken = LibraryStore.migrations + [Migration("CREATE TABLE half_done (a INTEGER); INSERT INTO no_such_table VALUES (1)")]
        #expect { try LibraryStore(path: path, importingFrom: nil, migrations: broken) } throws: { error in
            guard case .database(let failedPath, let detail)? = error as? LibraryError else { return false }
            return failedPath == path && detail.message.contains("no_such_table")
        }
        #expect(try scalar("PRAGMA user_version", in: path) == "\(LibraryStore.schemaVersion)")
        #expect(try scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'", in: path) == "0")
        #expect(try LibraryStore(path: path).shows().count == 1)
    }

    @Test func aDatabaseFromANewerProgramIsRefusedNamingBothVersionsAndLeftUntouched() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = directory.file("library.db")
        let newer = LibraryStore.migrations + [Migration("CREATE TABLE future (a INTEGER)"), Migration("CREATE TABLE later (a INTEGER)")]
        do {
            let store = try LibraryStore(path: path, importingFrom: nil, migrations: newer)
            try store.savePosition(PositionRecord(positionMS: 1, durationMS: nil, played: false, updatedMS: 1), for: "A")
        }
        let before = try #require(ScratchDirectory.read(path))
        do {
            _ = try LibraryStore(path: path)
            Issue.record("a newer database was opened")
        } catch {
            #expect(error == .newerSchema(path: path, found: LibraryStore.schemaVersion + 2, known: LibraryStore.schemaVersion))
            #expect(error.message.contains("schema version \(LibraryStore.schemaVersion + 2)"))
            #expect(error.message.contains("versions up to \(LibraryStore.schemaVersion)") && error.message.contains(path))
        }
        #expect(ScratchDirectory.read(path) == before, "not a byte written")
        #expect(!ScratchDirectory.exists(path + "-wal"))
    }
}
