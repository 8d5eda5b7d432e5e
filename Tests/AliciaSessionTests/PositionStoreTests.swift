import Foundation
import Testing
import AliciaAudio
import AliciaTestSupport
@testable import AliciaSession

@Suite struct PositionStoreTests {
    @Test func aSavedPositionIsReadBackByAnotherStore() throws {
        let directory = try TemporaryDirectory(prefix: "positions")
        let store = PositionStore(directory: directory.path)
        store.record("S1E01", position: 83.5, duration: 180)
        #expect(store.save())
        let again = PositionStore(directory: directory.path)
        #expect(again.position(for: "S1E01")?.position == 83.5)
        #expect(again.position(for: "S1E01")?.played == false)
        var info = stat()
        #expect(stat(store.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600, "the positions file is not 0600")
    }

    /// Guards two players losing each other's positions: each save merges with the file.
    @Test func twoStoresWritingInTurnKeepBothUpdates() throws {
        let directory = try TemporaryDirectory(prefix: "positions")
        let first = PositionStore(directory: directory.path)
        let second = PositionStore(directory: directory.path)
        first.record("A", position: 10, duration: 100)
        second.record("B", position: 20, duration: 100)
        #expect(first.save())
        #expect(second.save())
        let read = PositionStore(directory: directory.path)
        #expect(read.position(for: "A")?.position == 10)
        #expect(read.position(for: "B")?.position == 20)
    }

    @Test func theNewerOfTwoSavesOfOneEpisodeWins() throws {
        let directory = try TemporaryDirectory(prefix: "positions")
        let older = PositionStore(directory: directory.path)
        let newer = PositionStore(directory: directory.path)
        older.record("A", position: 10, duration: 100)
        newer.record("A", position: 40, duration: 100)
        #expect(newer.save())
        #expect(older.save())
        #expect(PositionStore(directory: directory.path).position(for: "A")?.position == 40)
    }

    /// Within the last 30 s (or the last tenth, for items under 5 minutes).
    @Test(arguments: [(1000.0, 969.0, false), (1000.0, 970.0, true), (1000.0, 999.0, true), (20.0, 18.5, true), (20.0, 1.0, false)])
    func nearTheEndIsPlayed(duration: Double, position: Double, played: Bool) throws {
        let directory = try TemporaryDirectory(prefix: "positions")
        let store = PositionStore(directory: directory.path)
        store.record("A", position: position, duration: duration)
        #expect(store.position(for: "A")?.played == played)
        if played { #expect(store.position(for: "A")?.position == 0, "a played episode starts from the beginning") }
    }

    @Test func aCorruptFileIsMovedAsideWithAWarning() throws {
        let directory = try TemporaryDirectory(prefix: "positions")
        _ = try directory.write(Array("{ not json".utf8), as: "positions.json")
        let store = PositionStore(directory: directory.path)
        #expect(store.all.isEmpty)
        #expect(store.warnings.count == 1 && store.warnings[0].contains("moved it to"), "\(store.warnings)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.contains { $0.hasPrefix("positions.json.corrupt-") }, "\(names)")
        store.record("A", position: 5, duration: 60)
        #expect(store.save())
        #expect(PositionStore(directory: directory.path).position(for: "A")?.position == 5)
    }

    @Test(arguments: [(30.0, 0.0), (61.0, 3.0), (3601.0, 10.0), (90_000.0, 20.0)])
    func theRewindGrowsWithTheTimeAway(away: Double, rewind: Double) {
        #expect(PositionStore.rewind(afterPause: away) == rewind)
    }

    @Test func theKeyIsTheLabelElseThePathElseTheURLWithoutItsToken() throws {
        let url = try MediaLocation("http://host:8766/api/audio/a.wav?token=s3cret&x=1")
        #expect(PositionStore.key(label: "S1E01", location: url) == "S1E01")
        #expect(PositionStore.key(label: nil, location: url) == "http://host:8766/api/audio/a.wav?x=1")
        #expect(PositionStore.key(label: nil, location: try MediaLocation("/tmp/a.wav")) == "/tmp/a.wav")
    }
}
