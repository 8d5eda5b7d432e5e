import AliciaAudio
import AliciaBackend
import AliciaReports
import AliciaSession
import Testing

/// The app's rules for listening evidence, on scripted turns and a clock of the test's own.
@Suite struct ListeningReporterTests {
    static let episode = ScriptedListener.episode("S1E04", title: "The Long Way Round")

    @Test("ten minutes played with two seeks and a pause: playing, progress… adding up to what was heard, finished at the end")
    func tenMinutesWithTwoSeeksAndAPause() {
        let listener = ScriptedListener()
        listener.start(Self.episode, duration: 800)
        listener.play(for: 119.6)
        listener.seek(to: 400)
        listener.play(for: 79.4)
        listener.pause(for: 45)
        listener.play(for: 99.6)
        listener.seek(to: 500, after: 0.7)
        listener.playToEnd()
        // 0 → 120, 400 → 580 with a pause at 480, 500 → 800: ten minutes heard.
        #expect(abs(listener.heard - 600) < 1.5, "the script heard \(listener.heard) s")
        let actions = listener.actions
        #expect(actions.first == .playing)
        #expect(actions.last == .finished)
        #expect(actions.dropFirst().dropLast().allSatisfy { $0 == .progress }, "\(actions)")
        #expect(abs(listener.reportedSeconds - listener.heard) <= 1, "reported \(listener.reportedSeconds) s of \(listener.heard) s heard")
        #expect(listener.events.allSatisfy { $0.episodeID == "episode:S1E04" && $0.title == "The Long Way Round" })
        #expect(listener.events.first?.positionMS == 0 && listener.events.first?.playedMS == 0)
        #expect(listener.events.last?.positionMS == 800_000)
        // Between the flushes, a progress every 15 s of listening.
        let regular = listener.events.filter { $0.action == .progress && $0.playedMS >= 15_000 }
        #expect(regular.count >= 35 && regular.allSatisfy { $0.playedMS < 16_000 }, "\(regular.map(\.playedMS))")
        // The seeks and the pause each flushed what was heard before them, where it stood.
        let positions = listener.events.map(\.positionMS)
        for flushedAt in [120_000, 480_000, 580_000] {
            #expect(positions.contains { abs($0 - flushedAt) <= 1_000 }, "no event near \(flushedAt) ms: \(positions)")
        }
    }

    @Test("a seek is not listening: the jump adds nothing, and what came before it is flushed at once")
    func seekIsNotListening() throws {
        let listener = ScriptedListener()
        listener.start(Self.episode, duration: 3600)
        listener.play(for: 10)
        listener.seek(to: 3000, after: 0.5)
        let flushed = try #require(listener.events.last)
        #expect(flushed.action == .progress)
        #expect(abs(flushed.playedMS - 10_500) <= 50, "\(flushed)")
        #expect(abs(flushed.positionMS - 10_500) <= 50, "\(flushed)")
        listener.play(for: 5)
        listener.close()
        #expect(abs(listener.reportedSeconds - 15.5) < 0.1, "\(listener.events)")
    }

    @Test("a seek that landed between two turns is found by the position's jump, and not counted")
    func seekSeenOnlyByItsJump() {
        let listener = ScriptedListener()
        listener.start(Self.episode, duration: 3600)
        listener.play(for: 5)
        listener.arrange { $0.position = 1200 }
        listener.turn(after: 1)
        listener.play(for: 5)
        listener.close()
        #expect(listener.actions == [.playing, .progress, .progress])
        #expect(abs(listener.reportedSeconds - 10) < 0.1, "\(listener.events)")
    }

    @Test("a pause flushes what was heard; paused time is not listening and asks for no turns")
    func pauseFlushes() throws {
        let listener = ScriptedListener()
        listener.start(Self.episode, duration: 3600)
        listener.play(for: 7)
        #expect(listener.reporter.deadline() != nil)
        listener.advance(0.6)
        listener.arrange { $0.state = .paused }
        listener.turn(after: 0)
        let flushed = try #require(listener.events.last)
        #expect(flushed.action == .progress && abs(flushed.playedMS - 7_600) <= 50, "\(flushed)")
        #expect(listener.reporter.deadline() == nil)
        listener.turn(after: 600)
        listener.arrange { $0.state = .playing }
        listener.turn(after: 0)
        listener.play(for: 3)
        listener.close()
        #expect(listener.actions == [.playing, .progress, .progress], "one playing: a resume goes on with progress")
        #expect(abs(listener.reportedSeconds - 10.6) < 0.1)
    }

