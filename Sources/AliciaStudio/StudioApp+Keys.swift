#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaSession
import AliciaTerminal
import AliciaLocks
import AliciaLibrary
import AliciaHost

/// Keys: the panes that take them first, then the key table's command lines (`StudioKeys`).
extension StudioApp {
    package func handle(_ key: Key) {
        if model.composer != nil { return composing(key) }
        if model.search != nil { return searching(key) }
        if model.showHelp, key == .escape || key == .character("?") || key == .character("q") {
            model.showHelp = false
            return
        }
        if model.notes != nil, notesPane(key) { return }
        if model.queueView != nil, queueKeys(key) { return }
        if model.transcript != nil, transcriptKeys(key) { return }
        if model.chaptersView != nil, chapterKeys(key) { return }
        guard let line = keys.command(for: key) else { return }
        Log.debug(.cli, "key \(key): \(line), selection \(model.selection) of \(model.visibleEntries.count)")
        run(line)
    }

    /// Carries out a command line: the Studio's own, or one of the session's grammar, as the
    /// socket would carry it out; what came of it goes on the status line.
    package func run(_ line: String) {
        guard let words = SessionCommands.words(ofLine: line), !words.isEmpty else { return }
        switch StudioAction.parse(words) {
        case .success(let command)?: return perform(command)
        case .failure(let problem)?: return setStatus(problem.message, error: true)
        case nil: break
        }
        let before = view.snapshot()
        let voice = view.voice.title
        switch CommandAliases.requests(words) {
        case .failure(let problem): setStatus(problem.message, error: true)
        case .success(let requests):
            for request in requests {
                if Self.isToggle(request), before.state == .idle, view.queue.isEmpty {
                    // Nothing to pause or play: space plays the selection.
                    if let entry = model.selectedEntry { play(entry) }
                    continue
                }
                let outcome = session.execute(request, resolve: resolver)
                if Self.isToggle(request), voice != nil, outcome.problem == nil {
                    setStatus("voice note skipped")
                } else if let text = Self.statusLine(after: outcome, view: view) {
                    setStatus(text, error: false)
                }
            }
        }
    }

    /// Space's command, whatever spelling reached it.
    static func isToggle(_ request: CommandRequest) -> Bool {
        request == .perform(.toggleOrSkipNote) || request == .perform(.togglePause)
    }

    /// A reference of `loadfile` or `voice` as the Studio's queue resolves one.
    var resolver: (String) -> Result<[QueueItem], UsageError> {
        let resolver = QueueResolver(backend: setup.options.backend)
        return { reference in resolver.items(reference).mapError { UsageError($0.message) } }
    }

    private func perform(_ command: StudioAction) {
        switch command {
        case .talk:
            if setup.backend == nil {
                setStatus("no backend: talking to Alicia needs one (see --help)", error: true)
            } else if session.isChatting {
                setStatus("Alicia is still answering")
            } else {
                model.composer = LineEditor()
            }
        case .answer: answer()
        case .briefing: playBriefing(playlist: false)
        case .briefingPlaylist: playBriefing(playlist: true)
        case .nextEpisode: playNextEpisode()
        case .playSelected:
            if let entry = model.selectedEntry { play(entry) }
        case .enqueueSelected, .playSelectedNext:
            enqueueSelected(next: command == .playSelectedNext)
        case .select(let selection): select(selection)
        case .search:
            // A fresh query each time: the last one is not typed onto.
            model.search = LineEditor()
            setFilter("")
        case .show(let pane): show(pane)
        case .saveQueue: saveQueue()
        case .dismiss: dismiss()
        case .redraw: screen.invalidate()
        case .suspend: suspend()
        }
    }

    private func select(_ selection: StudioAction.Selection) {
        switch selection {
        case .by(let delta): model.moveSelection(by: delta)
        case .pages(let pages): model.moveSelection(by: pages * max(1, listRows - 1))
        case .first: model.selection = 0
        case .last: model.moveSelection(by: model.visibleEntries.count)
        }
    }

