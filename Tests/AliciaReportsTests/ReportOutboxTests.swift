import AliciaBackend
import AliciaDemoBackend
import AliciaJSON
import AliciaLocks
import AliciaReports
import AliciaStore
import AliciaTestSupport
import Testing

/// The outbox against the demo backend over loopback (`DemoBackend`, Alicia 2.0): events written
/// to the library database before any send, sent in order and once each, through an outage and a
/// crash. Waits are on the outbox's own counts, bounded; a quick back-off keeps the outage short.
@Suite struct ReportOutboxTests {
    /// What an outbox of a test needs: a database of its own, the backend, the lines it said.
    final class Rig {
        let directory: TemporaryDirectory
        let backend: DemoBackend
        let said = Locked<[String]>([])

        init() throws {
            directory = try TemporaryDirectory(prefix: "reports")
            backend = try DemoBackend(token: DemoBackend.randomToken(), dialect: .v2)
        }

        deinit {
            backend.stop()
            directory.remove()
        }

        var databasePath: String { directory.file("data/alicia-player/library.db") }

        var configuration: BackendConfiguration {
            get throws { try BackendConfiguration(baseURL: backend.baseURL, token: backend.token) }
        }

        func outbox() throws -> ReportOutbox {
            let said = self.said
            return ReportOutbox(ReportOutbox.Settings(databasePath: databasePath, backend: try configuration,
                                                      backoff: ReportBackoff(first: 0.05, limit: 0.2),
                                                      notify: { line in said.withLock { $0.append(line) } }))
        }

        /// What waits in the database, read through a connection of the test's own.
        func waiting() throws -> [OutboxRecord] {
            try LibraryStore(path: databasePath).outbox()
        }

        /// Event ids the backend took (each once: it records an id once), in the order taken.
        var received: [String] { backend.episodeDayEvents.map(\.eventID) }

        /// `POST /api/episode_day` requests the backend answered with 200.
        var takenRequests: Int {
            backend.requests.filter { $0.method == "POST" && $0.path.hasPrefix("/api/episode_day") && $0.status == 200 }.count
        }
    }

    static func events(_ count: Int, label: String = "S1E01") -> [EpisodeDayEvent] {
        (0..<count).map { index in
            EpisodeDayEvent(action: index == 0 ? .playing : .progress, episodeID: EpisodeDayEvent.episodeID(label: label),
                            positionMS: index * 15_000, playedMS: index == 0 ? 0 : 15_000, title: "Morning Light")
        }
    }

    static let patience = Duration.seconds(20)

    @Test("events go out in the order they were made, each once, and leave the database")
    func inOrder() throws {
        let rig = try Rig()
        let outbox = try rig.outbox()
        let events = Self.events(6)
        outbox.enqueue(Array(events.prefix(2)))
        outbox.enqueue(Array(events.dropFirst(2)))
        #expect(outbox.wait(timeout: Self.patience) { $0.accepted == 6 }, "\(outbox.counts)")
        outbox.close()
        #expect(rig.received == events.map(\.eventID.text))
        #expect(rig.takenRequests == 6)
        let recorded = rig.backend.episodeDayEvents
        #expect(recorded.map(\.action) == ["playing", "progress", "progress", "progress", "progress", "progress"])
        #expect(recorded.allSatisfy { $0.episodeID == "episode:S1E01" && $0.title == "Morning Light" })
        #expect(recorded.map(\.positionMS) == events.map(\.positionMS))
        #expect(try rig.waiting().isEmpty)
        #expect(rig.said.withLock { $0 }.isEmpty)
    }

    @Test("with the backend down the events wait in the database, and go out once each, in order, when it is back")
    func outage() throws {
        let rig = try Rig()
        rig.backend.episodeDayFault = .unavailable
        let outbox = try rig.outbox()
        let events = Self.events(4)
        outbox.enqueue(events)
        #expect(outbox.wait(timeout: Self.patience) { $0.written == 4 && $0.kept >= 3 }, "\(outbox.counts)")
        let waiting = try rig.waiting()
        #expect(waiting.map(\.eventID) == events.map(\.eventID.text), "all four wait, in order")
        #expect(waiting.first?.attempts ?? 0 >= 1 && waiting.dropFirst().allSatisfy { $0.attempts == 0 }, "only the head was tried")
        #expect(waiting.first?.lastError?.contains("restarting") == true, "\(String(describing: waiting.first?.lastError))")
        #expect(rig.received.isEmpty)
        rig.backend.episodeDayFault = nil
        #expect(outbox.wait(timeout: Self.patience) { $0.accepted == 4 }, "\(outbox.counts)")
        outbox.close()
        #expect(rig.received == events.map(\.eventID.text))
        #expect(rig.takenRequests == 4, "each sent once it was taken: \(rig.backend.requests)")
        #expect(try rig.waiting().isEmpty)
        let said = rig.said.withLock { $0 }
        #expect(said.count == 2, "one line when it failed, one when it recovered: \(said)")
        #expect(said.first?.contains("not reaching the backend") == true && said.last?.contains("again") == true, "\(said)")
    }

