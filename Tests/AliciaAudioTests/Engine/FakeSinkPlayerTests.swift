import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// The engine on a recording sink, without PulseAudio: real files through libcurl and libsndfile,
/// a sink that plays only when the test says, so joins, positions and events are exact to the frame.
@Suite struct FakeSinkPlayerTests {
    static let rate = 48_000

    /// Files of `fixtures` in a temporary directory, as queue items.
    private func items(_ fixtures: [WAVFixture], in directory: TemporaryDirectory) throws -> [QueueItem] {
        try fixtures.enumerated().map { index, fixture in
            let path = try directory.write(fixture.bytes, as: "\(index).wav")
            return QueueItem(location: try MediaLocation(path), title: "item \(index)")
        }
    }

    /// Plays the sink to the end of the queue, a block at a time; returns every event seen.
    private func playOut(_ sinks: RecordingSinks, _ events: PlayerSubscription, block: Int64 = 1024) -> [PlayerEvent] {
        var seen: [PlayerEvent] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            sinks.current()?.play(frames: block)
            for event in events.drain() {
                seen.append(event)
                if event.kind == .queueEnded { return seen }
            }
            _ = events.next(timeout: .milliseconds(1)).map { seen.append($0) }
            if seen.contains(where: { $0.kind == .queueEnded }) { return seen }
        }
        Issue.record("the queue never ended; events: \(seen)")
        return seen
    }

    private func samples(_ bytes: [UInt8]) -> [Int16] { AudioCompare.int16Samples(littleEndian: bytes) }

    @Test func twoEntriesOfOneFormatAreWrittenBackToBackIntoOneSink() throws {
        let directory = try TemporaryDirectory(prefix: "fake")
        let a = WAVFixture(seconds: 0.5, sampleRate: Self.rate, channels: 2, seed: 51)
        let b = WAVFixture(seconds: 0.3, sampleRate: Self.rate, channels: 2, seed: 52)
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        player.play(try items([a, b], in: directory))
        let ids = player.queue.entries.map(\.id)

        // Into the second entry by 100 frames: the position is looked up, exact.
        let sink = try #require(sinks.current())
        let target = Int64(a.frameCount + 100)
        while sink.snapshot.played < target {
            #expect(sink.waitForWritten(min(target, sink.snapshot.played + 1024)))
            sink.play(frames: min(1024, target - sink.snapshot.played))
        }
        let inside = player.snapshot()
        #expect(inside.entry == ids[1])
        #expect(inside.positionFrames == 100)
        #expect(inside.item?.title == "item 1")

        let seen = playOut(sinks, events)
        #expect(sinks.all.count == 1, "one sink for the whole queue")
        #expect(samples(sink.bytes) == a.samples16 + b.samples16, "the sink did not get A then B, exactly")
        let kinds = seen.filter { $0.entry != nil }.map { "\($0.entry!.rawValue):\($0.kind)" }
        let startedA = kinds.firstIndex(of: "\(ids[0].rawValue):entryStarted")
        let endedA = kinds.firstIndex(of: "\(ids[0].rawValue):ended(truncated: false)")
        let startedB = kinds.firstIndex(of: "\(ids[1].rawValue):entryStarted")
        let endedB = kinds.firstIndex(of: "\(ids[1].rawValue):ended(truncated: false)")
        #expect(startedA != nil && endedA != nil && startedB != nil && endedB != nil, "\(kinds)")
        if let startedA, let endedA, let startedB, let endedB {
            #expect(startedA < endedA && endedA < startedB && startedB < endedB, "\(kinds)")
        }
        #expect(player.snapshot().state == .ended)
        #expect(player.snapshot().positionFrames == Int64(b.frameCount))
        #expect(sink.snapshot.mediaNames.contains("item 1"), "the stream is not renamed for the second entry")
    }

    /// `--auto-download` moves a queued entry onto its downloaded file: the join plays the file,
    /// even when the entry was already being fetched ahead from where it was.
    /// Guards a load flake (CI, stop 45): an item added to start-if-idle right after a clear, before
    /// the feeder had taken the clear's stop, waited in a stopped queue and never played.
    @Test func anItemAddedRightAfterAClearPlays() throws {
        let directory = try TemporaryDirectory(prefix: "fake")
        let made = try items([WAVFixture(seconds: 2, sampleRate: Self.rate, channels: 2, seed: 53),
                              WAVFixture(seconds: 0.2, sampleRate: Self.rate, channels: 2, seed: 54)], in: directory)
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        defer { player.stop() }
        let events = player.subscribe()
        player.play([made[0]])
        let sink = try #require(sinks.current())
        #expect(sink.waitForWritten(1024))
        sink.play(frames: 1024)
        // Back to back: the feeder has not taken the stop when the add comes.
        player.clear()
        let second = player.add(made[1], startIfIdle: true)
        let seen = playOut(sinks, events)
        #expect(seen.contains { $0.entry == second && $0.kind == .entryStarted }, "\(seen.map(\.kind))")
        #expect(seen.contains { $0.entry == second && $0.kind == .ended(truncated: false) }, "\(seen.map(\.kind))")
    }

    @Test func aRelocatedEntryPlaysFromItsNewLocationAndTheEntryHeardCannotMove() throws {
        let directory = try TemporaryDirectory(prefix: "fake")
        let a = WAVFixture(seconds: 0.5, sampleRate: Self.rate, channels: 2, seed: 61)
        let b = WAVFixture(seconds: 0.3, sampleRate: Self.rate, channels: 2, seed: 62)
        let c = WAVFixture(seconds: 0.3, sampleRate: Self.rate, channels: 2, seed: 63)
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        player.play(try items([a, b], in: directory))
        let ids = player.queue.entries.map(\.id)
        let moved = try MediaLocation(try directory.write(c.bytes, as: "c.wav"))
        // A is decoding (and, under 10 s long, B is fetched ahead from its file already).
        let sink = try #require(sinks.current())
        #expect(sink.waitForWritten(4096))
        #expect(!player.relocate(ids[0], to: moved), "the entry heard moved")
        #expect(player.relocate(ids[1], to: moved))
        #expect(player.queue.entries[1].item.location == moved)
        #expect(player.queue.entries[1].item.title == "item 1", "the rest of the item changed")
        _ = playOut(sinks, events)
        #expect(samples(sink.bytes) == a.samples16 + c.samples16, "the sink did not get A then the new location's audio")
    }

    @Test func anEntryInAnotherFormatIsConvertedIntoTheRunningSink() throws {
        let directory = try TemporaryDirectory(prefix: "fake")
        let a = WAVFixture(seconds: 0.5, sampleRate: Self.rate, channels: 2, seed: 53)
        let b = WAVFixture(seconds: 0.4, sampleRate: 24_000, channels: 1, seed: 54)
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        player.play(try items([a, b], in: directory))
        _ = playOut(sinks, events)
        let sink = try #require(sinks.current())
        #expect(sinks.all.count == 1)
        #expect(sink.format.sampleRate == Self.rate && sink.format.channels == 2)
        let written = samples(sink.bytes)
        #expect(Array(written.prefix(a.samples16.count)) == a.samples16)
        let converted = written.count / 2 - a.frameCount
        #expect(abs(converted - 2 * b.frameCount) <= Self.rate / 1000, "\(converted) frames for \(b.frameCount) at half the rate")
        #expect(player.snapshot().positionFrames == Int64(b.frameCount), "the end is the entry's own last frame")
    }

    @Test func aSeekFlushesAndThePositionCountsFromTheTarget() throws {
        let directory = try TemporaryDirectory(prefix: "fake")
        let a = WAVFixture(seconds: 2, sampleRate: Self.rate, channels: 2, seed: 55)
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        player.play(try items([a], in: directory))
        let sink = try #require(sinks.current())
        #expect(sink.waitForWritten(2048))
        sink.play(frames: 2048)
        #expect(player.snapshot().positionFrames == 2048)
        player.seek(to: 1.0)
        // A seek asked for is where the next relative seek starts: presses that arrive together add up.
        player.seek(by: 0.5)
        let deadline = ContinuousClock.now + .seconds(30)
        while sink.snapshot.flushes == 0 || player.snapshot().positionFrames != 72_000, ContinuousClock.now < deadline {
            _ = events.next(timeout: .milliseconds(5))
        }
        #expect(sink.waitForWritten(2048 + 1000))
        sink.play(frames: 1000)
        #expect(player.snapshot().positionFrames == 72_000 + 1000)
        _ = playOut(sinks, events)
        let written = samples(sink.bytes)
        #expect(written == Array(a.samples16.prefix(2048 * 2)) + Array(a.samples16[(72_000 * 2)...]))
    }

    /// Guards issue 17: ten → pressed together moved 30 s, because a seek asked while the feeder was
    /// carrying out the one before started from the frame heard, not from that seek's target.
    @Test func relativeSeeksAskedWhileOneIsCarriedOutAddUp() throws {
        let directory = try TemporaryDirectory(prefix: "fake")
        let a = WAVFixture(seconds: 12, sampleRate: Self.rate, channels: 2, seed: 59)
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        player.play(try items([a], in: directory))
        let sink = try #require(sinks.current())
        #expect(sink.waitForWritten(2048))
        // The first seek is taken by the feeder and held in its flush; nine more arrive meanwhile.
        sink.holdFlushes(true)
        player.seek(by: 1)
        #expect(sink.waitForFlushesBegun(1))
        for _ in 0..<9 { player.seek(by: 1) }
        sink.holdFlushes(false)
        let deadline = ContinuousClock.now + .seconds(30)
        while player.snapshot().positionFrames != 10 * Int64(Self.rate), ContinuousClock.now < deadline {
            _ = events.next(timeout: .milliseconds(5))
        }
        #expect(player.snapshot().positionFrames == 10 * Int64(Self.rate), "ten seeks of 1 s did not add up to 10 s")
        // Past the end is the end, not beyond it.
        for _ in 0..<10 { player.seek(by: 1) }
        while player.snapshot().positionFrames != Int64(a.frameCount), ContinuousClock.now < deadline {
            _ = events.next(timeout: .milliseconds(5))
        }
        #expect(player.snapshot().positionFrames == Int64(a.frameCount))
        player.stop()
    }

    /// Guards issue 17: a seek pressed right after a jump (`n`, enter) was dropped while the feeder
    /// carried the jump out, or applied to the entry left behind.
    @Test func seeksAskedWhileAJumpIsCarriedOutAreAboutTheEntryJumpedTo() throws {
        let directory = try TemporaryDirectory(prefix: "fake")
        let a = WAVFixture(seconds: 4, sampleRate: Self.rate, channels: 2, seed: 60)
        let b = WAVFixture(seconds: 4, sampleRate: Self.rate, channels: 1, seed: 61)
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        player.play(try items([a, b], in: directory))
        let ids = player.queue.entries.map(\.id)
        let sink = try #require(sinks.current())
        #expect(sink.waitForWritten(2048))
        sink.holdFlushes(true)
        #expect(player.next())
        #expect(sink.waitForFlushesBegun(1))
        player.seek(by: 1)
        player.seek(by: 1)
        sink.holdFlushes(false)
        let deadline = ContinuousClock.now + .seconds(30)
        while player.snapshot().entry != ids[1] || player.snapshot().positionFrames != 2 * Int64(Self.rate), ContinuousClock.now < deadline {
            _ = events.next(timeout: .milliseconds(5))
        }
        #expect(player.snapshot().entry == ids[1])
        #expect(player.snapshot().positionFrames == 2 * Int64(Self.rate), "two seeks of 1 s after the jump did not land at 2 s of it")
        // A fraction asked during a jump is a fraction of the entry jumped to.
        let current = try #require(sinks.current())
        current.holdFlushes(true)
        let begun = current.snapshot.flushesBegun
        #expect(player.previous())
        #expect(current.waitForFlushesBegun(begun + 1))
        player.seek(toFraction: 0.5)
        current.holdFlushes(false)
        while player.snapshot().entry != ids[0] || player.snapshot().positionFrames != Int64(a.frameCount / 2), ContinuousClock.now < deadline {
            _ = events.next(timeout: .milliseconds(5))
        }
        #expect(player.snapshot().entry == ids[0])
        #expect(player.snapshot().positionFrames == Int64(a.frameCount / 2))
        player.stop()
    }

    @Test func aCueIsReachedOnceWhenItsPositionIsHeard() throws {
        let directory = try TemporaryDirectory(prefix: "fake")
        let a = WAVFixture(seconds: 1, sampleRate: Self.rate, channels: 2, seed: 56)
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        player.play(try items([a], in: directory))
        let entry = player.queue.entries[0].id
        player.setCues([PositionCue(id: 7, entry: entry, at: .seconds(0.5))])
        let seen = playOut(sinks, events, block: 512)
        #expect(seen.filter { $0.kind == .cueReached(7) }.count == 1, "\(seen)")
    }

    @Test func theListenersVolumeScalesTheSamplesAndUnityLeavesThemUntouched() throws {
        let directory = try TemporaryDirectory(prefix: "fake")
        let a = WAVFixture(seconds: 0.5, sampleRate: Self.rate, channels: 2, seed: 57)
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        player.setVolume(0.5)
        player.play(try items([a], in: directory))
        _ = playOut(sinks, events)
        let written = samples(try #require(sinks.current()).bytes)
        let expected = a.samples16.map { Int16(clamping: Int((Double($0) * 0.5).rounded(.toNearestOrEven))) }
        #expect(written == expected, "half volume is not each sample halved")
    }

    @Test func aFailingEntryIsReportedAndTheNextPlays() throws {
        let directory = try TemporaryDirectory(prefix: "fake")
        let b = WAVFixture(seconds: 0.3, sampleRate: Self.rate, channels: 2, seed: 58)
        let bad = QueueItem(location: try MediaLocation(directory.file("missing.wav")), title: "missing")
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        player.play([bad] + (try items([b], in: directory)))
        let ids = player.queue.entries.map(\.id)
        let seen = playOut(sinks, events)
        #expect(seen.contains { $0.entry == ids[0] && { if case .failed = $0.kind { true } else { false } }($0) }, "\(seen)")
        #expect(samples(try #require(sinks.current()).bytes) == b.samples16)
    }

    /// Regression: a seek or sleep timer of 1e300 seconds (the control socket passes any finite
    /// number on) trapped converting its frames to Int64; now it lands at the end, or is a long wait.
    @Test func secondsBeyondAnyFrameCountDoNotTrap() throws {
        let directory = try TemporaryDirectory(prefix: "fake")
        let a = WAVFixture(seconds: 0.3, sampleRate: Self.rate, channels: 2, seed: 61)
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        player.play(try items([a], in: directory))
        let sink = try #require(sinks.current())
        #expect(sink.waitForWritten(1024))
        player.setSleepTimer(.after(seconds: 1e300))
        player.seek(by: -1e300)
        player.seek(by: 1e300)
        player.seek(to: 1e300)
        let seen = playOut(sinks, events)
        #expect(seen.contains { $0.kind == .queueEnded })
        #expect(FrameCount.of(seconds: 1e300, rate: Self.rate) == FrameCount.limit)
        #expect(FrameCount.of(seconds: -.infinity, rate: Self.rate) == -FrameCount.limit)
        #expect(FrameCount.of(seconds: .nan, rate: Self.rate) == 0)
        #expect(FrameCount.of(seconds: 1.5, rate: Self.rate) == 72_000)
    }

    /// Regression (found by the control-json fuzzer): a looping queue of files that all fail at once
    /// spun the feeder forever (100 % CPU, an event storm), and `stop` never returned.
    @Test func aLoopingQueueOfFailingEntriesEndsAndStops() throws {
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        let missing = try MediaLocation("/nonexistent/alicia-missing.wav")
        player.setLoop(.queue)
        player.play([QueueItem(location: missing, title: "a"), QueueItem(location: missing, title: "b")])
        var ended = false
        let deadline = ContinuousClock.now + .seconds(10)
        while !ended, ContinuousClock.now < deadline {
            ended = events.next(timeout: .milliseconds(100))?.kind == .queueEnded
        }
        #expect(ended, "the queue never ended")
        #expect(player.snapshot().state == .failed)
        player.play([QueueItem(location: missing, title: "c"), QueueItem(location: missing, title: "d")])
        player.stop()
        #expect(sinks.all.isEmpty)
    }
}
