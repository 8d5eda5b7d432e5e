#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaLocks
import AliciaSession
import AliciaLibrary
import AliciaHost

/// A script run on a session's host: its lines in order, each a command of the vocabulary but
/// `echo`, `status` and `wait`, which are the script's own; a `wait` (or a `say` waiting for
/// Alicia) holds the next line back until what it waits for has happened.
final class ScriptFrontEnd: HostedFrontEnd {
    private let steps: [ScriptCommand.Step]
    private let host: SessionHost
    private var session: ListeningSession { host.session }
    private var next = 0
    private var status = ExitCode.success
    /// What holds the next line back.
    private var waiting: Waiting?
    /// The entry the last `play` or `append` started (its first), and the entries heard since.
    private var loaded: QueueEntryID?
    private var started: Set<QueueEntryID> = []

    private enum Waiting {
        /// `wait`: for this entry, from its loading to its end (nil: the one heard, once known).
        case item(QueueEntryID?, heard: Bool)
        case queue
        case voice
        case until(Double)
        /// `say`: for Alicia's reply.
        case reply
        /// A `chapter` line right after a `play`: for the item to open (its chapters are known
        /// then), and then the request.
        case opened(CommandRequest)
    }

    init(steps: [ScriptCommand.Step], host: SessionHost) {
        self.steps = steps
        self.host = host
    }

    var descriptors: [Int32] { [] }

    func deadline() -> Double? {
        if case .until(let time)? = waiting { return time }
        return nil
    }

    func turn(_ notices: [SessionNotice], readable: Set<Int32>, signals: [Int32]) -> Int32? {
        for notice in notices {
            if take(notice) { return status }
        }
        while true {
            if let waiting, !isOver(waiting) { return nil }
            waiting = nil
            guard next < steps.count else { return status }
            let step = steps[next]
            next += 1
            if let ended = run(step) { return ended }
        }
    }

    /// Follows a notice; true when the script ends here (the sleep timer ended it).
    private func take(_ notice: SessionNotice) -> Bool {
        switch notice {
        case .started(let entry, _):
            started.insert(entry)
            if case .item(nil, _)? = waiting { waiting = .item(entry, heard: true) }
            if case .item(let target?, false)? = waiting, target == entry { waiting = .item(target, heard: true) }
        case .failed(let entry, let item, let error):
            Console.fail(item.map { "\($0.title): " }.map { $0 + error.message } ?? error.message)
            status = ExitCode.failure
            if case .item(let target, _)? = waiting, target == nil || target == entry { waiting = nil }
        case .finished(let entry, _, _):
            if case .item(let target, _)? = waiting, target == entry { waiting = nil }
        case .voice(.failed(let title, let error)):
            Console.fail("voice note \(title): \(error.message)")
            status = ExitCode.failure
        case .alicia(.replied(_, let text, _)):
            Console.out(text + (text.hasSuffix("\n") ? "" : "\n"))
            if case .reply? = waiting { waiting = nil }
        case .alicia(.failed(_, _, let message)):
            Console.fail(message)
            status = ExitCode.failure
            if case .reply? = waiting { waiting = nil }
        case .alicia(.problem(let message)):
            Console.fail(message)
        case .outputMoved(let move):
            Console.fail(PlaybackFrontEnd.movedLine(move))
        case .asleep:
            return true
        default:
            break
        }
        return false
    }

    /// Whether what a `wait` waits for has happened (the notices have been taken).
    private func isOver(_ waiting: Waiting) -> Bool {
        let resting = session.view.snapshot().state == .idle && session.view.queue.isEmpty
        switch waiting {
        case .item(let target, let heard):
            if session.queueEnded || resting { return true }
            // Another entry is heard after this one was (a `next` from the socket): it is over.
            guard heard, let target, let now = session.view.snapshot().entry else { return false }
            return now != target && started.contains(now)
        case .queue: return session.queueEnded || resting
        case .voice: return session.view.voiceIsIdle
        case .until(let time): return MonotonicClock.seconds() >= time
        case .reply: return !session.isChatting
        case .opened(let request):
            guard isOpened || session.queueEnded || resting else { return false }
            if let why = session.execute(request).problem { Log.info(.cli, "script: \(why)") }
            return true
        }
    }

    /// Carries out one step; an exit status when it ends the script.
    private func run(_ step: ScriptCommand.Step) -> Int32? {
        switch step {
        case .load(let plan):
            let reply = session.perform(.load(plan))
            if plan.mode == .replace {
                loaded = session.view.queue.entries.first?.id
                started.removeAll()
            } else if case .entry(let id) = reply, loaded == nil || session.queueEnded {
                loaded = id
            }
        case .voice(let note):
            session.perform(.voiceNote(note))
        case .request(let request):
            return run(request)
        case .echo(let text): Console.out(text + "\n")
        case .status: Console.out(SessionStatus.line(SessionStatus.json(PropertyReading(session.view, version: Product.version))) + "\n")
        case .wait(let what): waiting = wait(what)
        }
        return nil
    }

    /// A request of the grammar, as the socket would carry it out; a `get` prints its value.
    private func run(_ request: CommandRequest) -> Int32? {
        if Self.needsChapters(request), !isOpened {
            // Right after a `play`: once the item has opened its chapters are known.
            waiting = .opened(request)
            return nil
        }
        switch session.execute(request) {
        case .value(let value):
            if let text = SessionProperties.text(value).stringValue { Console.out(text + "\n") }
        case let outcome:
            if let why = outcome.problem { Log.info(.cli, "script: \(why)") }
        }
        if case .perform(.say) = request { waiting = .reply }
        if let quit = session.quitRequested { return max(quit, status) }
        return nil
    }

    /// A chapter command (`chapter +1`, `add chapter 1`, `set chapter 2`), which needs the item open.
    static func needsChapters(_ request: CommandRequest) -> Bool {
        switch request {
        case .perform(.chapter), .add("chapter", _), .setProperty("chapter", _): return true
        default: return false
        }
    }

    /// The item heard has opened (its format, and so its chapters, are known).
    private var isOpened: Bool {
        let snapshot = session.view.snapshot()
        return snapshot.format != nil && snapshot.state != .loading && snapshot.state != .idle
    }

    private func wait(_ what: Script.Wait) -> Waiting {
        switch what {
        case .seconds(let seconds): return .until(MonotonicClock.seconds() + seconds)
        case .voice: return .voice
        case .queue: return .queue
        case .item:
            // The entry the last `play` started, until it has been heard; then the one heard.
            if let loaded, !started.contains(loaded) { return .item(loaded, heard: false) }
            let heard = session.view.snapshot().entry
            return .item(heard, heard: heard != nil)
        }
    }
}
