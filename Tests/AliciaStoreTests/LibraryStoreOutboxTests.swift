import Testing
import AliciaStore

/// The listening reports' outbox: order, one row per event id, per backend, the bound.
@Suite struct LibraryStoreOutboxTests {
    static let here = "http://127.0.0.1:8766"

    @Test func eventsComeBackInTheOrderWrittenAndOnceEach() throws {
        let (directory, store) = try ScratchDirectory.withStore()
        defer { directory.remove() }
        try store.appendToOutbox([("a", "{\"n\":1}"), ("b", "{\"n\":2}")], backend: Self.here, at: 10)
        try store.appendToOutbox([("a", "{\"n\":1}"), ("c", "{\"n\":3}")], backend: Self.here, at: 20)
        let other = try LibraryStore(path: directory.file("library.db"))
        #expect(try other.outbox(backend: Self.here).map(\.eventID) == ["a", "b", "c"])
        #expect(try other.outboxHead(backend: Self.here)?.body == "{\"n\":1}")
        #expect(try other.outboxHead(backend: "http://elsewhere:1") == nil)
    }

    @Test func aSendThatDidNotTakeCountsAnAttemptAndTheHeadStays() throws {
        let (directory, store) = try ScratchDirectory.withStore()
        defer { directory.remove() }
        try store.appendToOutbox([("a", "{}"), ("b", "{}")], backend: Self.here)
        let head = try #require(try store.outboxHead(backend: Self.here))
        try store.deferOutbox(seq: head.seq, nextTryMS: 1234, error: "503")
        try store.deferOutbox(seq: head.seq, nextTryMS: 5678, error: "no answer")
        let again = try #require(try store.outboxHead(backend: Self.here))
        #expect(again.eventID == "a" && again.attempts == 2 && again.nextTryMS == 5678 && again.lastError == "no answer")
        #expect(try store.removeFromOutbox(seq: again.seq))
        #expect(try !store.removeFromOutbox(seq: again.seq), "gone already: another instance sent it")
        #expect(try store.outboxHead(backend: Self.here)?.eventID == "b")
    }

    @Test func theOldestGoBeyondTheBoundOfOneBackend() throws {
        let (directory, store) = try ScratchDirectory.withStore()
        defer { directory.remove() }
        try store.appendToOutbox([("x", "{}")], backend: "http://elsewhere:1", limit: 3)
        try store.appendToOutbox([("a", "{}"), ("b", "{}"), ("c", "{}")], backend: Self.here, limit: 3)
        let trimmed = try store.appendToOutbox([("d", "{}"), ("e", "{}")], backend: Self.here, limit: 3)
        #expect(trimmed == 2)
        #expect(try store.outbox(backend: Self.here).map(\.eventID) == ["c", "d", "e"])
        #expect(try store.outbox().map(\.eventID) == ["x", "c", "d", "e"])
    }
}
