import AliciaJSON
import AliciaSession
import AliciaStore
@testable import AliciaSync
import AliciaTestSupport
import Foundation
import Testing

/// A sync pass against a fake of Nextcloud's GPodder Sync (Tests/Servers/gpoddersync_fake.py, as the
/// app answers: capitals, offsets, no device, one action per episode), with a real library database
/// and a real positions file in a temporary directory. The gpodder.net dialect is tested against a
/// real server in PlaybackIntegrationTests.SyncServerTests.
@Suite("Sync pass (Nextcloud GPodder Sync)", .serialized)
struct SyncPassTests {
    static let password = "pw-7f3c-secret"
    static let show = "http://127.0.0.1:9/show.xml"
    static let episodes = ["http://127.0.0.1:9/e1.mp3", "http://127.0.0.1:9/e2.mp3"]

    /// One device: its library, its positions, its account on the fake.
    struct Device {
        let directory: TemporaryDirectory
        let store: LibraryStore
        let account: SyncAccount

        init(_ name: String, port: Int) throws {
            directory = try TemporaryDirectory(prefix: "sync-\(name)")
            store = try LibraryStore(path: directory.file("library.db"))
            account = SyncAccount(server: "http://127.0.0.1:\(port)", user: "ann", device: name, password: SyncPassTests.password,
                                  dialect: .nextcloud)
        }

        var positions: PositionStore { PositionStore(directory: directory.file("state")) }

        /// The show and its two episodes, as a refresh would have written them.
        func subscribe() throws {
            let id = try store.upsertShow(url: SyncPassTests.show)
            let infos = SyncPassTests.episodes.enumerated().map { index, url in
                EpisodeInfo(guid: "guid-\(index + 1)", title: "Episode \(index + 1)", url: url, positionKey: url)
            }
            _ = try store.upsertEpisodes(infos, showID: id)
        }

        func sync() throws -> SyncPass.Report {
            try SyncPass(client: try SyncClient(account), store: store, positions: positions).run()
        }
    }

    @Test("positions go up with their GUIDs, subscriptions both ways, a newer position from elsewhere is taken and an older one is not")
    func roundTrip() async throws {
        let server = try await FakeSyncServer()
        defer { server.stop() }
        let desk = try Device("desk", port: server.port)
        try desk.subscribe()
        #expect(try SyncClient.detectDialect(desk.account) == .nextcloud)

        // Heard here: 12:34 of the first episode.
        let positions = desk.positions
        positions.record(Self.episodes[0], position: 754, duration: 3600)
        #expect(positions.save())
        let first = try desk.sync()
        // The play, and the two episodes a refresh found as `new` (which Nextcloud's app takes and drops).
        #expect(first.sentAdded == 1 && first.actionsSent == 3)
        let stored = try server.actions()
        #expect(stored.count == 1)
        #expect(stored.first?["guid"]?.stringValue == "guid-1" && stored.first?["position"]?.integerValue == 754
                && stored.first?["total"]?.integerValue == 3600 && stored.first?["podcast"]?.stringValue == Self.show)
        #expect(try SyncQueue.waiting(store: desk.store, positions: desk.positions, state: SyncState.load(desk.store, for: desk.account)) == 0)

        // Another device: the account's subscription and the position come to it; it then hears
        // more of the first episode and an older play of the second is uploaded by a third.
        let phone = try Device("phone", port: server.port)
        let taken = try phone.sync()
        #expect(taken.subscribedHere == [Self.show] && taken.positionsTaken == 1)
        #expect(try phone.store.showID(forURL: Self.show) != nil, "a feed that cannot be fetched now is kept, not dropped")
        #expect(phone.positions.position(for: Self.episodes[0])?.position == 754)

        let now = Int(Date().timeIntervalSince1970)
        let other = try SyncClient(SyncAccount(server: desk.account.server, user: "ann", device: "tablet", password: Self.password,
                                               dialect: .nextcloud))
        _ = try other.upload([
            EpisodeAction(podcast: Self.show, episode: Self.episodes[0], guid: "guid-1", action: .play,
                          timestamp: EpisodeAction.timestamp(now - 3600), started: 0, position: 100, total: 3600),
            EpisodeAction(podcast: Self.show, episode: "http://tracker.example/redirect/127.0.0.1:9/e2.mp3", guid: "guid-2", action: .play,
                          timestamp: EpisodeAction.timestamp(now + 5), started: 0, position: 1200, total: 3600),
        ])
        let second = try desk.sync()
        #expect(second.positionsTaken == 1)
        #expect(desk.positions.position(for: Self.episodes[0])?.position == 754, "an older position from elsewhere is not taken")
        #expect(desk.positions.position(for: Self.episodes[1])?.position == 1200, "found by its GUID under a tracker's URL")
        #expect(second.actionsSent == 0, "a position taken from the server is not sent back")

