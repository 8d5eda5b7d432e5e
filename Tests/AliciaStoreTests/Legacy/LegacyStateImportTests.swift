import Testing
import AliciaJSON
import AliciaStore

/// Starts from a state directory as alicia-player writes it today (`PositionStore`,
/// `ContinueListening`, `ListenerState`), and opens a new database over it.
@Suite struct LegacyStateImportTests {
    /// `PositionStore.encode`, as it is (Sources/AliciaSession/PositionStore.swift), over the
    /// database's records: the file the player writes, byte for byte.
    static func positionsFile(_ positions: [String: PositionRecord]) -> [UInt8] {
        func milliseconds(_ value: Int64) -> JSONValue { .number(Double(value)) }
        var entries: [JSONValue.Member] = []
        for (key, saved) in positions {
            var fields: [JSONValue.Member] = []
            if let duration = saved.durationMS { fields.append(.init("duration_ms", milliseconds(duration))) }
            fields.append(.init("played", .bool(saved.played)))
            fields.append(.init("position_ms", milliseconds(saved.positionMS)))
            fields.append(.init("updated_ms", milliseconds(saved.updatedMS)))
            entries.append(.init(key, .object(fields)))
        }
        return JSONValue.object([.init("positions", .object(entries)), .init("version", .number(2))]).text(layout: .indented) ?? []
    }

    static let continueText = """
        #EXTM3U
        #ALICIA-BACKEND:127.0.0.1:8766
        #ALICIA-CURRENT:1
        #ALICIA-POSITION:83.5
        #EXTINF:180,Episode One
        S1E01
        #EXTINF:-1,Épisode deux ☕
        /home/ann/Podcasts/deux.mp3

        """
    static let stateText = "# alicia-player: what the Studio remembers between runs\nvolume = 80\nspeed = 1.25\n"

    /// Every odd case: a played mark, no duration, a unicode key, a file path, a synthesis key, a
    /// URL, and many ordinary entries.
    static func oldPositions() -> [String: PositionRecord] {
        var positions: [String: PositionRecord] = [
            "S1E01": PositionRecord(positionMS: 0, durationMS: 180_000, played: true, updatedMS: 1_751_000_000_001),
            "S1E02": PositionRecord(positionMS: 83_500, durationMS: nil, played: false, updatedMS: 1_751_000_000_002),
            "Épisode 7 — ☕ 東京 \"quoted\" \\ back": PositionRecord(positionMS: 1, durationMS: 2, played: false, updatedMS: 3),
            "/home/ann/Podcasts/deux.mp3": PositionRecord(positionMS: 61_000, durationMS: 3_600_000, played: false, updatedMS: 4),
            "synthesis:S1E01:summary": PositionRecord(positionMS: 5000, durationMS: 9000, played: false, updatedMS: 5),
            "http://127.0.0.1:8766/api/audio/a.wav?x=1": PositionRecord(positionMS: 7, durationMS: 8, played: false, updatedMS: 6),
        ]
        for index in 0..<3000 {
            positions["E\(index)"] = PositionRecord(positionMS: Int64(index) * 1000, durationMS: 3_600_000, played: index % 7 == 0,
                                                    updatedMS: 1_700_000_000_000 + Int64(index))
        }
        return positions
    }

    private func oldStateDirectory(_ scratch: ScratchDirectory, positions: [UInt8]) throws -> String {
        let state = scratch.file("state/alicia-player")
        try scratch.write(positions, to: state + "/positions.json")
        try scratch.write([], to: state + "/positions.json.lock")
        try scratch.write(Self.continueText, to: state + "/continue.m3u8")
        try scratch.write(Self.stateText, to: state + "/state")
        try scratch.write(#"{"items":{"S1E01":{"integrated":-19.3,"peak":-2.1}},"version":1}"#, to: state + "/loudness.json")
        return state
    }

    @Test func everyPositionAndPlayedMarkAndTheStudiosStateAreImportedOnceAndTheFileRenamed() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let old = Self.oldPositions()
        let file = Self.positionsFile(old)
        let state = try oldStateDirectory(scratch, positions: file)
        let path = scratch.file("data/alicia-player/library.db")
        let store = try LibraryStore(path: path, importingFrom: state)
        #expect(store.warnings.isEmpty, "\(store.warnings)")
        #expect(try store.positions() == old)
        #expect(try store.value(forKey: LibraryStore.continueListeningKey) == Self.continueText)
        #expect(try store.value(forKey: LibraryStore.listenerStateKey) == Self.stateText)
        let names = ScratchDirectory.names(in: state)
        #expect(names == ["continue.m3u8", "loudness.json", "positions.json.imported", "positions.json.lock", "state"])
        #expect(ScratchDirectory.read(state + "/positions.json.imported") == file, "renamed, not rewritten")

        // A later start imports nothing again: a position saved since stays.
        try store.savePosition(PositionRecord(positionMS: 1, durationMS: nil, played: false, updatedMS: 2_000_000_000_000), for: "S1E02")
        try store.setValue("changed", forKey: LibraryStore.listenerStateKey)
        let again = try LibraryStore(path: path, importingFrom: state)
        #expect(try again.position(for: "S1E02")?.positionMS == 1)
        #expect(try again.value(forKey: LibraryStore.listenerStateKey) == "changed")
    }