    private func show(_ pane: StudioAction.Pane) {
        switch pane {
        case .notes: openNotes()
        case .transcript:
            if model.transcript != nil {
                model.transcript = nil
            } else if view.snapshot().metadata.transcript.isEmpty == false {
                model.transcript = StudioModel.TranscriptPane()
            } else {
                setStatus("no transcript: a NAME.vtt, NAME.srt or NAME.json beside a local file has one")
            }
        case .queue:
            model.queueView = model.queueView == nil ? refreshedQueue(StudioModel.QueueView()) : nil
        case .chapters: showChapters()
        case .help: model.showHelp.toggle()
        }
    }

    /// Esc: a voice note playing is skipped (the episode has the focus back at once); else the
    /// help, the status line and a filter close.
    private func dismiss() {
        if view.voice.title != nil {
            session.perform(.skipVoiceNote)
            setStatus("voice note skipped")
            return
        }
        model.showHelp = false
        model.status = nil
        if !model.filter.isEmpty {
            model.filter = ""
            model.selection = 0
        }
    }

    /// What the status line says after a key's command: the new level, or why nothing happened.
    package static func statusLine(after outcome: CommandOutcome, view: SessionView) -> String? {
        guard case .performed(let command, let reply) = outcome else { return outcome.problem }
        if case .refused(let why) = reply {
            switch command {
            case .next, .previous, .replayVoiceNote, .chapter, .skipVoiceNote: return why
            // A live stream or standard input cannot seek: ←/→ say why rather than do nothing.
            case .seek where view.snapshot().format?.isLive == true || view.snapshot().item?.isOnceThrough == true: return why
            default: return nil
            }
        }
        if case .invalid(let why) = reply { return why }
        let levels = view.levels
        let snapshot = view.snapshot()
        switch command {
        case .volume:
            return "volume \(VolumeScale.text(levels.volumePercent))" + (levels.muted ? " (muted: m unmutes)" : "")
        case .mute: return levels.muted ? "muted (m unmutes)" : "volume \(VolumeScale.text(levels.volumePercent))"
        case .speed: return "speed \(ProgressLine.speedText(snapshot.speed))"
        case .skipSilence: return "skip silence: \(snapshot.silenceSkipping.rawValue)"
        case .sleep: return StudioLayout.sleepText(snapshot.sleepTimer).map { "sleep " + $0 } ?? "sleep timer off"
        default: return nil
        }
    }

    private func enqueueSelected(next: Bool) {
        guard let entry = model.selectedEntry else { return }
        var items: [QueueItem] = []
        let playlist = playlist(for: entry)
        if let playlist {
            items = playlistItems(playlist) ?? []
        } else if let item = item(for: entry) {
            items = [item]
        }
        // A playlist's warming items are voiced on their own thread and queued as each is there
        // (`voiceWarming`); the line says so instead of "nothing to add".
        let voicing = playlist.map { $0.items.filter(\.chunks.isEmpty).count } ?? 0
        let later = voicing == 0 ? "" : "; \(voicing) voicing, each queued as its first chunk arrives"
        guard !items.isEmpty else {
            if voicing > 0, let playlist {
                setStatus("voicing \(playlist.name): \(voicing) item\(voicing == 1 ? "" : "s"), each queued as its first chunk arrives")
            } else if playlist == nil || model.status?.isError != true {
                setStatus("nothing to add: select an episode with audio")
            }
            return
        }
        session.perform(.load(LoadPlan(items, mode: next ? .insertNextPlay : .appendPlay)))
        setStatus("\(next ? "plays next" : "added"): \(items.count == 1 ? items[0].title : entry.episode.title)" + later)
    }