    @Test("a stall is not listening: ticks 3 s apart or more count nothing, buffering counts nothing")
    func stallNotCounted() {
        let listener = ScriptedListener()
        listener.start(Self.episode, duration: 3600)
        listener.play(for: 10)
        listener.stall(turns: 3, gap: 4)
        listener.play(for: 10)
        listener.arrange { $0.state = .buffering }
        listener.turn(after: 0)
        listener.turn(after: 20)
        listener.arrange { $0.state = .playing }
        listener.turn(after: 0)
        listener.play(for: 5)
        listener.close()
        #expect(abs(listener.heard - 37) < 0.01)
        // 10 + 10 + 5: the stalled ticks' 12 s are not counted (the first tick after them is the new base).
        #expect(abs(listener.reportedSeconds - 25) < 0.1, "\(listener.events.map(\.playedMS))")
        #expect(!listener.actions.contains(.finished))
    }

    @Test("at 1.5× the position may move 1.5 s a second: a minute of playing is 90 s heard")
    func fasterSpeedCounts() {
        let listener = ScriptedListener()
        listener.start(Self.episode, duration: 3600, speed: 1.5)
        listener.play(for: 60)
        listener.close()
        #expect(abs(listener.heard - 90) < 0.01)
        #expect(abs(listener.reportedSeconds - 90) < 0.1, "\(listener.events.map(\.playedMS))")
        // Progress every 15 s heard: ten wall seconds apart at this speed.
        #expect(listener.actions.filter { $0 == .progress }.count == 6, "\(listener.events.map(\.playedMS))")
    }

    @Test("at 1.5× a position that moves twice as fast as playing could is a seek, not listening")
    func fasterThanTheSpeedIsASeek() {
        let listener = ScriptedListener()
        listener.start(Self.episode, duration: 3600, speed: 1.5)
        listener.play(for: 4)
        listener.arrange { $0.position += 3 }
        listener.turn(after: 1)
        listener.close()
        #expect(abs(listener.reportedSeconds - 6) < 0.1, "\(listener.events.map(\.playedMS))")
    }

    @Test("a skip to the next item flushes the first and starts the second with playing")
    func itemChangeFlushes() throws {
        let listener = ScriptedListener()
        listener.start(Self.episode, duration: 3600)
        listener.play(for: 20)
        let next = ScriptedListener.episode("S1E05", title: "Next")
        listener.skip(to: next, after: 0.3, duration: 1800)
        listener.play(for: 3)
        listener.close()
        let byEpisode = Dictionary(grouping: listener.events, by: \.episodeID)
        let a = try #require(byEpisode["episode:S1E04"])
        let b = try #require(byEpisode["episode:S1E05"])
        #expect(a.map(\.action) == [.playing, .progress, .progress])
        #expect(abs(Double(a.map(\.playedMS).reduce(0, +)) / 1000 - 20.3) < 0.1)
        #expect(b.map(\.action) == [.playing, .progress])
        let firstOfB = try #require(listener.events.firstIndex { $0.episodeID == "episode:S1E05" })
        let lastOfA = try #require(listener.events.lastIndex { $0.episodeID == "episode:S1E04" })
        #expect(firstOfB > lastOfA)
    }

    @Test("a join the host reads before the end's notice still finishes the first episode")
    func joinBeforeTheNotice() {
        let listener = ScriptedListener()
        let first = listener.start(Self.episode, duration: 30)
        listener.play(for: 29.5)
        // The next entry is heard already; the first's `.finished` comes a turn later.
        let next = ScriptedListener.episode("S1E05")
        listener.advance(0.5)
        listener.arrange {
            $0.entry = QueueEntryID(rawValue: 99)
            $0.item = next
            $0.position = 0
        }
        listener.turn(after: 0)
        listener.turn(after: 0.05, notices: [.finished(first, Self.episode, truncated: false), .started(QueueEntryID(rawValue: 99), next)])
        let firstEvents = listener.events.filter { $0.episodeID == "episode:S1E04" }
        #expect(firstEvents.last?.action == .finished, "\(firstEvents)")
        #expect(abs(Double(firstEvents.map(\.playedMS).reduce(0, +)) / 1000 - 30) < 0.2)
        #expect(listener.events.filter { $0.episodeID == "episode:S1E05" }.map(\.action) == [.playing])
    }

