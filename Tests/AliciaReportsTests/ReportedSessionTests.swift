import AliciaAudio
import AliciaBackend
import AliciaReports
import AliciaSession
import AliciaTestSupport
import Testing

/// The reporter over a real session in-process (recording outputs, no sound server): what the
/// engine's snapshots say around a seek, a pause and the end is what the rules read. The "device"
/// plays when the test says, a turn after each second of it, on a clock of the test's own.
@Suite struct ReportedSessionTests {
    static let rate = 16_000

    final class Rig {
        let directory: TemporaryDirectory
        let episodes = RecordingSinks()
        let voices = RecordingSinks()
        let session: ListeningSession
        let item: QueueItem
        let reporter = ListeningReporter(wallClock: { 1_790_000_000 })
        private(set) var now = 500.0
        private(set) var events: [EpisodeDayEvent] = []
        private(set) var notices: [SessionNotice] = []

        init(seconds: Double) throws {
            directory = try TemporaryDirectory(prefix: "reported")
            let path = try directory.write(WAVFixture(seconds: seconds, sampleRate: ReportedSessionTests.rate, channels: 1, seed: 7).bytes,
                                           as: "episode.wav")
            item = QueueItem(location: try MediaLocation(path), title: "Fixture", label: "T1")
            var options = ListeningSession.Options()
            options.outputs = (episodes.output(), voices.output())
            session = ListeningSession(options)
        }

        deinit {
            session.close()
            directory.remove()
        }

        /// One turn of the host, `after` seconds of the test's clock past the last.
        func turn(after seconds: Double = 0) {
            now += seconds
            let taken = session.notices()
            notices += taken
            events += reporter.update(taken, session.view.snapshot(), at: now)
        }

        /// Waits a moment for the session's next events, and gives them to the reporter as a turn.
        private func wait() {
            let taken = session.nextNotices(timeout: .milliseconds(10))
            notices += taken
            events += reporter.update(taken, session.view.snapshot(), at: now)
        }

        /// Turns (the session's events read as they come) until `condition` holds; false after a
        /// bound of them.
        func until(_ condition: () -> Bool) -> Bool {
            for _ in 0..<400 {
                turn()
                if condition() { return true }
                wait()
            }
            return false
        }

        /// The device plays `seconds` of the episode, a turn after each second of it.
        func listen(_ seconds: Int) throws {
            for _ in 0..<seconds {
                try play(frames: Int64(ReportedSessionTests.rate))
                turn(after: 1)
            }
        }

        /// The device plays on, a tenth of a second a turn, until the episode's end is reported;
        /// false after a bound of turns.
        func playToTheEnd() -> Bool {
            for _ in 0..<400 {
                episodes.all.last?.play(frames: Int64(ReportedSessionTests.rate / 10))
                turn(after: 0.1)
                if events.last?.action == .finished { return true }
                wait()
            }
            return false
        }

        /// The device plays `frames`, as the feeder writes them (bounded: a stuck feeder fails).
        private func play(frames: Int64) throws {
            guard let sink = episodes.current(timeout: .seconds(10)) else { throw RigError("no episode sink was made") }
            var left = frames
            var idle = 0
            while left > 0 {
                let before = sink.snapshot.played
                sink.play(frames: left)
                let moved = sink.snapshot.played - before
                left -= moved
                if moved == 0 {
                    idle += 1
                    guard idle < 200 else { throw RigError("the feeder wrote nothing for 200 waits with \(left) frames to play") }
                    _ = sink.waitForWritten(sink.snapshot.written + 1, timeout: .milliseconds(20))
                }
            }
        }
    }

    struct RigError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test("a real session: a seek, a pause and the end read as the rules say")
    func seekPauseAndEnd() throws {
        let rig = try Rig(seconds: 40)
        rig.session.perform(.load(LoadPlan([rig.item])))
        #expect(rig.until { rig.events.count == 1 }, "no playing: \(rig.notices)")
        #expect(rig.events.first?.action == .playing && rig.events.first?.episodeID == "episode:T1")
        try rig.listen(10)
        rig.session.perform(.seek(.to(25)))
        rig.turn()
        #expect(rig.events.last?.action == .progress && abs((rig.events.last?.playedMS ?? 0) - 10_000) <= 100, "\(rig.events)")
        #expect(rig.until { rig.session.view.snapshot().seekTarget == nil && rig.session.view.snapshot().state == .playing })
        try rig.listen(5)
        rig.session.perform(.pause)
        rig.turn()
        #expect(rig.events.last?.action == .progress && abs((rig.events.last?.positionMS ?? 0) - 30_000) <= 100, "\(rig.events)")
        rig.turn(after: 60)
        rig.session.perform(.resume)
        #expect(rig.until { rig.session.view.snapshot().state == .playing })
        try rig.listen(9)
        #expect(rig.playToTheEnd(), "no finished: \(rig.events), \(rig.notices)")
        let actions = rig.events.map(\.action)
        #expect(actions.first == .playing && actions.last == .finished && !actions.dropFirst().dropLast().contains(.playing), "\(actions)")
        let reported = Double(rig.events.map(\.playedMS).reduce(0, +)) / 1000
        #expect(abs(reported - 25) <= 1, "reported \(reported) s of 25 s heard: \(rig.events)")
        #expect(rig.events.last?.positionMS == 40_000)
    }
}