    /// Keys of the show notes pane: scrolling and closing; true when `key` was one (the others play,
    /// seek and so on as usual).
    private func notesPane(_ key: Key) -> Bool {
        let page = max(1, listRows - 2)
        switch key {
        case .escape, .character("i"), .character("q"): model.notes = nil
        case .up, .character("k"): model.notes?.scroll -= 1
        case .down, .character("j"): model.notes?.scroll += 1
        case .pageUp: model.notes?.scroll -= page
        case .pageDown: model.notes?.scroll += page
        case .home, .character("g"): model.notes?.scroll = 0
        case .end, .character("G"): model.notes?.scroll = Int.max / 2
        default: return false
        }
        return true
    }

    /// `c`: opens the chapters with the one heard selected, or closes them.
    private func showChapters() {
        let snapshot = view.snapshot()
        let chapters = snapshot.metadata.chapters
        guard model.chaptersView == nil else {
            model.chaptersView = nil
            return
        }
        guard snapshot.item != nil, !chapters.isEmpty else {
            setStatus(snapshot.item == nil ? "nothing is playing" : "this item has no chapters")
            return
        }
        model.chaptersView = .init(selection: max(0, ChapterMap.index(of: snapshot.position, in: chapters) ?? 0))
    }

    /// Keys of the chapters: select, jump (enter), close.
    private func chapterKeys(_ key: Key) -> Bool {
        guard var shown = model.chaptersView else { return false }
        let count = view.snapshot().metadata.chapters.count
        switch key {
        case .escape, .character("c"), .character("q"):
            model.chaptersView = nil
            return true
        case .up, .character("k"): shown.selection -= 1
        case .down, .character("j"): shown.selection += 1
        case .home, .character("g"): shown.selection = 0
        case .end, .character("G"): shown.selection = count - 1
        case .enter:
            if case .refused(let why) = session.perform(.chapter(.to(shown.selection))) { setStatus(why) }
        default:
            return false
        }
        shown.selection = min(max(0, shown.selection), max(0, count - 1))
        let visible = max(1, listRows - 1)
        if shown.selection < shown.scroll { shown.scroll = shown.selection }
        if shown.selection >= shown.scroll + visible { shown.scroll = shown.selection - visible + 1 }
        model.chaptersView = shown
        return true
    }

    /// The queue view with the queue as it is now, the selection kept on its entry.
    package func refreshedQueue(_ shown: StudioModel.QueueView) -> StudioModel.QueueView {
        var shown = shown
        let queue = view.queue
        let selected = shown.entries.indices.contains(shown.selection) ? shown.entries[shown.selection].id : nil
        shown.entries = queue.entries
        shown.current = view.snapshot().entry ?? queue.currentID
        if let selected, let index = queue.index(of: selected) {
            shown.selection = index
        } else if shown.entries.isEmpty || selected == nil {
            shown.selection = shown.current.flatMap { queue.index(of: $0) } ?? 0
        }
        shown.selection = min(max(0, shown.selection), max(0, shown.entries.count - 1))
        let visible = max(1, listRows - 1)
        if shown.selection < shown.scroll { shown.scroll = shown.selection }
        if shown.selection >= shown.scroll + visible { shown.scroll = shown.selection - visible + 1 }
        return shown
    }

    /// Keys of the transcript pane: select a cue (the pane stops following the audio), enter seeks
    /// there (and it follows again), Esc closes; true when `key` was one.
    private func transcriptKeys(_ key: Key) -> Bool {
        let snapshot = view.snapshot()
        let cues = snapshot.metadata.transcript
        let current = StudioLayout.currentCue(cues, at: snapshot.position) ?? 0
        let selected = model.transcript?.selection ?? current
        if let find = model.transcript?.find {
            findInTranscript(key, find, cues: cues, after: selected)
            return true
        }
        switch key {
        case .character("/"): model.transcript?.find = LineEditor()
        case .escape, .character("T"), .character("q"): model.transcript = nil
        case .up, .character("k"): model.transcript?.selection = max(0, selected - 1)
        case .down, .character("j"): model.transcript?.selection = min(max(0, cues.count - 1), selected + 1)
        case .home, .character("g"): model.transcript?.selection = 0
        case .end, .character("G"): model.transcript?.selection = max(0, cues.count - 1)
        case .enter:
            if cues.indices.contains(selected) { session.perform(.seek(.to(cues[selected].start))) }
            model.transcript?.selection = nil
        default: return false
        }
        return true
    }

