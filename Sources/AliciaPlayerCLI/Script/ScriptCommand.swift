#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaControl
import AliciaBackend
import AliciaSession

/// `alicia-player script FILE [--check]` (`-` for stdin): checks the whole script (every command,
/// every reference), then runs it, one command a line, on a listening session.
final class ScriptCommand {
    let path: String
    let checkOnly: Bool
    let options: PlayOptions

    init(path: String, checkOnly: Bool, options: PlayOptions) {
        self.path = path
        self.checkOnly = checkOnly
        self.options = options
    }

    /// What a line runs with: its items resolved at check time.
    private enum Step {
        case command(Script.Command)
        case play([QueueItem])
        case append([QueueItem])
        case voice(QueueItem)
    }

    private var name: String { path == "-" ? "stdin" : path }

    func run() -> Int32 {
        let signals = SignalWatcher()
        let bytes: [UInt8]
        switch QueueResolver.contents(of: path) {
        case .success(let read): bytes = read
        case .failure(let problem):
            Console.fail(problem.message)
            return CommandLineTool.Status.usage
        }
        // Every problem at once, in line order: what does not parse, and what it names that cannot play.
        let script = Script.parse(bytes)
        var problems = script.problems.map { (line: $0.line, text: "\(name):\($0.line): \($0.message)") }
        let steps = check(script, problems: &problems)
        guard problems.isEmpty, let steps else {
            for problem in problems.sorted(by: { $0.line < $1.line }) { Console.fail(problem.text) }
            return CommandLineTool.Status.usage
        }
        if checkOnly { return CommandLineTool.Status.success }
        return perform(steps, signals: signals)
    }

    private var backend: BackendSession?

    /// Every reference resolved, and a backend for `say`; nil (after saying why, line by line) when
    /// any line cannot run.
    private func check(_ script: Script, problems found: inout [(line: Int, text: String)]) -> [(line: Int, step: Step)]? {
        let resolver = QueueResolver(backend: options.backend)
        let directory = QueueResolver.directory(of: path)
        var steps: [(line: Int, step: Step)] = []
        var problems: [(line: Int, text: String)] = []
        func items(_ references: [String], line: Int) -> [QueueItem] {
            references.flatMap { reference -> [QueueItem] in
                switch resolver.items(reference, relativeTo: directory) {
                case .success(let items): return items
                case .failure(let problem):
                    problems.append((line, "\(name):\(line): \(problem.message)"))
                    return []
                }
            }
        }
        for line in script.lines {
            switch line.command {
            case .play(let references): steps.append((line.number, .play(items(references, line: line.number))))
            case .append(let references): steps.append((line.number, .append(items(references, line: line.number))))
            case .voice(let reference):
                if let note = items(["voice:" + reference], line: line.number).first { steps.append((line.number, .voice(note))) }
            case .say:
                if backend == nil {
                    do {
                        backend = try BackendSession(options.backend)
                    } catch .notConfigured {
                        problems.append((line.number, "\(name):\(line.number): say needs Alicia's backend, and none is configured"))
                    } catch {
                        problems.append((line.number, "\(name):\(line.number): say: \(error.message)"))
                    }
                }
                steps.append((line.number, .command(line.command)))
            default:
                steps.append((line.number, .command(line.command)))
            }
        }
        found += problems
        return problems.isEmpty ? steps : nil
    }

