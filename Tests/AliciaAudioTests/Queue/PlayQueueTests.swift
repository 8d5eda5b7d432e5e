import Testing
@testable import AliciaAudio

@Suite struct PlayQueueTests {
    private func item(_ name: String) -> QueueItem {
        QueueItem(location: try! MediaLocation("/tmp/\(name).wav"), title: name)
    }

    private func titles(_ queue: PlayQueue) -> [String] { queue.entries.map(\.item.title) }

    private func queue(_ names: [String]) -> (PlayQueue, [QueueEntryID]) {
        var queue = PlayQueue()
        let ids = names.map { queue.append(item($0)) }
        return (queue, ids)
    }

    @Test func idsAreStableAcrossEditsAndNeverReused() {
        var (q, ids) = queue(["a", "b", "c"])
        #expect(Set(ids).count == 3)
        q.move(ids[2], to: 0)
        #expect(titles(q) == ["c", "a", "b"])
        #expect(q.entry(ids[2])?.item.title == "c")
        q.remove(ids[0])
        let d = q.append(item("d"))
        #expect(!ids.contains(d), "an id was reused")
        #expect(titles(q) == ["c", "b", "d"])
    }

    @Test func relocateChangesOnlyTheLocationOfThatEntry() throws {
        var (q, ids) = queue(["a", "b"])
        let file = try MediaLocation("/cache/b.wav")
        let moved = q.relocate(ids[1], to: file)
        #expect(moved)
        #expect(q.entries[1].item.location == file && q.entries[1].item.title == "b" && q.entries[1].id == ids[1])
        #expect(q.entries[0].item == item("a"))
        q.remove(ids[0])
        let movedRemoved = q.relocate(ids[0], to: file)
        #expect(!movedRemoved, "a removed entry moved")
    }

    @Test func insertNextGoesAfterTheCurrentEntry() {
        var (q, ids) = queue(["a", "b", "c"])
        q.insertNext(item("front"))
        #expect(titles(q) == ["front", "a", "b", "c"], "with no current entry, next is the front")
        q.setCurrent(ids[1])
        q.insertNext(item("x"))
        #expect(titles(q) == ["front", "a", "b", "x", "c"])
        #expect(q.currentIndex == 2)
    }

    @Test func removingTheCurrentEntryLeavesNoneCurrent() {
        var (q, ids) = queue(["a", "b"])
        q.setCurrent(ids[0])
        let removed = q.remove(ids[0])
        let again = q.remove(ids[0])
        let made = q.setCurrent(ids[0])
        #expect(removed)
        #expect(q.current == nil)
        #expect(!again, "removed twice")
        #expect(!made)
    }

    @Test(arguments: [(-5, ["c", "a", "b"]), (1, ["a", "c", "b"]), (99, ["a", "b", "c"])])
    func moveClampsItsPosition(position: Int, expected: [String]) {
        var (q, ids) = queue(["a", "b", "c"])
        let moved = q.move(ids[2], to: position)
        #expect(moved)
        #expect(titles(q) == expected)
    }

    @Test func whatFollowsDependsOnTheLoopMode() {
        var (q, ids) = queue(["a", "b"])
        #expect(q.entry(after: ids[0])?.id == ids[1])
        #expect(q.entry(after: ids[1]) == nil)
        q.loop = .queue
        #expect(q.entry(after: ids[1])?.id == ids[0])
        q.loop = .entry
        #expect(q.entry(after: ids[1])?.id == ids[1])
        // A listener's next still moves on when one entry loops.
        #expect(q.skipTarget(after: ids[0])?.id == ids[1])
        #expect(q.skipTarget(before: ids[0])?.id == ids[1])
        q.loop = .off
        #expect(q.skipTarget(before: ids[0]) == nil)
        #expect(q.skipTarget(after: ids[1]) == nil)
    }

    @Test func shuffleKeepsTheCurrentEntryFirstAndEveryEntry() {
        var (q, ids) = queue((0..<20).map { "\($0)" })
        q.setCurrent(ids[7])
        var generator = SystemRandomNumberGenerator()
        q.shuffle(using: &generator)
        #expect(q.entries.first?.id == ids[7])
        #expect(Set(q.entries.map(\.id)) == Set(ids))
        #expect(q.currentIndex == 0)
    }

    @Test func clearEmptiesIt() {
        var (q, ids) = queue(["a"])
        q.setCurrent(ids[0])
        q.clear()
        #expect(q.isEmpty && q.current == nil)
    }
}
