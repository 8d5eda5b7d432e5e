#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaJSON
import AliciaLibrary
import AliciaLocks
import AliciaSession

/// A `hook = EVENT COMMAND ARGS…` line of the config file: a program run (argv, no shell) when the
/// event happens, the event as one JSON object on its standard input.
package struct Hook: Equatable, Sendable {
    package static let events = ["item-start", "item-end", "pause", "resume", "voice-note", "chapter", "sleep-ended", "error"]

    package var event: String
    package var arguments: [String]

    /// `item-start notify-send "Now playing"`: words split at spaces, quotes ('…', "…") keep theirs.
    package static func parse(_ value: String) -> Result<Hook, HookProblem> {
        var words: [String] = []
        var word: String?
        var quote: Character?
        for character in value {
            if let open = quote {
                if character == open { quote = nil } else { word = (word ?? "") + String(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                word = word ?? ""
            } else if character == " " || character == "\t" {
                if let finished = word { words.append(finished) }
                word = nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if quote != nil { return .failure(HookProblem("a quote is not closed")) }
        if let finished = word { words.append(finished) }
        guard let event = words.first, Self.events.contains(event) else {
            return .failure(HookProblem("takes an event (\(Self.events.joined(separator: ", "))) and a command"))
        }
        guard words.count > 1 else { return .failure(HookProblem("\(event) needs a command to run")) }
        return .success(Hook(event: event, arguments: Array(words.dropFirst())))
    }
}

package struct HookProblem: Error, Equatable, Sendable {
    package let message: String
    package init(_ message: String) { self.message = message }
}

/// Runs the config file's hooks on the session's events: the host hands it each turn's notices
/// and the player's snapshot (pause, resume and chapters are read from it). Each hook line has a
/// thread and a queue of its own, so a slow one holds back neither playback nor another hook; a
/// run is stopped at the time limit; its output goes to the debug log; a failure is one warning.
package final class HookRunner {
    private let workers: [HookWorker]
    private var state: PlayerState?
    /// The item and chapter last heard, so each change is told once.
    private var chapter: (entry: QueueEntryID, index: Int)?

    /// The hooks of the config file (nil when it has none); a bad line is a warning.
    package static func configured(warn: @escaping @Sendable (String) -> Void) -> HookRunner? {
        let (path, entries) = ConfigurationLoader.fileEntries(["hook", "hook_time_limit"], environment: BackendSession.environment())
        var hooks: [Hook] = []
        var limit = 10.0
        for entry in entries {
            switch entry.key {
            case "hook":
                switch Hook.parse(entry.value) {
                case .success(let hook): hooks.append(hook)
                case .failure(let problem): warn("\(path):\(entry.line): hook \(problem.message)")
                }
            case "hook_time_limit":
                if let seconds = SessionProperties.duration(entry.value), seconds > 0, seconds <= 3600 { limit = seconds } else {
                    warn("\(path):\(entry.line): hook_time_limit '\(entry.value)' is not a time up to an hour (10, 10s, 1m)")
                }
            default: continue
            }
        }
        return hooks.isEmpty ? nil : HookRunner(hooks, timeLimit: limit, warn: warn)
    }

    package init(_ hooks: [Hook], timeLimit: Double, warn: @escaping @Sendable (String) -> Void) {
        workers = hooks.map { HookWorker($0, timeLimit: timeLimit, warn: warn) }
    }

    /// One turn of the host: the events in the notices and in the change of the snapshot.
    package func update(_ notices: [SessionNotice], _ snapshot: PlayerSnapshot) {
        for notice in notices {
            switch notice {
            case .started(let entry, let item):
                // Another entry's chapter is forgotten; this entry's stays: a loaded host can read
                // the snapshot's first chapter a turn before the notice that it started, and the
                // chapter must not be told twice.
                if chapter?.entry != entry { chapter = nil }
                fire("item-start", item, snapshot, [.init("entry", .number(Double(entry.rawValue)))])
            case .finished(let entry, let item, let truncated):
                fire("item-end", item, snapshot, [.init("entry", .number(Double(entry.rawValue))), .init("truncated", .bool(truncated))])
            case .failed(_, let item, let error):
                fire("error", item, snapshot, [.init("message", .string(error.message))])
            case .asleep:
                fire("sleep-ended", snapshot.item, snapshot, [])
            case .voice(.started(let title, _)):
                fire("voice-note", snapshot.item, snapshot, [.init("voice_note", .string(title))])
            default:
                continue
            }
        }
        let before = state
        state = snapshot.state
        if before == .playing && snapshot.state == .paused { fire("pause", snapshot.item, snapshot, []) }
        if before == .paused && snapshot.state == .playing { fire("resume", snapshot.item, snapshot, []) }
        chapterChange(snapshot)
    }

    private func chapterChange(_ snapshot: PlayerSnapshot) {
        let chapters = snapshot.metadata.chapters
        guard let entry = snapshot.entry, let index = ChapterMap.index(of: snapshot.position, in: chapters), index >= 0 else { return }
        if let chapter, chapter.entry == entry, chapter.index == index { return }
        chapter = (entry, index)
        fire("chapter", snapshot.item, snapshot, [.init("chapter", .number(Double(index + 1))), .init("chapter_title", .string(chapters[index].title))])
    }

    private func fire(_ event: String, _ item: QueueItem?, _ snapshot: PlayerSnapshot, _ extra: [JSONValue.Member]) {
        let interested = workers.filter { $0.hook.event == event }
        guard !interested.isEmpty else { return }
        let object = Self.event(event, item, snapshot, extra)
        for worker in interested { worker.enqueue(object) }
    }

    /// `{"event":"item-start","title":…,"location":…,"label":…,"position":…,"duration":…,…}`: the
    /// token of a URL shown as `***`, as everywhere.
    static func event(_ event: String, _ item: QueueItem?, _ snapshot: PlayerSnapshot, _ extra: [JSONValue.Member]) -> [UInt8] {
        var members: [JSONValue.Member] = [.init("event", .string(event))]
        if let item {
            members.append(.init("title", .string(item.title)))
            members.append(.init("location", .string(item.location.display)))
            if let label = item.label { members.append(.init("label", .string(label))) }
        }
        members.append(.init("position", .number((snapshot.position * 1000).rounded() / 1000)))
        if let duration = snapshot.duration { members.append(.init("duration", .number((duration * 1000).rounded() / 1000))) }
        members += extra
        return (JSONValue.object(members).text(layout: .compact) ?? []) + [10]
    }

    /// Lets the runs asked for finish (each within its limit), then ends the threads.
    package func close() {
        for worker in workers { worker.close() }
    }
}

/// One hook line's thread: its runs in order, one at a time.
final class HookWorker: Sendable {
    let hook: Hook
    private let timeLimit: Double
    private let warn: @Sendable (String) -> Void
    private let queue = ConditionLock(Queue())
    private let thread = Locked<NativeThread?>(nil)

    /// At most this many runs wait; more are dropped (with a warning).
    static let backlog = 16

    struct Queue {
        var waiting: [[UInt8]] = []
        /// Closing: when the runs must be done by (monotonic seconds).
        var closing: Double?
    }

    init(_ hook: Hook, timeLimit: Double, warn: @escaping @Sendable (String) -> Void) {
        self.hook = hook
        self.timeLimit = timeLimit
        self.warn = warn
        let started = NativeThread(name: "alicia-hook") { [self] in work() }
        thread.withLock { $0 = started }
    }

    func enqueue(_ event: [UInt8]) {
        let dropped = queue.update { queue -> Bool in
            guard queue.waiting.count < Self.backlog else { return true }
            queue.waiting.append(event)
            return false
        }
        if dropped { warn("hook \(hook.event) \(hook.arguments[0]): \(Self.backlog) runs wait already; this one is dropped") }
    }

    /// Lets the runs already asked for finish (the last `item-end` still reaches a scrobbler),
    /// all of them within one time limit from now, then joins: what is left then is stopped or
    /// dropped, so a player quits within one limit however many runs wait.
    func close() {
        let deadline = MonotonicClock.seconds() + timeLimit
        queue.update { $0.closing = deadline }
        thread.withLock { $0 }?.join()
    }

    private func work() {
        while true {
            let next = queue.withLock(waitingUntil: { !$0.waiting.isEmpty || $0.closing != nil }) { queue -> [UInt8]? in
                let late = queue.closing.map { MonotonicClock.seconds() >= $0 } ?? false
                return queue.waiting.isEmpty || late ? nil : queue.waiting.removeFirst()
            }
            guard let event = next else { return }
            let outcome = HookProcess.run(hook.arguments, input: event, timeLimit: timeLimit) { [queue] in
                queue.withLock { $0.closing }.map { MonotonicClock.seconds() >= $0 } ?? false
            }
            let name = "hook \(hook.event) \(hook.arguments[0])"
            if !outcome.output.isEmpty {
                Log.debug(.cli, "\(name): \(String(decoding: outcome.output, as: UTF8.self).trimmingSuffixNewlines())")
            }
            if let problem = outcome.problem { warn("\(name): \(problem)") }
        }
    }
}

extension String {
    func trimmingSuffixNewlines() -> String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
