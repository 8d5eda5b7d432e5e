import Testing
import AliciaStore

/// The same rules as PositionStoreTests, over the database.
@Suite struct LibraryStorePositionsTests {
    private func stores() throws -> (ScratchDirectory, LibraryStore, LibraryStore) {
        let (directory, first) = try ScratchDirectory.withStore()
        return (directory, first, try directory.store())
    }

    private func at(_ positionMS: Int64, _ updatedMS: Int64, duration: Int64? = 100_000) -> PositionRecord {
        PositionRecord(positionMS: positionMS, durationMS: duration, played: false, updatedMS: updatedMS)
    }

    @Test func aSavedPositionIsReadBackByAnotherConnection() throws {
        let (scratch, first, second) = try stores()
        defer { scratch.remove() }
        #expect(try first.savePosition(at(83_500, 10, duration: 180_000), for: "S1E01"))
        #expect(try second.position(for: "S1E01") == at(83_500, 10, duration: 180_000))
        #expect(try second.position(for: "S1E02") == nil)
    }

    /// Guards two players losing each other's positions.
    @Test func twoInstancesWritingInTurnKeepBothUpdates() throws {
        let (scratch, first, second) = try stores()
        defer { scratch.remove() }
        try first.savePosition(at(10_000, 1), for: "A")
        try second.savePosition(at(20_000, 2), for: "B")
        #expect(try first.positions() == ["A": at(10_000, 1), "B": at(20_000, 2)])
    }

    @Test func theNewerOfTwoSavesOfOneKeyWinsWhicheverLandsFirst() throws {
        let (scratch, first, second) = try stores()
        defer { scratch.remove() }
        #expect(try second.savePosition(at(40_000, 200), for: "A"))
        #expect(try first.savePosition(at(10_000, 100), for: "A") == false, "an older save does not overwrite a newer one")
        #expect(try first.position(for: "A")?.positionMS == 40_000)
        #expect(try first.savePosition(at(50_000, 300), for: "A"))
        #expect(try second.position(for: "A")?.positionMS == 50_000)
    }

    /// PositionStore keeps what is on disk when the times are equal and the saves differ.
    @Test func ofTwoSavesAtTheSameMillisecondTheOneThereStays() throws {
        let (scratch, first, second) = try stores()
        defer { scratch.remove() }
        try first.savePosition(at(1000, 5), for: "A")
        #expect(try second.savePosition(at(2000, 5), for: "A") == false)
        #expect(try first.position(for: "A")?.positionMS == 1000)
    }

    @Test func aBatchLandsInOneTransactionAndSaysWhichKeysLost() throws {
        let (scratch, first, second) = try stores()
        defer { scratch.remove() }
        try second.savePosition(at(9000, 900), for: "B")
        let lost = try first.savePositions(["A": at(1000, 100), "B": at(2000, 200), "C": at(3000, 300)])
        #expect(lost == ["B"])
        #expect(try second.positions().mapValues(\.positionMS) == ["A": 1000, "B": 9000, "C": 3000])
    }

    @Test func aPlayedMarkStartsFromTheBeginningAndKeepsAMissingDuration() throws {
        let (scratch, store, _) = try stores()
        defer { scratch.remove() }
        try store.savePosition(at(50_000, 1), for: "A")
        try store.markPlayed("A", durationMS: nil, at: 2)
        #expect(try store.position(for: "A") == PositionRecord(positionMS: 0, durationMS: nil, played: true, updatedMS: 2))
        #expect(try store.removePosition(for: "A") && store.position(for: "A") == nil)
    }

    @Test func secondsConvertAsThePositionsFileRoundsThem() {
        let record = PositionRecord(position: 83.5004, duration: nil, played: false, updated: 1_751_000_000.123)
        #expect(record.positionMS == 83_500 && record.durationMS == nil && record.updatedMS == 1_751_000_000_123)
        #expect(PositionRecord(position: -3, duration: .nan, played: false, updated: .infinity)
            == PositionRecord(positionMS: 0, durationMS: 0, played: false, updatedMS: 0))
        #expect(record.position == 83.5)
    }
}
