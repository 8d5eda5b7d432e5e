import AliciaAudio
import AliciaLocks
import AliciaSession
import AliciaStore
@testable import AliciaSync
import AliciaTestSupport
import Foundation
import Testing

/// The host's sync thread against the fake Nextcloud server: a pass at start, one on pause, the
/// last at close; a failure said once and its recovery once. Waits are for the agent's counts (with
/// a hang guard), never for a time.
@Suite("Sync agent", .serialized)
struct SyncAgentTests {
    static func waitFor(_ agent: SyncAgent, _ condition: ((passes: Int, failures: Int)) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition(agent.counts) {
            guard ContinuousClock.now < deadline else { throw HarnessError("the agent never got to \(agent.counts)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test("a pass at start, one on pause, the last after close; what was heard goes up")
    func passes() async throws {
        let server = try await FakeSyncServer()
        defer { server.stop() }
        let desk = try SyncPassTests.Device("desk", port: server.port)
        try desk.subscribe()
        let job = SyncJob(account: desk.account, databasePath: desk.directory.file("library.db"),
                          positionsDirectory: desk.directory.file("state"), cacheDirectory: nil)
        let said = Locked<[String]>([])
        let agent = SyncAgent(job) { line in said.withLock { $0.append(line) } }
        try await Self.waitFor(agent) { $0.passes >= 1 }

        let positions = desk.positions
        positions.record(SyncPassTests.episodes[0], position: 321, duration: 3600)
        #expect(positions.save())
        var playing = PlayerSnapshot()
        playing.state = .playing
        agent.update([], playing)
        var paused = playing
        paused.state = .paused
        agent.update([], paused)
        try await Self.waitFor(agent) { $0.passes >= 2 }
        #expect(try server.actions().contains { $0["position"]?.integerValue == 321 })

        positions.record(SyncPassTests.episodes[0], position: 400, duration: 3600)
        #expect(positions.save())
        agent.close()
        #expect(agent.counts.passes >= 3 && agent.counts.failures == 0)
        #expect(try server.actions().contains { $0["position"]?.integerValue == 400 })
        #expect(said.withLock { $0 }.isEmpty)
    }

    @Test("a server that is down is said once, not once a pass, and its return once")
    func failureSaidOnce() async throws {
        let server = try await FakeSyncServer()
        let desk = try SyncPassTests.Device("desk", port: server.port)
        server.stop()
        let job = SyncJob(account: desk.account, databasePath: desk.directory.file("library.db"),
                          positionsDirectory: desk.directory.file("state"), cacheDirectory: nil)
        let said = Locked<[String]>([])
        let agent = SyncAgent(job) { line in said.withLock { $0.append(line) } }
        try await Self.waitFor(agent) { $0.failures >= 1 }
        var paused = PlayerSnapshot()
        paused.state = .playing
        agent.update([], paused)
        paused.state = .paused
        agent.update([], paused)
        try await Self.waitFor(agent) { $0.failures >= 2 }
        #expect(said.withLock { $0 }.count == 1)
        #expect(said.withLock { $0 }.first?.contains("cannot reach") == true)

        let again = try await FakeSyncServer(directory: server.directory, port: server.port)
        defer { again.stop() }
        agent.close()
        #expect(said.withLock { $0 }.count == 2 && said.withLock { $0 }.last?.contains("again") == true, "\(said.withLock { $0 })")
    }
}
