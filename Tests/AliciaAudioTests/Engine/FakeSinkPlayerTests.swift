import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// The engine on a recording sink, without PulseAudio: real files through libcurl and libsndfile,
/// a sink that plays only when the test says, so joins, positions and events are exact to the frame.
@Suite struct FakeSinkPlayerTests {
    static let rate = 48_000

    @Test func twoEntriesOfOneFormatAreWrittenBackToBackIntoOneSink() throws {
        let rig = try FakeSinkRig()
        let a = WAVFixture(seconds: 0.5, seed: 51)
        let b = WAVFixture(seconds: 0.3, seed: 52)
        let ids = try rig.play([a, b])

        // Into the second entry by 100 frames: the position is looked up, exact.
        let sink = try rig.sink()
        rig.play(sink, upTo: Int64(a.frameCount + 100))
        let inside = rig.player.snapshot()
        #expect(inside.entry == ids[1])
        #expect(inside.positionFrames == 100)
        #expect(inside.item?.title == "item 1")

        let seen = rig.playOut()
        #expect(rig.sinks.all.count == 1, "one sink for the whole queue")
        #expect(try rig.written() == a.samples16 + b.samples16, "the sink did not get A then B, exactly")
        let kinds = seen.filter { $0.entry != nil }.map { "\($0.entry!.rawValue):\($0.kind)" }
        let startedA = kinds.firstIndex(of: "\(ids[0].rawValue):entryStarted")
        let endedA = kinds.firstIndex(of: "\(ids[0].rawValue):ended(truncated: false)")
        let startedB = kinds.firstIndex(of: "\(ids[1].rawValue):entryStarted")
        let endedB = kinds.firstIndex(of: "\(ids[1].rawValue):ended(truncated: false)")
        #expect(startedA != nil && endedA != nil && startedB != nil && endedB != nil, "\(kinds)")
        if let startedA, let endedA, let startedB, let endedB {
            #expect(startedA < endedA && endedA < startedB && startedB < endedB, "\(kinds)")
        }
        #expect(rig.player.snapshot().state == .ended)
        #expect(rig.player.snapshot().positionFrames == Int64(b.frameCount))
        #expect(sink.snapshot.mediaNames.contains("item 1"), "the stream is not renamed for the second entry")
    }

    /// `--auto-download` moves a queued entry onto its downloaded file: the join plays the file,
    /// even when the entry was already being fetched ahead from where it was.
    /// Guards a load flake (CI, stop 45): an item added to start-if-idle right after a clear, before
    /// the feeder had taken the clear's stop, waited in a stopped queue and never played.
    @Test func anItemAddedRightAfterAClearPlays() throws {
        let rig = try FakeSinkRig()
        let made = try rig.items([WAVFixture(seconds: 2, seed: 53), WAVFixture(seconds: 0.2, seed: 54)])
        defer { rig.player.stop() }
        rig.player.play([made[0]])
        let sink = try rig.sink(written: 1024)
        sink.play(frames: 1024)
        // Back to back: the feeder has not taken the stop when the add comes.
        rig.player.clear()
        let second = rig.player.add(made[1], startIfIdle: true)
        let seen = rig.playOut()
        #expect(seen.contains { $0.entry == second && $0.kind == .entryStarted }, "\(seen.map(\.kind))")
        #expect(seen.contains { $0.entry == second && $0.kind == .ended(truncated: false) }, "\(seen.map(\.kind))")
    }

    @Test func aRelocatedEntryPlaysFromItsNewLocationAndTheEntryHeardCannotMove() throws {
        let rig = try FakeSinkRig()
        let a = WAVFixture(seconds: 0.5, seed: 61)
        let b = WAVFixture(seconds: 0.3, seed: 62)
        let c = WAVFixture(seconds: 0.3, seed: 63)
        let ids = try rig.play([a, b])
        let moved = try MediaLocation(try rig.directory.write(c.bytes, as: "c.wav"))
        // A is decoding (and, under 10 s long, B is fetched ahead from its file already).
        _ = try rig.sink(written: 4096)
        #expect(!rig.player.relocate(ids[0], to: moved), "the entry heard moved")
        #expect(rig.player.relocate(ids[1], to: moved))
        #expect(rig.player.queue.entries[1].item.location == moved)
        #expect(rig.player.queue.entries[1].item.title == "item 1", "the rest of the item changed")
        rig.playOut()
        #expect(try rig.written() == a.samples16 + c.samples16, "the sink did not get A then the new location's audio")
    }