        let log = try String(contentsOfFile: server.directory.file("requests.log"), encoding: .utf8)
        #expect(!log.isEmpty && !log.contains(Self.password))
    }

    @Test("with the server down a pass fails in one line and what was heard waits; the next pass after it is back sends it")
    func offline() async throws {
        let server = try await FakeSyncServer()
        let desk = try Device("desk", port: server.port)
        try desk.subscribe()
        _ = try desk.sync()
        server.stop()

        let positions = desk.positions
        positions.record(Self.episodes[1], position: 61, duration: 1800)
        #expect(positions.save())
        let failure = try #require(throws: SyncError.self) { try desk.sync() }
        #expect(failure.message.contains("cannot reach http://127.0.0.1:\(server.port)") && !failure.message.contains("\n"))
        var state = try SyncState.load(desk.store, for: desk.account)
        #expect(state.lastError == failure.message)
        #expect(try SyncQueue.waiting(store: desk.store, positions: desk.positions, state: state) == 1)

        let again = try await FakeSyncServer(directory: server.directory, port: server.port)
        defer { again.stop() }
        #expect(try desk.sync().actionsSent == 1)
        state = try SyncState.load(desk.store, for: desk.account)
        #expect(state.lastError == nil && state.lastSyncMS != nil)
        #expect(try again.actions().contains { $0["episode"]?.stringValue == Self.episodes[1] && $0["position"]?.integerValue == 61 })
    }

    @Test("Alicia's episodes sync by label under her /api/tracks and their URL without the token, and come back to their label")
    func aliciasEpisodes() async throws {
        let server = try await FakeSyncServer()
        defer { server.stop() }
        let desk = try Device("desk", port: server.port)
        #expect(SyncAlias(label: "S11E04", url: "http://alicia.local:8766/media/s11e04.wav?token=abc") == nil)
        let alias = try #require(SyncAlias(label: "S11E04", url: "http://alicia.local:8766/media/s11e04.wav"))
        let positions = desk.positions
        positions.record("S11E04", position: 95, duration: 1900)
        #expect(positions.save())
        var pass = SyncPass(client: try SyncClient(desk.account), store: desk.store, positions: desk.positions)
        pass.aliases = ["S11E04": alias]
        #expect(try pass.run().actionsSent == 1)
        let sent = try #require(try server.actions().first)
        #expect(sent["podcast"]?.stringValue == "http://alicia.local:8766/api/tracks" && sent["guid"]?.stringValue == "episode:S11E04"
                && sent["episode"]?.stringValue == "http://alicia.local:8766/media/s11e04.wav" && sent["position"]?.integerValue == 95)

        let phone = try Device("phone", port: server.port)
        #expect(try phone.sync().positionsTaken == 1)
        #expect(phone.positions.position(for: "S11E04")?.position == 95)
    }

    @Test("a wrong password is said as such, without the password")
    func wrongPassword() async throws {
        let server = try await FakeSyncServer()
        defer { server.stop() }
        var account = try Device("desk", port: server.port).account
        account.password = "not-the-password"
        let failure = try #require(throws: SyncError.self) { try SyncClient.detectDialect(account) }
        #expect(failure.unauthorized && failure.message.contains("refused user ann") && !failure.message.contains("not-the-password"))
    }
}

/// The fake Nextcloud GPodder Sync server, on a free port (or a given one, to come back on).
final class FakeSyncServer: Sendable {
    static let script = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/"))
        + "/Servers/gpoddersync_fake.py"
    let directory: TemporaryDirectory
    let port: Int
    private let process: ChildProcess

    init(directory: TemporaryDirectory? = nil, port: Int = 0) async throws {
        let directory = try directory ?? TemporaryDirectory(prefix: "gpoddersync")
        let portFile = directory.file("port")
        try? FileManager.default.removeItem(atPath: portFile)
        process = try ChildProcess("python3", [Self.script, directory.path, portFile, "ann", SyncPassTests.password, String(port)])
        guard let found = try await LoopbackPort.written(to: portFile, by: process) else {
            process.send(SIGKILL)
            throw HarnessError("the fake GPodder Sync server did not start: \(process.stderrTextSoFar)")
        }
        self.directory = directory
        self.port = found
    }

    func stop() {
        process.send(SIGTERM)
        _ = process.waitBlocking(timeout: .seconds(10))
    }

    /// The episode actions it keeps, as stored.
    func actions() throws -> [JSONValue] {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file("state.json")))
        guard case .array(let actions)? = JSONValue(parsing: Array(bytes))?["actions"] else { return [] }
        return actions
    }
}
