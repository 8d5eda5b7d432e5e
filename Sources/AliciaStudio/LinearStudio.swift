#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaLocks
import AliciaSession
import AliciaTerminal
import AliciaLibrary
import AliciaHost

/// The accessible Studio (`--accessible`, `ACCESSIBLE=1`, `accessible = true`): the Studio as
/// linear text for screen readers and braille displays. No alternate screen, no cursor
/// addressing, nothing redrawn in place: each event is one new line, said once, in words
/// (`LinearNarrator` for the player, the notices and the Studio's status for the rest). Progress
/// only on demand (Tab) and at `--progress-every` milestones. Lists are numbered lines chosen by
/// number or title, and prompts (search, talking to Alicia) are read as whole lines with the
/// terminal's own echo and editing.
///
/// A front end of its own on the session host. The Studio's keys keep their meaning because they
/// go through the same `StudioAction` table: transport keys are performed here, on the session;
/// the Studio's own actions (play the selection, enqueue, search, talk, show notes, save the
/// queue, quit) go to a `StudioApp` that holds the library and the selection and is never drawn.
package final class LinearStudio: HostedFrontEnd {
    let app: StudioApp
    var host: SessionHost { app.host }
    var session: ListeningSession { app.session }
    var view: SessionView { app.view }
    let input = LinearInput()
    var narrator: LinearNarrator
    var decoder = KeyDecoder()
    /// The question whose answer is being typed, and the bytes of it so far.
    var prompt: Prompt?
    var typed: [UInt8] = []
    /// Lines that came while an answer was typed: said once it is in, so they do not break it.
    var held: [String] = []
    var lastLine: String?
    /// A key was pressed since the last line: the same words may be said again (Tab twice).
    var keyPressed = false
    /// When the Studio's status line was last set, as said.
    var statusSaid: Double?
    /// False once a standard input that is not a terminal has ended (`play --accessible < /dev/null`
    /// plays on; a terminal that hangs up ends the Studio).
    var inputOpen = true
    /// Alicia's proactive messages said so far.
    var proactiveSaid: Set<OpaqueID> = []
    /// Today's briefing was said to be ready.
    var briefingSaid = false

    /// What a typed line answers.
    enum Prompt {
        case search
        case say
        /// A number or a title of these entries, to play.
        case choose([Library.Entry])
        case queue
        /// A chapter's number, to jump to.
        case chapter
    }

    init(app: StudioApp) {
        self.app = app
        narrator = LinearNarrator(progressEvery: app.setup.options.progressEvery)
    }

    /// Opens the session and narrates it until the listener quits (or, for `play`, the queue ends).
    package static func open(setup: StudioApp.Setup, signals: SignalWatcher) -> Int32 {
        switch StudioApp.make(setup: setup, terminal: Terminal(), signals: signals) {
        case .failure(let failure): return failure.status
        case .success(let app): return LinearStudio(app: app).run()
        }
    }

    func run() -> Int32 {
        defer { host.close() }
        app.loadLibrary()
        if let positions = session.positions {
            app.model.played = Set(positions.all.filter { $0.value.played }.map(\.key))
            for warning in positions.warnings { say("Warning: " + warning) }
        }
        app.start(app.setup.autoplay)
        let inbox = app.inbox
        host.start { line in inbox.withLock { $0.error = line } }
        do {
            try input.keys()
        } catch {
            Console.fail("cannot use the terminal: \(error)")
            return ExitCode.failure
        }
        defer {
            app.quitting.set()
            for worker in app.workers { worker.thread.join() }
            host.close()
            input.restore()
            app.rememberVolumeAndSpeed()
        }
        say("Alicia Studio, accessible. Tab says where playback is, l lists what can play, question mark lists the keys, q quits.")
        app.refreshProactive()
        app.refreshReadings()
        return host.run(self)
    }

    // MARK: The host's turns

    package var descriptors: [Int32] { inputOpen ? [0] : [] }

    package func deadline() -> Double? {
        let now = MonotonicClock.seconds()
        // The Studio's own errands: the next try of an offline backend, the proactive refresh.
        let reconnect = app.reconnect.flatMap { $0.trying ? nil : $0.at }
        let proactive = app.lastProactiveFetch.map { $0 + StudioApp.proactiveInterval }
        let times = [decoder.pendingDeadline, narrator.deadline(view.snapshot(), now: now), reconnect, proactive]
        return times.compactMap { $0 }.min()
    }

    package func turn(_ notices: [SessionNotice], readable: Set<Int32>, signals: [Int32]) -> Int32? {
        if readable.contains(0) || decoder.pendingSince != nil { readInput() }
        if let status = handleSignals(signals) { return status }
        for notice in notices { narrate(notice) }
        app.collectEvents(notices)
        narrateStudio()
        for line in narrator.lines(view.snapshot(), now: MonotonicClock.seconds()) { say(line) }
        guard app.running else { return app.exitStatus }
        return nil
    }

    /// What the session said that the player's snapshot does not show.
    private func narrate(_ notice: SessionNotice) {
        switch notice {
        case .finished(_, let item?, _): say("Finished \(item.title)")
        case .queueEnded: say("End of the queue")
        case .voice(.started(let title, _)):
            let length = view.voiceSnapshot()?.duration.map { ", " + TimeSpec.clock($0.rounded(.up)) } ?? ""
            say("Voice note: \(title)\(length)")
        case .alicia(.replied(_, let text, _)):
            let lines = MarkdownText.plain(text).split(whereSeparator: \.isNewline).map(String.init)
            for (index, line) in lines.enumerated() { say(index == 0 ? "Alicia: " + line : line) }
        default: break
        }
    }

    /// The Studio's status line (errors, what a key did), and show notes once they came.
    private func narrateStudio() {
        if let status = app.model.status, app.statusSetAt != statusSaid {
            statusSaid = app.statusSetAt
            say(status.isError ? "Problem: " + status.text : status.text)
        }
        if let briefing = app.model.briefingReady, !briefingSaid {
            briefingSaid = true
            say("Today's briefing is ready: \(briefing). b plays it, B its playlist")
        }
        if let message = app.model.proactive.first, !proactiveSaid.contains(message.id) {
            proactiveSaid.insert(message.id)
            say((message.isAsk ? "Alicia asks: " : "Alicia: ") + message.text + (message.isAsk ? " (r answers)" : ""))
        }
        if let notes = app.model.notes, notes.text != nil || notes.error != nil {
            app.model.notes = nil
            if let error = notes.error { return say("Show notes of \(notes.title): \(error)") }
            say("Show notes of \(notes.title):")
            for line in (notes.text ?? "").split(whereSeparator: \.isNewline) { say(String(line)) }
            say("End of the show notes")
        }
    }

    /// One new line, in words; not the same words twice in a row unless a key asked again.
    func say(_ text: String) {
        var line = Self.words(text)
        guard !line.isEmpty, line != lastLine || keyPressed else { return }
        if let first = line.first, first.isLowercase { line = first.uppercased() + line.dropFirst() }
        if prompt != nil {
            held.append(line)
            return
        }
        lastLine = line
        keyPressed = false
        Console.out(line + "\n")
    }

    /// Glyphs a screen reader would read by their names, in words.
    static func words(_ text: String) -> String {
        var line = text
        for (glyph, word) in [("←", "left"), ("→", "right"), ("↑", "up"), ("↓", "down"), ("✓", "played"), ("▶", "playing"),
                              ("⏸", "paused"), ("🎙", "voice note"), ("✖", "failed"), ("…", "..."), (" – ", " to ")] {
            line = line.replacing(glyph, with: word)
        }
        return line
    }

    // MARK: Input

    private func readInput() {
        var keys: [Key] = []
        let open = StandardInput.readAvailable { bytes in
            if prompt != nil {
                typed += bytes
                takeTypedLines(then: &keys)
            } else {
                keys += decoder.feed(bytes)
            }
        }
        if !open { endOfInput() }
        keys += decoder.flush(at: MonotonicClock.seconds())
        for key in keys {
            if prompt != nil {
                // Typed before the terminal took lines: part of the answer.
                switch key {
                case .character(let character): typed += Array(String(character).utf8)
                case .enter: typed.append(10)
                default: continue
                }
                var more: [Key] = []
                takeTypedLines(then: &more)
            } else {
                handle(key)
            }
        }
    }

    /// Answers the prompt with each whole line typed; what follows an answer is keys again.
    private func takeTypedLines(then keys: inout [Key]) {
        while prompt != nil, let newline = typed.firstIndex(of: 10) {
            let line = String(decoding: typed[..<newline], as: UTF8.self)
            typed.removeSubrange(...newline)
            answer(line)
        }
        if prompt == nil, !typed.isEmpty {
            keys += decoder.feed(typed[...])
            typed = []
        }
    }

    private func endOfInput() {
        // Ctrl-D at a prompt is an empty answer; a terminal gone ends the Studio; the end of keys
        // from a pipe or a file leaves it playing.
        if prompt != nil, input.isTerminal { return answer("") }
        if input.isTerminal {
            app.running = false
        } else {
            if prompt != nil { answer("") }
            inputOpen = false
        }
    }

    /// Asks `question` on a line of its own and reads the answer as a line.
    func ask(_ question: String, _ asked: Prompt) {
        Console.out(Self.words(question) + " ")
        lastLine = nil
        prompt = asked
        typed = []
        try? input.lines()
    }

    private func answer(_ text: String) {
        guard let asked = prompt else { return }
        prompt = nil
        try? input.keys()
        if !input.isTerminal { Console.out("\n") }
        let waiting = held
        held = []
        keyPressed = true
        answered(asked, text.trimmingWhitespace())
        for line in waiting { say(line) }
    }

    private func handleSignals(_ signals: [Int32]) -> Int32? {
        for signal in signals {
            switch signal {
            case SIGWINCH: break
            case SIGTSTP: suspend()
            case SIGCONT: resumeInput()
            default: return 128 + signal
            }
        }
        return nil
    }

    /// Ctrl-Z: the terminal as it was, stopped; on `fg` keys (or the prompt's line) again.
    func suspend() {
        input.restore()
        kill(getpid(), SIGSTOP)
        resumeInput()
    }

    private func resumeInput() {
        if prompt != nil { try? input.lines() } else { try? input.keys() }
    }
}
