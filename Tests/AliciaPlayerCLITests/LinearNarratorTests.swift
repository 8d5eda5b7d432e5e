import Testing
import AliciaAudio
import AliciaSession
@testable import AliciaHost
@testable import AliciaStudio

/// What the accessible Studio says of the player, from snapshots: each change once, in words.
@Suite struct LinearNarratorTests {
    static func snapshot(_ state: PlayerState, at position: Double, entry: UInt64 = 1, speed: Double = 1,
                         sleep: SleepTimer = .off) throws -> PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        snapshot.state = state
        snapshot.entry = QueueEntryID(rawValue: entry)
        snapshot.item = QueueItem(location: try MediaLocation("/tmp/slow-tide.wav"), title: "Slow Tide")
        snapshot.metadata.chapters = [Chapter(title: "Cold open", start: 0), Chapter(title: "The interview", start: 600),
                                      Chapter(title: "Chapter 3", start: 1200)]
        snapshot.metadata.transcript = [TranscriptCue(start: 1, text: "Hello."), TranscriptCue(start: 3, speaker: "Alicia", text: "Hi."),
                                        TranscriptCue(start: 700, end: 710, text: "Later.")]
        snapshot.format = AudioFormat(sampleRate: 48_000, channels: 2, sampleType: .int16, frames: 48_000 * 2700)
        snapshot.duration = 2700
        snapshot.position = position
        snapshot.speed = speed
        snapshot.sleepTimer = sleep
        return snapshot
    }

    @Test func eachChangeIsSaidOnceInWords() throws {
        var narrator = LinearNarrator()
        #expect(narrator.lines(try Self.snapshot(.loading, at: 0), now: 0) == [])
        #expect(narrator.lines(try Self.snapshot(.buffering, at: 0), now: 0.1) == [])
        #expect(narrator.lines(try Self.snapshot(.playing, at: 0, speed: 1.5), now: 0.2)
            == ["Playing Slow Tide, 0:00 of 45:00, at 1.5×", "Chapter 1: Cold open"])
        #expect(narrator.lines(try Self.snapshot(.playing, at: 0.5, speed: 1.5), now: 0.5) == [])
        #expect(narrator.lines(try Self.snapshot(.playing, at: 1.5, speed: 1.5), now: 1.2) == ["Hello."])
        #expect(narrator.lines(try Self.snapshot(.playing, at: 3.2, speed: 1.5), now: 2.3) == ["Alicia: Hi."])
        #expect(narrator.lines(try Self.snapshot(.paused, at: 3.4), now: 2.5) == ["Paused at 0:03"])
        #expect(narrator.lines(try Self.snapshot(.paused, at: 3.4), now: 9) == [])
        // A seek into the interview: its chapter, and the cue being spoken there.
        #expect(narrator.lines(try Self.snapshot(.paused, at: 705), now: 9.5) == ["Chapter 2: The interview", "Later."])
        #expect(narrator.lines(try Self.snapshot(.buffering, at: 705), now: 10) == ["Buffering"])
        #expect(narrator.lines(try Self.snapshot(.voicing, at: 705), now: 10.2) == ["Voicing"])
        #expect(narrator.lines(try Self.snapshot(.playing, at: 1200.5), now: 11) == ["Playing Slow Tide, 20:00 of 45:00", "Chapter 3"])
        // A new entry is said when it plays, from its first chapter.
        #expect(narrator.lines(try Self.snapshot(.playing, at: 0, entry: 2), now: 12) == ["Playing Slow Tide, 0:00 of 45:00", "Chapter 1: Cold open"])
    }

    /// One look of a narrator at the player: `state` at `position` (and `speed`) at the time `now`,
    /// and the lines it must say then (nil: not checked, the first look).
    struct Look {
        let state: PlayerState
        let position: Double
        var speed: Double = 1
        let now: Double
        let says: [String]?
    }

    /// One fresh narrator through `looks`, in order.
    private func expect(_ looks: [Look], sourceLocation: SourceLocation = #_sourceLocation) throws {
        var narrator = LinearNarrator()
        for look in looks {
            let lines = narrator.lines(try Self.snapshot(look.state, at: look.position, speed: look.speed), now: look.now)
            if let says = look.says {
                #expect(lines == says, "at \(look.position) s, \(look.now) s in", sourceLocation: sourceLocation)
            }
        }
    }

    /// A pause reads the sink's exact index, which may sit a little behind the estimate said
    /// before it: a chapter just reached is not left, and the one before is not said again; a
    /// seek back is a jump and says it.
    @Test func aPositionSettlingBackAtAPauseSaysNoChapterAgain() throws {
        try expect([
            Look(state: .playing, position: 599.5, now: 0, says: nil),
            Look(state: .playing, position: 600.1, now: 0.6, says: ["Chapter 2: The interview"]),
            Look(state: .paused, position: 599.1, now: 0.7, says: ["Paused at 9:59"]),
            Look(state: .playing, position: 599.1, now: 1, says: ["Playing Slow Tide, 9:59 of 45:00"]),
            Look(state: .playing, position: 600.3, now: 1.5, says: []),
            Look(state: .playing, position: 590, now: 2, says: ["Chapter 1: Cold open"]),
        ])
        // Nor is a cue said again when the pause settles more than half a second back.
        try expect([
            Look(state: .playing, position: 2.9, now: 0, says: nil),
            Look(state: .playing, position: 3.6, now: 0.7, says: ["Alicia: Hi."]),
            Look(state: .paused, position: 2.4, now: 0.8, says: ["Paused at 0:02"]),
            Look(state: .playing, position: 2.4, now: 1, says: ["Playing Slow Tide, 0:02 of 45:00"]),
            Look(state: .playing, position: 3.5, now: 2.1, says: []),
        ])
        // A speed change plays on from the frame heard, which under load may sit more than a
        // second behind the estimate, before the cue said last: that cue is not said again when
        // playing reaches it (CI found "Goodbye for now." said twice so).
        try expect([
            Look(state: .playing, position: 2.5, speed: 1.25, now: 0, says: nil),
            Look(state: .playing, position: 3.1, speed: 1.25, now: 0.5, says: ["Alicia: Hi."]),
            Look(state: .playing, position: 4.4, speed: 1.25, now: 1.5, says: []),
            Look(state: .playing, position: 2.8, now: 1.6, says: []),
            Look(state: .playing, position: 3.3, now: 2.1, says: []),
            Look(state: .playing, position: 0.5, now: 2.2, says: []),
            Look(state: .playing, position: 1.2, now: 2.9, says: ["Hello."]),
        ])
    }

    @Test func theDeadlineIsTheNextCueOrChapterAtTheSpeed() throws {
        var narrator = LinearNarrator()
        _ = narrator.lines(try Self.snapshot(.playing, at: 0, speed: 2), now: 100)
        let due = try #require(narrator.deadline(try Self.snapshot(.playing, at: 0, speed: 2), now: 100))
        #expect(abs(due - 100.52) < 0.001)
        #expect(narrator.deadline(try Self.snapshot(.paused, at: 0), now: 100) == nil)
    }

    @Test func milestonesAndTheSleepTimer() throws {
        var narrator = LinearNarrator(progressEvery: 300)
        _ = narrator.lines(try Self.snapshot(.playing, at: 299, entry: 1), now: 0)
        #expect(narrator.lines(try Self.snapshot(.playing, at: 300.1), now: 1.1) == ["Playing Slow Tide, 5:00 of 45:00"])
        #expect(narrator.lines(try Self.snapshot(.playing, at: 301, sleep: .after(seconds: 900)), now: 2) == ["Sleep in 15 minutes"])
        #expect(narrator.lines(try Self.snapshot(.playing, at: 302, sleep: .after(seconds: 899)), now: 3) == [])
        #expect(narrator.lines(try Self.snapshot(.playing, at: 303, sleep: .after(seconds: 59)), now: 4) == ["Sleep in 1 minute"])
        #expect(narrator.lines(try Self.snapshot(.playing, at: 304, sleep: .endOfEntries(1)), now: 5) == ["Sleep at the end of this item"])
        #expect(narrator.lines(try Self.snapshot(.playing, at: 305), now: 6) == ["Sleep timer off"])
    }

    @Test func theProgressInWords() throws {
        #expect(ProgressLine.words(try Self.snapshot(.paused, at: 723)) == "Paused at 12:03 of 45:00, Slow Tide")
        #expect(ProgressLine.words(PlayerSnapshot()) == "Nothing is playing")
        #expect(LinearStudio.keyWords("← / →") == "left or right")
        #expect(LinearStudio.keyWords("↑ ↓ j k") == "up, down, j, k")
        #expect(LinearStudio.keyWords("0 – 9") == "0 to 9")
    }
}