    @Test("a truncated end is no natural end: a progress, not finished")
    func truncatedEnd() {
        let listener = ScriptedListener()
        listener.start(Self.episode, duration: 20)
        listener.playToEnd(truncated: true)
        #expect(listener.actions == [.playing, .progress, .progress], "\(listener.events)")
    }

    @Test("the end of a finished item is not followed again, unless it starts again")
    func finishedOnce() {
        let listener = ScriptedListener()
        let entry = listener.start(Self.episode, duration: 10)
        listener.playToEnd()
        listener.arrange { $0.state = .playing }
        listener.turn(after: 1)
        #expect(listener.actions == [.playing, .finished])
        listener.arrange { $0.position = 0 }
        listener.turn(after: 0.1, notices: [.started(entry, Self.episode)])
        #expect(listener.actions == [.playing, .finished, .playing])
    }

    @Test("what has no label is not one of Alicia's episodes: nothing is reported")
    func onlyEpisodes() {
        let listener = ScriptedListener()
        listener.start(ScriptedListener.episode(nil), duration: 60)
        listener.playToEnd()
        #expect(listener.events.isEmpty)
        #expect(listener.reporter.selected(ScriptedListener.episode(nil)) == nil)
    }

    @Test("a voice note's hold is a pause")
    func holdIsAPause() {
        let listener = ScriptedListener()
        listener.start(Self.episode, duration: 600)
        listener.play(for: 4)
        listener.arrange { $0.isHeld = true }
        listener.turn(after: 0.2)
        #expect(listener.actions == [.playing, .progress])
        listener.turn(after: 30)
        listener.arrange { $0.isHeld = false }
        listener.turn(after: 0)
        listener.play(for: 2)
        listener.close()
        #expect(abs(listener.reportedSeconds - 6) < 0.1)
    }

    @Test("selected only when asked, where the item starts; never made by playing")
    func selected() throws {
        let listener = ScriptedListener()
        listener.start(Self.episode, duration: 60)
        listener.playToEnd()
        #expect(!listener.actions.contains(.selected))
        var chosen = Self.episode
        chosen.start = .seconds(42.5)
        let event = try #require(listener.reporter.selected(chosen))
        #expect(event.action == .selected && event.positionMS == 42_500 && event.playedMS == 0 && event.episodeID == "episode:S1E04")
    }

    @Test("the deadline: a second after the last tick while playing, sooner when 15 s fall due, none while paused")
    func deadline() throws {
        let listener = ScriptedListener()
        listener.start(Self.episode, duration: 600)
        listener.play(for: 3)
        let next = try #require(listener.reporter.deadline())
        #expect(abs(next - (listener.now + ListeningReporter.tickInterval)) < 1e-9)
        listener.play(for: 11, tick: 0.5)
        // 14 s heard: the next 15 s fall due in 1 s at 1×, but not sooner than a quarter second.
        listener.play(for: 0.7, tick: 0.7)
        let soon = try #require(listener.reporter.deadline())
        #expect(soon - listener.now < ListeningReporter.tickInterval && soon - listener.now >= 0.25 - 1e-9, "\(soon - listener.now)")
        listener.arrange { $0.state = .paused }
        listener.turn(after: 0.1)
        #expect(listener.reporter.deadline() == nil)
    }

    @Test("episode ids are episode:<label>, read back in either form")
    func episodeIDs() {
        #expect(EpisodeDayEvent.episodeID(label: "S11E04") == "episode:S11E04")
        #expect(EpisodeDayEvent.label(ofEpisodeID: "episode:S11E04") == "S11E04")
        #expect(EpisodeDayEvent.label(ofEpisodeID: "S11E04") == "S11E04")
        #expect(ListeningReporter.episodeID(of: ScriptedListener.episode("NIGHTS-1")) == "episode:NIGHTS-1")
    }
}

/// `report = …` in the config file.
@Suite struct ReportSwitchTests {
    @Test(arguments: [(nil, true), ("off", false), ("OFF", false), ("no", false), ("0", false), ("false", false),
                      ("on", true), ("yes", true), ("1", true)] as [(String?, Bool)])
    func readsTheValue(value: String?, on: Bool) {
        var said: [String] = []
        #expect(ListeningReports.isOn(value, warn: { said.append($0) }) == on)
        #expect(said.isEmpty)
    }

    @Test("a value that is neither on nor off is said, and reporting stays on")
    func unknownValue() {
        var said: [String] = []
        #expect(ListeningReports.isOn("sometimes", warn: { said.append($0) }))
        #expect(said == ["report 'sometimes' in the config file is not on or off: listening reports stay on"])
    }
}
