import AliciaNotify
import AliciaWatch
import Testing

@Suite("Watch logic")
struct WatchLogicTests {
    private func plan(_ ids: [String], seen: SeenList?) -> WatchPlan<String> {
        WatchPlan.plan(ids, id: { $0 }, seen: seen, cap: 3)
    }

    @Test("the first run shows nothing and marks everything there seen")
    func firstRun() {
        let first = plan(["c", "b", "a"], seen: nil)
        #expect(first.notify.isEmpty && first.markSeen == ["c", "b", "a"])
    }

    @Test("new ones: three give three, oldest first; ten give the newest three and all ten are marked seen", arguments: [1, 3, 10])
    func cap(count: Int) {
        let seen = SeenList(ids: ["old"])
        let fresh = (1...count).reversed().map { "m\($0)" }
        let round = plan(fresh + ["old"], seen: seen)
        #expect(round.notify == Array(fresh.prefix(3).reversed()))
        #expect(round.markSeen == fresh)
    }

    @Test("what was seen is not shown again")
    func seenAgain() {
        var seen = SeenList(ids: ["a"])
        seen.insert(["b"])
        #expect(plan(["b", "a"], seen: seen).notify.isEmpty)
    }

    @Test("the seen list keeps the newest 200, survives being stored, and takes no empty or multi-line id")
    func bounded() {
        var seen = SeenList()
        seen.insert((0..<250).map { "id\($0)" } + ["", "a\nb"])
        #expect(seen.ids.count == 200 && seen.ids.first == "id50" && seen.ids.last == "id249")
        #expect(SeenList(stored: seen.stored) == seen)
        #expect(SeenList(stored: nil) == nil)
        #expect(SeenList(stored: "") == SeenList())
    }

    @Test("a problem is a line when it starts, changes and ends, never one a round")
    func statusLines() {
        var status = WatchStatus()
        #expect(status.report("backend", problem: nil) == nil)
        #expect(status.report("backend", problem: "refused") == "backend: refused")
        #expect(status.report("backend", problem: "refused") == nil)
        #expect(!status.isHealthy)
        #expect(status.report("backend", problem: "down") == "backend: down")
        #expect(status.report("backend", problem: nil) == "backend: working again")
        #expect(status.isHealthy)
    }

    @Test("back-off: the interval while well, doubling per failed round, never past ten minutes (or the interval)")
    func backoff() {
        #expect(WatchBackoff.delay(interval: 60, failures: 0) == 60)
        #expect(WatchBackoff.delay(interval: 60, failures: 1) == 120)
        #expect(WatchBackoff.delay(interval: 60, failures: 3) == 480)
        #expect(WatchBackoff.delay(interval: 60, failures: 50) == 600)
        #expect(WatchBackoff.delay(interval: 3600, failures: 2) == 3600)
        #expect(WatchBackoff.delay(interval: 2, failures: 2) == 8)
    }

    @Test("the gate: only the server's unique name, only ids it gave us; a closed notification is forgotten")
    func gate() {
        var gate = NotificationGate<String>(limit: 2)
        gate.issued(7, "seven")
        #expect(gate.accept(.action(id: 7, key: "read-aloud", sender: ":1.5")) == nil, "owner not known yet")
        gate.owner = ":1.5"
        #expect(gate.accept(.action(id: 7, key: "read-aloud", sender: ":1.9")) == nil, "another sender")
        #expect(gate.accept(.action(id: 8, key: "read-aloud", sender: ":1.5")) == nil, "an id not ours")
        #expect(gate.accept(.action(id: 7, key: "read-aloud", sender: ":1.5"))?.payload == "seven")
        #expect(gate.accept(.closed(id: 7, sender: ":1.9")) == nil)
        #expect(gate.issuedCount == 1, "a closed signal from another sender forgets nothing")
        _ = gate.accept(.closed(id: 7, sender: ":1.5"))
        #expect(gate.issuedCount == 0 && gate.accept(.action(id: 7, key: "read-aloud", sender: ":1.5")) == nil)
        gate.issued(1, "a")
        gate.issued(2, "b")
        gate.issued(3, "c")
        #expect(gate.issuedCount == 2 && gate.accept(.action(id: 1, key: "x", sender: ":1.5")) == nil)
    }
}
