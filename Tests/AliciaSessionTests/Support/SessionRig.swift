import AliciaAudio
import AliciaJSON
import AliciaLocks
import AliciaTestSupport
@testable import AliciaSession

/// A listening session in-process, over recording outputs (no sound server): three 4-second items
/// (`a` with chapters at 0, 1 and 2.5 s), a voice note, a resolver for their names, and ways to
/// let the "device" play and to wait for what the session says, bounded by a count of turns.
final class SessionRig {
    static let rate = 48_000
    let directory: TemporaryDirectory
    let episodes = RecordingSinks()
    let voices = RecordingSinks()
    let session: ListeningSession
    let items: [String: QueueItem]
    /// Every notice the session gave, in order.
    private(set) var notices: [SessionNotice] = []

    init(voiceFocus: VoiceFocus = .pause) throws {
        directory = try TemporaryDirectory(prefix: "rig")
        let a = PodcastFixture.withCuePoints(WAVFixture(seconds: 4, sampleRate: Self.rate, seed: 0xA).bytes,
                                             cues: [(0, "Intro"), (48_000, "Middle"), (120_000, "Outro")])
        var made: [String: QueueItem] = [:]
        for (name, bytes) in [("a", a), ("b", WAVFixture(seconds: 4, sampleRate: Self.rate, seed: 0xB).bytes),
                              ("c", WAVFixture(seconds: 4, sampleRate: Self.rate, seed: 0xC).bytes),
                              ("note", WAVFixture(seconds: 0.5, sampleRate: 24_000, channels: 1, seed: 0xD).bytes)] {
            let path = try directory.write(bytes, as: name + ".wav")
            made[name] = QueueItem(location: try MediaLocation(path), title: name, reference: name)
        }
        items = made
        var options = ListeningSession.Options()
        options.outputs = (episodes.output(), voices.output())
        options.voiceFocus = voiceFocus
        session = ListeningSession(options)
    }

    deinit { session.close() }

    /// A reference as a front end's resolver turns it into items: a name, `voice:NAME`, `speak:TEXT`.
    func resolve(_ reference: String) -> Result<[QueueItem], UsageError> {
        if reference.hasPrefix("speak:"), var item = items["b"] {
            item.title = "speak: " + reference.dropFirst(6)
            return .success([item])
        }
        let name = reference.hasPrefix("voice:") ? String(reference.dropFirst(6)) : reference
        guard let item = items[name] else { return .failure(UsageError("no such item '\(reference)'")) }
        return .success([item])
    }

    /// A command line carried out as a key or a script line is.
    @discardableResult
    func run(_ line: String) -> CommandOutcome {
        session.execute(line: line, resolve: resolve)
    }

    /// A property's value now (nil: unavailable or unknown).
    func get(_ name: String) -> JSONValue? {
        if case .value(let value) = run("get_property \(name)") { return value }
        return nil
    }

    func number(_ name: String) -> Double? { get(name)?.numberValue }

    /// `a b c` loaded, paused before a plays, once a has opened at 0.
    func loadPaused() throws {
        _ = session.perform(.pause)
        _ = session.perform(.load(LoadPlan(["a", "b", "c"].compactMap { items[$0] })))
        try require("a opened") { session.view.snapshot().format != nil && session.view.snapshot().state == .paused }
    }

    /// Takes what the session says, lets the device play `frames` of the episode (and of a voice
    /// note), until `condition` holds; false after a bound of turns (a hang guard, not a time).
    @discardableResult
    func until(_ what: String = "", playing frames: Int64 = 0, _ condition: () -> Bool) -> Bool {
        for _ in 0..<400 {
            notices += session.notices()
            if condition() { return true }
            if frames > 0 { episodes.all.last?.play(frames: frames) }
            voices.all.last?.play(frames: 4096)
            notices += session.nextNotices(timeout: .milliseconds(5))
        }
        return false
    }

    func require(_ what: String, playing frames: Int64 = 0, _ condition: () -> Bool) throws {
        guard until(what, playing: frames, condition) else { throw RigError("never: \(what); notices \(notices)") }
    }

    /// The title of the entry heard now.
    var heard: String? { session.view.snapshot().item?.title }

    struct RigError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