    @Test func anEntryInAnotherFormatIsConvertedIntoTheRunningSink() throws {
        let rig = try FakeSinkRig()
        let a = WAVFixture(seconds: 0.5, seed: 53)
        let b = WAVFixture(seconds: 0.4, sampleRate: 24_000, channels: 1, seed: 54)
        try rig.play([a, b])
        rig.playOut()
        let sink = try rig.sink()
        #expect(rig.sinks.all.count == 1)
        #expect(sink.format.sampleRate == Self.rate && sink.format.channels == 2)
        let written = try rig.written()
        #expect(Array(written.prefix(a.samples16.count)) == a.samples16)
        let converted = written.count / 2 - a.frameCount
        #expect(abs(converted - 2 * b.frameCount) <= Self.rate / 1000, "\(converted) frames for \(b.frameCount) at half the rate")
        #expect(rig.player.snapshot().positionFrames == Int64(b.frameCount), "the end is the entry's own last frame")
    }

    @Test func aSeekFlushesAndThePositionCountsFromTheTarget() throws {
        let rig = try FakeSinkRig()
        let a = WAVFixture(seconds: 2, seed: 55)
        try rig.play([a])
        let sink = try rig.sink(written: 2048)
        sink.play(frames: 2048)
        #expect(rig.player.snapshot().positionFrames == 2048)
        rig.player.seek(to: 1.0)
        // A seek asked for is where the next relative seek starts: presses that arrive together add up.
        rig.player.seek(by: 0.5)
        rig.wait { sink.snapshot.flushes > 0 && $0.positionFrames == 72_000 }
        #expect(sink.waitForWritten(2048 + 1000))
        sink.play(frames: 1000)
        #expect(rig.player.snapshot().positionFrames == 72_000 + 1000)
        rig.playOut()
        #expect(try rig.written() == Array(a.samples16.prefix(2048 * 2)) + Array(a.samples16[(72_000 * 2)...]))
    }

    /// Guards issue 17: ten → pressed together moved 30 s, because a seek asked while the feeder was
    /// carrying out the one before started from the frame heard, not from that seek's target.
    @Test func relativeSeeksAskedWhileOneIsCarriedOutAddUp() throws {
        let rig = try FakeSinkRig()
        let a = WAVFixture(seconds: 12, seed: 59)
        try rig.play([a])
        let sink = try rig.sink(written: 2048)
        // The first seek is taken by the feeder and held in its flush; nine more arrive meanwhile.
        sink.holdFlushes(true)
        rig.player.seek(by: 1)
        #expect(sink.waitForFlushesBegun(1))
        for _ in 0..<9 { rig.player.seek(by: 1) }
        sink.holdFlushes(false)
        rig.wait { $0.positionFrames == 10 * Int64(Self.rate) }
        #expect(rig.player.snapshot().positionFrames == 10 * Int64(Self.rate), "ten seeks of 1 s did not add up to 10 s")
        // Past the end is the end, not beyond it.
        for _ in 0..<10 { rig.player.seek(by: 1) }
        rig.wait { $0.positionFrames == Int64(a.frameCount) }
        #expect(rig.player.snapshot().positionFrames == Int64(a.frameCount))
        rig.player.stop()
    }

    /// Guards issue 17: a seek pressed right after a jump (`n`, enter) was dropped while the feeder
    /// carried the jump out, or applied to the entry left behind.
    @Test func seeksAskedWhileAJumpIsCarriedOutAreAboutTheEntryJumpedTo() throws {
        let rig = try FakeSinkRig()
        let a = WAVFixture(seconds: 4, seed: 60)
        let ids = try rig.play([a, WAVFixture(seconds: 4, channels: 1, seed: 61)])
        // Each jump is held in its flush while the seeks after it are asked.
        func jump(_ move: () -> Bool, then seeks: () -> Void, landing entry: QueueEntryID, at frame: Int64) throws {
            let sink = try rig.sink(written: 2048)
            let begun = sink.snapshot.flushesBegun
            sink.holdFlushes(true)
            #expect(move())
            #expect(sink.waitForFlushesBegun(begun + 1))
            seeks()
            sink.holdFlushes(false)
            rig.wait { $0.entry == entry && $0.positionFrames == frame }
            #expect(rig.player.snapshot().entry == entry)
            #expect(rig.player.snapshot().positionFrames == frame, "the seeks after the jump did not land at frame \(frame) of it")
        }
        // Two seeks of 1 s after a jump land at 2 s of the entry jumped to.
        try jump(rig.player.next, then: { rig.player.seek(by: 1); rig.player.seek(by: 1) }, landing: ids[1], at: 2 * Int64(Self.rate))
        // A fraction asked during a jump is a fraction of the entry jumped to.
        try jump(rig.player.previous, then: { rig.player.seek(toFraction: 0.5) }, landing: ids[0], at: Int64(a.frameCount / 2))
        rig.player.stop()
    }