    @Test("what a run left unsent (it stopped with the backend down) is sent by the next run on the same file")
    func nextRunSendsWhatWasLeft() throws {
        let rig = try Rig()
        rig.backend.episodeDayFault = .retryLater
        let first = try rig.outbox()
        let events = Self.events(3)
        first.enqueue(events)
        #expect(first.wait(timeout: Self.patience) { $0.written == 3 && $0.kept >= 1 }, "\(first.counts)")
        // Closed with no grace, as a process that dies: nothing more is tried.
        first.close(grace: 0)
        #expect(first.counts.accepted == 0)
        #expect(try rig.waiting().count == 3)
        rig.backend.episodeDayFault = nil
        let second = try rig.outbox()
        #expect(second.wait(timeout: Self.patience) { $0.accepted == 3 }, "\(second.counts)")
        second.close()
        #expect(rig.received == events.map(\.eventID.text))
        // "Try again later" is a 200 too: besides those, each event went once.
        #expect(rig.takenRequests == 3 + first.counts.kept, "\(rig.backend.requests)")
        #expect(try rig.waiting().isEmpty)
    }

    @Test("rows written by a run that died before sending are sent in order; another backend's stay")
    func rowsLeftInTheFile() throws {
        let rig = try Rig()
        let events = Self.events(3)
        let store = try LibraryStore(path: rig.databasePath)
        let rows = try events.map { (eventID: $0.eventID.text, body: String(decoding: try JSON.encode($0), as: UTF8.self)) }
        try store.appendToOutbox([rows[0]], backend: "http://elsewhere.invalid:8766")
        try store.appendToOutbox(Array(rows.dropFirst()), backend: rig.backend.baseURL)
        let outbox = try rig.outbox()
        #expect(outbox.wait(timeout: Self.patience) { $0.accepted == 2 }, "\(outbox.counts)")
        outbox.close()
        #expect(rig.received == events.dropFirst().map(\.eventID.text))
        #expect(try rig.waiting().map(\.backend) == ["http://elsewhere.invalid:8766"])
    }

    @Test("an event the backend refuses for good is dropped, and the next goes out")
    func dropped() throws {
        let rig = try Rig()
        rig.backend.episodeDayFault = .refuse
        let outbox = try rig.outbox()
        let events = Self.events(2)
        outbox.enqueue([events[0]])
        #expect(outbox.wait(timeout: Self.patience) { $0.dropped == 1 }, "\(outbox.counts)")
        #expect(try rig.waiting().isEmpty)
        rig.backend.episodeDayFault = nil
        outbox.enqueue([events[1]])
        #expect(outbox.wait(timeout: Self.patience) { $0.accepted == 1 }, "\(outbox.counts)")
        outbox.close()
        #expect(rig.received == [events[1].eventID.text])
        #expect(rig.said.withLock { $0 }.isEmpty, "a refusal is an answer: nothing to say")
    }

    @Test("closing sends what waits within the grace; with the backend down it leaves at once")
    func closing() throws {
        let rig = try Rig()
        let outbox = try rig.outbox()
        let events = Self.events(3)
        outbox.enqueue(events)
        outbox.close()
        #expect(rig.received == events.map(\.eventID.text), "enqueued just before closing, sent before close returned")
        rig.backend.episodeDayFault = .unavailable
        let down = try rig.outbox()
        down.enqueue(Self.events(1))
        let began = MonotonicClock.seconds()
        down.close()
        #expect(MonotonicClock.seconds() - began < ReportOutbox.closeGrace + 1, "a failing backend does not hold the close for its grace")
        #expect(try rig.waiting().count == 1, "written before it left")
    }

    @Test(arguments: [(1, 2.0), (2, 4.0), (3, 8.0), (8, 256.0), (9, 300.0), (40, 300.0)])
    func backoffDoublesToFiveMinutes(attempts: Int, expected: Double) {
        let backoff = ReportBackoff()
        #expect(backoff.delay(afterAttempts: attempts, random: 0) == expected)
        let jittered = backoff.delay(afterAttempts: attempts, random: 1)
        #expect(abs(jittered - expected * 0.8) < 1e-9)
    }
}
