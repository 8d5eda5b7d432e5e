import Testing
import AliciaAudio
import AliciaJSON
@testable import AliciaSession

/// Every property of the table and every alias, in-process on a session over recording outputs:
/// each property reads (or says it has no value now), each writable one takes a value and reads
/// it back, each cyclable one moves, and each alias does what its expansion does.
@Suite(.serialized) struct PropertyTableTests {
    /// Properties with no value on a paused local item with chapters and no voice note, no
    /// transcript, no sleep timer: null, or unavailable (the socket's "property unavailable").
    static let emptyHere: Set<String> = ["alicia-voice", "alicia-sleep", "alicia-label", "transcript"]

    @Test func everyPropertyReads() throws {
        let rig = try SessionRig()
        try rig.loadPaused()
        var empty: Set<String> = []
        for name in SessionProperties.names {
            let outcome = rig.run("get_property \(name)")
            switch outcome {
            case .value(.null), .value(.array([])): empty.insert(name)
            case .value: break
            case .failed(let why) where why == "\(name) has no value now": empty.insert(name)
            default: Issue.record("\(name): \(outcome)")
            }
        }
        #expect(empty == Self.emptyHere)
        #expect(rig.get("playlist/count") == .number(3))
        #expect(rig.get("playlist/1/title") == .string("b"))
        #expect(rig.get("chapter-list").flatMap { if case .array(let list) = $0 { list.count } else { nil } } == 3)
    }

    /// `(property, a value to set, what it reads afterwards)`.
    static let writes: [(String, String, JSONValue)] = [
        ("pause", "no", .bool(false)), ("time-pos", "2.5", .number(2.5)), ("playback-time", "0:03", .number(3)),
        ("percent-pos", "25", .number(25)), ("speed", "1.5", .number(1.5)), ("volume", "40", .number(40)),
        ("mute", "yes", .bool(true)), ("chapter", "2", .number(2)), ("playlist-pos", "1", .number(1)),
        ("loop-playlist", "inf", .string("inf")), ("loop-file", "inf", .string("inf")), ("shuffle", "yes", .bool(true)),
        ("alicia-skip-silence", "medium", .string("medium")), ("alicia-loudness", "-16", .number(-16)),
    ]

    @Test func everyWritablePropertyTakesAValue() throws {
        let writable = Set(SessionProperties.table.filter(\.isWritable).map(\.name))
        #expect(Set(Self.writes.map(\.0)).union(["alicia-sleep"]) == writable, "a writable property without a case here")
        for (name, value, expected) in Self.writes {
            let rig = try SessionRig()
            try rig.loadPaused()
            #expect(rig.run("set_property \(name) \(value)").problem == nil, "\(name)")
            let settled = rig.until { rig.get(name) == expected }
            #expect(settled, "\(name) \(value) reads \(String(describing: rig.get(name)))")
        }
        let rig = try SessionRig()
        try rig.loadPaused()
        rig.run("set_property alicia-sleep 15m")
        #expect(rig.get("alicia-sleep")?.numberValue.map { $0 > 800 && $0 <= 900 } == true, "\(String(describing: rig.get("alicia-sleep")))")
    }

    @Test func everyCyclablePropertyMoves() throws {
        let rig = try SessionRig()
        try rig.loadPaused()
        for property in SessionProperties.table where property.isCyclable || property.isWritable {
            guard case .success = SessionProperties.cycle(property.name, PropertyReading(rig.session.view, version: "")) else { continue }
            let before = rig.get(property.name)
            #expect(rig.run("cycle \(property.name)").problem == nil, "\(property.name)")
            rig.until { rig.get(property.name) != before }
            #expect(rig.get(property.name) != before, "cycle \(property.name) left it at \(String(describing: before))")
        }
    }

    @Test(arguments: [("volume", 5.0, 105.0), ("speed", 0.25, 1.25), ("time-pos", 1.0, 1.0), ("chapter", 1.0, 1.0)])
    func addMovesANumber(name: String, step: Double, expected: Double) throws {
        let rig = try SessionRig()
        try rig.loadPaused()
        rig.run("add \(name) \(SessionProperties.number(step))")
        rig.until { rig.number(name) == expected }
        #expect(rig.number(name) == expected)
    }

    /// Each alias, with each of its examples, leaves the session as its expansion does.
    @Test func everyAliasDoesWhatItsExpansionDoes() throws {
        for alias in CommandAliases.table {
            for example in alias.examples {
                let words = [alias.name] + example.map { $0 == "a.wav" ? "b" : $0 == "b.wav" ? "c" : $0 }
                let aliased = try SessionRig()
                try aliased.loadPaused()
                let aliasOutcome = aliased.run(words.joined(separator: " "))
                let expanded = try SessionRig()
                try expanded.loadPaused()
                var expandedOutcome = CommandOutcome.value(.null)
                for line in try CommandAliases.expand(words).get() { expandedOutcome = expanded.run(line.joined(separator: " ")) }
                #expect(aliasOutcome.problem == expandedOutcome.problem, "\(words)")
                #expect(fingerprint(aliased) == fingerprint(expanded), "\(words)")
            }
        }
    }

    /// What the listener would notice of a session: its levels, where it stands, what is queued.
    private func fingerprint(_ rig: SessionRig) -> [String] {
        // Once what was asked has been carried out (a jump opened, a seek begun).
        rig.until {
            let snapshot = rig.session.view.snapshot()
            let queued = !rig.session.view.queue.isEmpty
            return snapshot.state != .loading && snapshot.pendingEntry == nil && (!queued || snapshot.format != nil)
        }
        return ["pause", "volume", "mute", "speed", "time-pos", "chapter", "playlist-pos", "playlist-count"].map { name in
            "\(name)=\(rig.get(name).map { String(decoding: $0.text(layout: .compact) ?? [], as: UTF8.self) } ?? "-")"
        } + [rig.session.view.queue.entries.map(\.item.title).joined(separator: ",")]
    }
}