    @Test func aCueIsReachedOnceWhenItsPositionIsHeard() throws {
        let rig = try FakeSinkRig()
        let ids = try rig.play([WAVFixture(seconds: 1, seed: 56)])
        rig.player.setCues([PositionCue(id: 7, entry: ids[0], at: .seconds(0.5))])
        let seen = rig.playOut(block: 512)
        #expect(seen.filter { $0.kind == .cueReached(7) }.count == 1, "\(seen)")
    }

    @Test func theListenersVolumeScalesTheSamplesAndUnityLeavesThemUntouched() throws {
        let rig = try FakeSinkRig()
        let a = WAVFixture(seconds: 0.5, seed: 57)
        rig.player.setVolume(0.5)
        try rig.play([a])
        rig.playOut()
        let expected = a.samples16.map { Int16(clamping: Int((Double($0) * 0.5).rounded(.toNearestOrEven))) }
        #expect(try rig.written() == expected, "half volume is not each sample halved")
    }

    @Test func aFailingEntryIsReportedAndTheNextPlays() throws {
        let rig = try FakeSinkRig()
        let b = WAVFixture(seconds: 0.3, seed: 58)
        let bad = QueueItem(location: try MediaLocation(rig.directory.file("missing.wav")), title: "missing")
        rig.player.play([bad] + (try rig.items([b])))
        let ids = rig.player.queue.entries.map(\.id)
        let seen = rig.playOut()
        #expect(seen.contains { $0.entry == ids[0] && { if case .failed = $0.kind { true } else { false } }($0) }, "\(seen)")
        #expect(try rig.written() == b.samples16)
    }

    /// Regression: a seek or sleep timer of 1e300 seconds (the control socket passes any finite
    /// number on) trapped converting its frames to Int64; now it lands at the end, or is a long wait.
    @Test func secondsBeyondAnyFrameCountDoNotTrap() throws {
        let rig = try FakeSinkRig()
        try rig.play([WAVFixture(seconds: 0.3, seed: 61)])
        _ = try rig.sink(written: 1024)
        rig.player.setSleepTimer(.after(seconds: 1e300))
        rig.player.seek(by: -1e300)
        rig.player.seek(by: 1e300)
        rig.player.seek(to: 1e300)
        let seen = rig.playOut()
        #expect(seen.contains { $0.kind == .queueEnded })
        #expect(FrameCount.of(seconds: 1e300, rate: Self.rate) == FrameCount.limit)
        #expect(FrameCount.of(seconds: -.infinity, rate: Self.rate) == -FrameCount.limit)
        #expect(FrameCount.of(seconds: .nan, rate: Self.rate) == 0)
        #expect(FrameCount.of(seconds: 1.5, rate: Self.rate) == 72_000)
    }

    /// Regression (found by the control-json fuzzer): a looping queue of files that all fail at once
    /// spun the feeder forever (100 % CPU, an event storm), and `stop` never returned.
    @Test func aLoopingQueueOfFailingEntriesEndsAndStops() throws {
        let rig = try FakeSinkRig()
        let missing = try MediaLocation("/nonexistent/alicia-missing.wav")
        rig.player.setLoop(.queue)
        rig.player.play([QueueItem(location: missing, title: "a"), QueueItem(location: missing, title: "b")])
        var ended = false
        let deadline = ContinuousClock.now + .seconds(10)
        while !ended, ContinuousClock.now < deadline {
            ended = rig.events.next(timeout: .milliseconds(100))?.kind == .queueEnded
        }
        #expect(ended, "the queue never ended")
        #expect(rig.player.snapshot().state == .failed)
        rig.player.play([QueueItem(location: missing, title: "c"), QueueItem(location: missing, title: "d")])
        rig.player.stop()
        #expect(rig.sinks.all.isEmpty)
    }
}
