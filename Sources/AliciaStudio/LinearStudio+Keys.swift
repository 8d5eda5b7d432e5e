import AliciaAudio
import AliciaBackend
import AliciaLocks
import AliciaSession
import AliciaTerminal
import AliciaLibrary
import AliciaHost

/// Keys of the accessible Studio: the Studio's key table (`StudioKeys`), Tab for where playback
/// is, `l` for the list, and the answers typed at its prompts.
extension LinearStudio {
    /// The keys the accessible Studio adds to the Studio's, for its help.
    static let ownKeys: [(keys: String, what: String)] = [
        ("Tab", "say where playback is now"),
        ("l", "list what can play, numbered; then type a number or a title"),
    ]

    func handle(_ key: Key) {
        keyPressed = true
        switch key {
        case .tab: return say(ProgressLine.words(view.snapshot()))
        case .character("l"): return list(app.model.visibleEntries)
        default: break
        }
        guard let line = app.keys.command(for: key), let words = SessionCommands.words(ofLine: line), !words.isEmpty else { return }
        Log.debug(.cli, "accessible key \(key): \(line)")
        guard case .success(let command)? = StudioAction.parse(words) else { return run(line, words) }
        switch command {
        case .show(.help): sayHelp()
        case .select:
            app.run(line)
            saySelection()
        case .search:
            app.run(line)
            ask("Search titles:", .search)
        case .talk, .answer:
            app.run(line)
            if app.model.composer != nil { ask(command == .answer ? "Answer Alicia:" : "Say to Alicia:", .say) }
        case .show(.queue): showQueue()
        case .show(.transcript): sayCurrentCue()
        case .show(.chapters): listChapters()
        case .redraw: say(ProgressLine.words(view.snapshot()))
        case .suspend: suspend()
        default: app.run(line)
        }
    }

    /// A line of the session's grammar, carried out as the Studio does; what it did in words (pause,
    /// play and the sleep timer are said by the narrator when the player has done them). Space with
    /// nothing loaded, or while a voice note plays, is the Studio's to decide.
    private func run(_ line: String, _ words: [String]) {
        guard case .success(let requests) = CommandAliases.requests(words) else { return app.run(line) }
        if requests.contains(where: StudioApp.isToggle), view.voice.title != nil || view.snapshot().state == .idle && view.queue.isEmpty {
            return app.run(line)
        }
        for request in requests {
            let before = view.snapshot()
            narrate(session.execute(request, resolve: app.resolver), before: before)
        }
    }

    /// A command of the vocabulary, performed on the session and said.
    private func perform(_ command: TransportCommand) {
        let before = view.snapshot()
        narrate(.performed(command, session.perform(command)), before: before)
    }

    private func narrate(_ outcome: CommandOutcome, before: PlayerSnapshot) {
        if let why = outcome.problem { return say(why) }
        guard case .performed(let command, _) = outcome else { return }
        switch command {
        case .seek(let target):
            guard before.item != nil else { return }
            let at = Self.seekTarget(target, from: before)
            say("At \(TimeSpec.clock(at))" + (before.duration.map { " of " + TimeSpec.clock($0) } ?? ""))
        case .sleep, .togglePause, .toggleOrSkipNote, .pause, .resume: break
        default:
            if let line = StudioApp.statusLine(after: outcome, view: view) { say(line) }
        }
    }

    /// Where a seek lands, as the player will clamp it.
    static func seekTarget(_ target: TransportCommand.SeekTarget, from snapshot: PlayerSnapshot) -> Double {
        let duration = snapshot.duration ?? .infinity
        let at: Double
        switch target {
        case .to(let seconds): at = seconds
        case .by(let seconds): at = snapshot.position + seconds
        case .toFraction(let fraction): at = fraction * (snapshot.duration ?? 0)
        case .byFraction(let fraction): at = snapshot.position + fraction * (snapshot.duration ?? 0)
        }
        return min(max(0, at), duration)
    }

    func sayHelp() {
        say("Keys:")
        for (keys, what) in Self.ownKeys + app.keys.helpRows {
            say(Self.keyWords(keys) + ": " + what.replacing(" / ", with: " or "))
        }
        say("End of the keys")
    }

    /// `← / →` as `left or right`, `↑ ↓ j k` as `up, down, j, k`.
    static func keyWords(_ keys: String) -> String {
        var text = words(keys).replacing(" / ", with: " or ")
        for (short, word) in [("PgUp", "page up"), ("PgDn", "page down"), ("Esc", "escape")] { text = text.replacing(short, with: word) }
        if !text.contains(" or "), !text.contains(" to "), text.contains(" ") { text = text.split(separator: " ").joined(separator: ", ") }
        return text
    }

    /// `c`: the chapters as numbered lines, then which to jump to.
    private func listChapters() {
        let snapshot = view.snapshot()
        let chapters = snapshot.metadata.chapters
        guard snapshot.item != nil, !chapters.isEmpty else {
            return say(snapshot.item == nil ? "Nothing is playing" : "This item has no chapters")
        }
        let current = ChapterMap.index(of: snapshot.position, in: chapters)
        for (index, chapter) in chapters.enumerated() {
            say("\(index + 1). \(chapter.title), \(TimeSpec.clock(chapter.start))" + (index == current ? ", playing now" : ""))
        }
        ask("Jump to which chapter? A number, enter for none:", .chapter)
    }