    private func perform(_ steps: [(line: Int, step: Step)], signals: SignalWatcher) -> Int32 {
        let listener: ControlSocket.Listener?
        switch RemoteControl.listen(options) {
        case .success(let bound): listener = bound
        case .failure(let failure): return failure.status
        }
        let session = ListeningSession(PlaybackSession.sessionOptions(options))
        let waker = session.waker
        signals.whenSignalled { waker() }
        defer { session.close() }
        let remote = options.noIPC ? nil : RemoteControl.serve(session, listener: listener, options: options)
        defer { remote?.close() }
        let downloads = AutoDownloader.start(options.autoDownload, player: session.player) { Console.fail("warning: " + $0) }
        defer { downloads?.close() }
        var status = CommandLineTool.Status.success
        var slept = false
        /// How the script ends early: a signal (128 + it), or a remote `quit` (its status).
        func stopped() -> Int32 {
            if let signal = signals.signal { return 128 + signal }
            return session.quitRequested ?? status
        }
        /// Reads what happened; `stop` when a signal asks to stop, the sleep timer ended or a remote
        /// `quit` came.
        func pump(_ timeout: Duration = .milliseconds(100), watching entry: QueueEntryID? = nil) -> (stop: Bool, ended: Bool) {
            if signals.signal != nil || session.quitRequested != nil { return (true, false) }
            var ended = false
            for notice in session.nextNotices(timeout: timeout) {
                switch notice {
                case .failed(let failed, let item, let error):
                    Console.fail(item.map { "\($0.title): " }.map { $0 + error.message } ?? error.message)
                    status = CommandLineTool.Status.failure
                    if failed == entry { ended = true }
                case .finished(let finished, _, _):
                    if finished == entry { ended = true }
                case .voice(.failed(let title, let error)):
                    Console.fail("voice note \(title): \(error.message)")
                    status = CommandLineTool.Status.failure
                case .asleep:
                    slept = true
                case .outputMoved(let move):
                    Console.fail(PlaybackSession.movedLine(move))
                default:
                    break
                }
            }
            session.tick()
            downloads?.update()
            return (signals.signal != nil || slept || session.quitRequested != nil, ended)
        }
        for (_, step) in steps {
            switch step {
            case .play(let items):
                session.play(items, loop: options.loop ? .queue : .off, shuffle: options.shuffle)
            case .append(let items):
                for item in items { session.append(item) }
            case .voice(let note):
                session.playVoiceNote(note.location, title: note.title)
            case .command(let command):
                switch command {
                case .next: _ = session.next()
                case .previous: _ = session.previous()
                case .pause: session.player.pause()
                case .resume: session.resume()
                case .toggle: session.togglePause()
                case .seek(.relative(let seconds)): session.player.seek(by: seconds)
                case .seek(.to(.seconds(let seconds))): session.player.seek(to: seconds)
                case .seek(.to(.fraction(let fraction))): session.player.seek(toFraction: fraction)
                case .volume(let percent): session.player.setVolume(percent / 100)
                case .speed(let speed): session.player.setSpeed(speed)
                case .echo(let text): Console.out(text + "\n")
                case .status: Console.out(statusLine(session.player.snapshot()) + "\n")
                case .say(let text):
                    if !say(text, session: session) { status = CommandLineTool.Status.failure }
                case .wait(let what):
                    let deadline: ContinuousClock.Instant? = if case .seconds(let s) = what { ContinuousClock.now + .milliseconds(Int64(s * 1000)) } else { nil }
                    let entry = session.player.snapshot().entry
                    while true {
                        let done: Bool
                        switch what {
                        case .seconds: done = ContinuousClock.now >= deadline!
                        case .voice: done = session.voiceNotes?.isIdle ?? true
                        case .queue: done = session.queueEnded || isResting(session)
                        case .item: done = session.queueEnded || isResting(session) || session.player.snapshot().entry != entry
                        }
                        if done { break }
                        let timeout = deadline.map { min(.milliseconds(100), max(.zero, $0 - ContinuousClock.now)) } ?? .milliseconds(100)
                        let (stop, ended) = pump(timeout, watching: entry)
                        if stop { return stopped() }
                        if ended, case .item = what { break }
                    }
                case .quit:
                    return status
                case .play, .append, .voice:
                    break
                }
            }
            // Take what has happened so far without waiting (and notice a signal).
            if pump(.zero).stop { return stopped() }
        }
        return status
    }

    /// Nothing plays and nothing is about to (stopped, or never started).
    private func isResting(_ session: ListeningSession) -> Bool {
        let snapshot = session.player.snapshot()
        return snapshot.state == .idle && session.player.queue.isEmpty
    }

    /// `state position duration title`: seconds with two decimals, `-` for an unknown length.
    func statusLine(_ snapshot: PlayerSnapshot) -> String {
        let position = Self.seconds(snapshot.position)
        let duration = snapshot.duration.map(Self.seconds) ?? "-"
        return "\(snapshot.state.rawValue) \(position) \(duration) \(snapshot.item?.title ?? "-")"
    }

    static func seconds(_ value: Double) -> String {
        let hundredths = Int((max(0, value) * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Sends `text` to Alicia; her reply is printed and its voice note plays. False on an error.
    private func say(_ text: String, session: ListeningSession) -> Bool {
        guard let backend else { return false }
        let client = backend.client
        do {
            let reply = try client.chat(text, voice: true) { event in
                if case .voice(let path) = event, let location = try? MediaLocation(client.mediaURL(for: path)) {
                    session.playVoiceNote(location, title: "Voice note · " + PlayCommand.fileName(location))
                }
            }
            Console.out(reply.text + (reply.text.hasSuffix("\n") ? "" : "\n"))
            return true
        } catch {
            Console.fail(error.message)
            return false
        }
    }
}