    /// An older alicia-player still running saves again after the import: its file is taken in too,
    /// each key's newer save winning.
    @Test func aPositionsFileWrittenAfterTheImportIsMergedAtTheNextStart() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let state = try oldStateDirectory(scratch, positions: Self.positionsFile([
            "A": PositionRecord(positionMS: 1000, durationMS: nil, played: false, updatedMS: 100),
        ]))
        let path = scratch.file("library.db")
        let store = try LibraryStore(path: path, importingFrom: state)
        try store.savePosition(PositionRecord(positionMS: 9000, durationMS: nil, played: false, updatedMS: 900), for: "A")
        try scratch.write(Self.positionsFile([
            "A": PositionRecord(positionMS: 5000, durationMS: nil, played: false, updatedMS: 500),
            "B": PositionRecord(positionMS: 2000, durationMS: nil, played: true, updatedMS: 200),
        ]), to: state + "/positions.json")
        let again = try LibraryStore(path: path, importingFrom: state)
        #expect(try again.positions().mapValues(\.positionMS) == ["A": 9000, "B": 2000])
        #expect(ScratchDirectory.names(in: state).filter { $0.hasPrefix("positions.json.imported") }.count == 2,
                "the first import's file is kept")
        #expect(!ScratchDirectory.exists(state + "/positions.json"))
    }

    @Test(arguments: [Array("{ not json".utf8), Array(#"{"version":2,"positions":{"A":{"position_ms":"12"}}}"#.utf8), [0xFF, 0xFE]])
    func aCorruptPositionsFileIsMovedAsideWithAWarningAndNothingOfItImported(bytes: [UInt8]) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let state = try oldStateDirectory(scratch, positions: bytes)
        let store = try LibraryStore(path: scratch.file("library.db"), importingFrom: state)
        #expect(try store.positions().isEmpty)
        #expect(store.warnings.count == 1 && store.warnings[0].contains("moved it to"), "\(store.warnings)")
        let aside = ScratchDirectory.names(in: state).filter { $0.hasPrefix("positions.json.corrupt-") }
        #expect(aside.count == 1)
        #expect(aside.first.flatMap { ScratchDirectory.read(state + "/" + $0) } == bytes)
        #expect(try store.value(forKey: LibraryStore.continueListeningKey) == Self.continueText, "the rest is still imported")
        let again = try LibraryStore(path: scratch.file("library.db"), importingFrom: state)
        #expect(again.warnings.isEmpty)
    }

    @Test func anEmptyOrMissingStateDirectoryMakesAnEmptyLibrary() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = try LibraryStore(path: scratch.file("library.db"), importingFrom: scratch.file("no/such/state"))
        #expect(try store.positions().isEmpty && store.value(forKey: LibraryStore.continueListeningKey) == nil)
        #expect(store.warnings.isEmpty)
        let state = try oldStateDirectory(scratch, positions: [])
        let empty = try LibraryStore(path: scratch.file("other.db"), importingFrom: state)
        #expect(try empty.positions().isEmpty && empty.warnings.isEmpty)
        #expect(ScratchDirectory.exists(state + "/positions.json.imported"))
    }

    /// An import that fails halfway (here a trigger a test migration adds aborts it after 500 rows;
    /// in life a full disk) leaves no database schema, no row and the old files as they were.
    @Test func anImportThatFailsMidwayLeavesNothingAndTheFilesInPlace() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = Self.positionsFile(Self.oldPositions())
        let state = try oldStateDirectory(scratch, positions: file)
        let path = scratch.file("library.db")
        let failing = LibraryStore.migrations + [Migration("""
            CREATE TEMP TRIGGER fail_midway BEFORE INSERT ON positions WHEN (SELECT count(*) FROM positions) >= 500
            BEGIN SELECT RAISE(ABORT, 'injected failure'); END
            """)]
        #expect(throws: LibraryError.self) { try LibraryStore(path: path, importingFrom: state, migrations: failing) }
        #expect(ScratchDirectory.read(state + "/positions.json") == file)
        #expect(!ScratchDirectory.exists(state + "/positions.json.imported"))
        let raw = try SQLiteDatabase(path: path)
        #expect(try raw.userVersion() == 0)
        let store = try LibraryStore(path: path, importingFrom: state)
        #expect(try store.positions().count == Self.oldPositions().count, "the next start imports it all")
    }
}