    /// `T`: the cue being spoken now, with its start (`ctl transcript` prints the whole).
    private func sayCurrentCue() {
        let snapshot = view.snapshot()
        let cues = snapshot.metadata.transcript
        guard !cues.isEmpty else {
            return say("No transcript: a NAME.vtt, NAME.srt or NAME.json beside a local file has one")
        }
        guard let index = StudioLayout.currentCue(cues, at: snapshot.position) else {
            return say("The transcript begins at \(TimeSpec.clock(cues[0].start))")
        }
        say("Cue \(index + 1) of \(cues.count), at \(TimeSpec.clock(cues[index].start)): \(cues[index].line)")
    }

    private func saySelection() {
        let entries = app.model.visibleEntries
        guard let entry = app.model.selectedEntry else { return say("Nothing to select") }
        say("\(app.model.selection + 1) of \(entries.count): " + entryWords(entry))
    }

    /// `Slow Tide, S01E02, 45:00, played`.
    func entryWords(_ entry: Library.Entry) -> String {
        let episode = entry.episode
        var parts = [episode.title]
        if let label = episode.label { parts.append(label) }
        if episode.duration > 0 { parts.append(TimeSpec.clock(episode.duration)) }
        if !episode.mood.isEmpty { parts.append(episode.mood) }
        if app.model.played.contains(episode.label ?? episode.title) { parts.append("played") }
        return parts.joined(separator: ", ")
    }

    /// `entries` as numbered lines, then the question of which to play.
    func list(_ entries: [Library.Entry]) {
        guard !entries.isEmpty else { return say(app.model.libraryError ?? "Nothing to choose from") }
        for (index, entry) in entries.enumerated() { say("\(index + 1). " + entryWords(entry)) }
        ask("Play which? A number or a title, enter for none:", .choose(entries))
    }

    private func showQueue() {
        let entries = view.queue.entries
        guard !entries.isEmpty else { return say("The queue is empty") }
        let playing = view.snapshot().entry
        for (index, entry) in entries.enumerated() {
            say("\(index + 1). \(entry.item.title)" + (entry.id == playing ? ", playing now" : ""))
        }
        ask("Play which? A number, or x and a number to remove it, enter for none:", .queue)
    }

    /// What a typed line does.
    func answered(_ asked: Prompt, _ text: String) {
        switch asked {
        case .search:
            guard !text.isEmpty else {
                app.handle(.escape)
                return say("Search cleared")
            }
            for character in text { app.handle(.character(character)) }
            app.handle(.enter)
            let found = app.model.visibleEntries
            guard !found.isEmpty else { return say("Nothing matches \(text)") }
            say("\(found.count) match\(found.count == 1 ? "" : "es") for \(text)")
            list(found)
        case .say:
            guard !text.isEmpty else { return app.handle(.escape) }
            for character in text { app.handle(.character(character)) }
            app.handle(.enter)
            say("Sent; Alicia's answer follows")
        case .choose(let entries): choose(text, from: entries)
        case .queue: queueAnswer(text)
        case .chapter:
            guard !text.isEmpty else { return }
            guard let number = Int(text) else { return say("\(text) is not a chapter's number") }
            perform(.chapter(.to(number - 1)))
        }
    }

    private func choose(_ text: String, from entries: [Library.Entry]) {
        guard !text.isEmpty else { return say("Nothing chosen") }
        if let number = Int(text) {
            guard number >= 1, entries.indices.contains(number - 1) else { return say("\(number) is not on the list: 1 to \(entries.count)") }
            return play(entries[number - 1])
        }
        let wanted = text.lowercased()
        let matches = entries.filter { entry in
            entry.episode.title.lowercased().contains(wanted) || entry.episode.label?.lowercased() == wanted
        }
        switch matches.count {
        case 0: say("Nothing on the list is called \(text)")
        case 1: play(matches[0])
        default:
            say("\(matches.count) are called \(text):")
            list(matches)
        }
    }

    private func play(_ entry: Library.Entry) {
        app.setFilter("")
        app.model.selection = app.model.visibleEntries.firstIndex(of: entry) ?? 0
        app.play(entry)
    }

    private func queueAnswer(_ text: String) {
        guard !text.isEmpty else { return }
        let words = text.split(separator: " ")
        let removing = words.first == "x" && words.count == 2
        guard let number = Int(removing ? words[1] : Substring(text)), number >= 1, view.queue.entries.indices.contains(number - 1) else {
            return say("That is not a number on the queue: 1 to \(view.queue.entries.count)")
        }
        let entry = view.queue.entries[number - 1]
        if removing {
            if session.perform(.remove(.entry(entry.id))) == .done { say("Removed \(entry.item.title)") }
        } else {
            perform(.playIndex(number - 1))
        }
    }
}
