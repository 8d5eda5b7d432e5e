import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// A player on recording sinks, subscribed from the start, with a temporary directory for its
/// files: the rig of the engine's fake-sink suites (no PulseAudio; the test plays the sink).
struct FakeSinkRig {
    let directory: TemporaryDirectory
    let sinks = RecordingSinks()
    let player: Player
    /// Made before anything is played: an event posted before a later subscription (a measure
    /// that ended quickly) would not be seen.
    let events: PlayerSubscription

    init(prefix: String = "fake", configuration: PlayerConfiguration = PlayerConfiguration()) throws {
        directory = try TemporaryDirectory(prefix: prefix)
        player = Player(configuration: configuration, makeSink: sinks.maker)
        events = player.subscribe()
    }

    /// Files of `fixtures` in the directory, as queue items titled "item 0", "item 1", ….
    func items(_ fixtures: [WAVFixture]) throws -> [QueueItem] {
        try fixtures.enumerated().map { index, fixture in
            let path = try directory.write(fixture.bytes, as: "\(index).wav")
            return QueueItem(location: try MediaLocation(path), title: "item \(index)")
        }
    }

    /// `bytes` as a file `name` in the directory, as a queue item titled `name`.
    func item(_ bytes: [UInt8], _ name: String) throws -> QueueItem {
        QueueItem(location: try MediaLocation(try directory.write(bytes, as: name)), title: name)
    }

    /// Plays `fixtures` as the queue; the ids of its entries.
    @discardableResult
    func play(_ fixtures: [WAVFixture]) throws -> [QueueEntryID] {
        player.play(try items(fixtures))
        return player.queue.entries.map(\.id)
    }

    /// The sink the player opened (waiting for it); a test without one fails here.
    func sink(sourceLocation: SourceLocation = #_sourceLocation) throws -> RecordingSink {
        try #require(sinks.current(), sourceLocation: sourceLocation)
    }

    /// The sink the player opened, once `frames` frames (from its opening) have been written to it.
    func sink(written frames: Int64, sourceLocation: SourceLocation = #_sourceLocation) throws -> RecordingSink {
        let sink = try sink(sourceLocation: sourceLocation)
        #expect(sink.waitForWritten(frames), sourceLocation: sourceLocation)
        return sink
    }

    /// The 16-bit samples the newest sink was written.
    func written(sourceLocation: SourceLocation = #_sourceLocation) throws -> [Int16] {
        AudioCompare.int16Samples(littleEndian: try sink(sourceLocation: sourceLocation).bytes)
    }

    /// Plays the sink `block` frames at a time, each once it has been written, until `stop` holds for
    /// an event; every event seen.
    func play(block: Int64 = 1024, sourceLocation: SourceLocation = #_sourceLocation,
              until stop: (PlayerEvent) -> Bool) -> [PlayerEvent] {
        var seen: [PlayerEvent] = []
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            if let sink = sinks.current() {
                _ = sink.waitForWritten(sink.snapshot.played + 1, timeout: .milliseconds(50))
                sink.play(frames: block)
            }
            for event in events.drain() {
                seen.append(event)
                if stop(event) { return seen }
            }
        }
        Issue.record("never happened; events: \(seen)", sourceLocation: sourceLocation)
        return seen
    }

    /// Plays the sink to the end of the queue; every event seen.
    @discardableResult
    func playOut(block: Int64 = 1024, sourceLocation: SourceLocation = #_sourceLocation) -> [PlayerEvent] {
        play(block: block, sourceLocation: sourceLocation) { $0.kind == .queueEnded }
    }

    /// Plays `sink` until it has played `frames` frames (from its opening), a block at a time as
    /// they are written.
    func play(_ sink: RecordingSink, upTo frames: Int64, block: Int64 = 1024) {
        while sink.snapshot.played < frames {
            #expect(sink.waitForWritten(min(frames, sink.snapshot.played + block)))
            sink.play(frames: min(block, frames - sink.snapshot.played))
        }
    }

    /// Takes events until `condition` holds of the player (a hang guard of 30 s, then an issue).
    func wait(sourceLocation: SourceLocation = #_sourceLocation, until condition: (PlayerSnapshot) -> Bool) {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition(player.snapshot()) {
            guard ContinuousClock.now < deadline else {
                Issue.record("never happened: \(player.snapshot())", sourceLocation: sourceLocation)
                return
            }
            _ = events.next(timeout: .milliseconds(5))
        }
    }
}