    /// The transcript's find line: enter chooses the next cue after `after` whose words hold what
    /// was typed (from the top again after the last), Esc closes it.
    private func findInTranscript(_ key: Key, _ find: LineEditor, cues: [TranscriptCue], after: Int) {
        switch key {
        case .escape: model.transcript?.find = nil
        case .enter:
            model.transcript?.find = nil
            let wanted = find.text.trimmingWhitespace().lowercased()
            guard !wanted.isEmpty else { return }
            let order = Array(cues.indices.dropFirst(after + 1)) + Array(cues.indices.prefix(after + 1))
            if let found = order.first(where: { cues[$0].line.lowercased().contains(wanted) }) {
                model.transcript?.selection = found
            } else {
                setStatus("nothing in the transcript says \(find.text)")
            }
        default: _ = model.transcript?.find?.handle(key)
        }
    }

    /// Keys of the queue view: select, play, remove (x), move (J down, K up), close.
    private func queueKeys(_ key: Key) -> Bool {
        guard var shown = model.queueView else { return false }
        let selected = shown.entries.indices.contains(shown.selection) ? shown.entries[shown.selection] : nil
        switch key {
        case .escape, .character("Q"), .character("q"): model.queueView = nil
            return true
        case .up, .character("k"): shown.selection -= 1
        case .down, .character("j"): shown.selection += 1
        case .home, .character("g"): shown.selection = 0
        case .end, .character("G"): shown.selection = shown.entries.count - 1
        case .enter:
            if selected != nil { session.perform(.playIndex(shown.selection)) }
        case .character("x"):
            if let selected, session.perform(.remove(.entry(selected.id))) == .done {
                setStatus("removed from the queue: \(selected.item.title)")
            }
        case .character("J"), .character("K"):
            let position = shown.selection + (key == .character("J") ? 1 : -1)
            if selected != nil, position >= 0 && position < shown.entries.count {
                // mpv's meaning: down one lands after the next entry.
                session.perform(.move(from: shown.selection, to: position > shown.selection ? position + 1 : position))
                shown.selection = position
            }
        default:
            return false
        }
        shown.selection = min(max(0, shown.selection), max(0, shown.entries.count - 1))
        model.queueView = refreshedQueue(shown)
        // A moved entry stays selected where it went.
        if key == .character("J") || key == .character("K"), let moved = selected, let index = view.queue.index(of: moved.id) {
            model.queueView?.selection = index
        }
        return true
    }

    private func composing(_ key: Key) {
        switch key {
        case .escape:
            model.composer = nil
            model.answering = nil
        case .enter:
            let text = model.composer?.text.trimmingWhitespace() ?? ""
            let answering = model.answering
            model.composer = nil
            model.answering = nil
            guard !text.isEmpty else { return }
            model.reply = .init(prompt: text, text: "", streaming: true, messageID: nil)
            if let answering { return sendAnswer(text, to: answering) }
            session.perform(.say(text, voice: true))
        default:
            _ = model.composer?.handle(key)
        }
    }

    /// The search line: what is typed filters the list at once; enter keeps the filter and closes
    /// the line, Esc clears it and closes.
    private func searching(_ key: Key) {
        switch key {
        case .escape:
            model.search = nil
            setFilter("")
        case .enter:
            model.search = nil
        default:
            _ = model.search?.handle(key)
            setFilter(model.search?.text ?? "")
        }
    }

    package func setFilter(_ filter: String) {
        guard filter != model.filter else { return }
        model.filter = filter
        model.selection = 0
        model.scroll = 0
    }
}
