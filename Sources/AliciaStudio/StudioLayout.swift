import AliciaAudio
import AliciaBackend
import AliciaTerminal
import AliciaSession
import AliciaLocks
import AliciaLibrary
import AliciaHost

extension Style {
    package static let red = Style.foreground(.red)
    package static let green = Style.foreground(.green)
    package static let yellow = Style.foreground(.yellow)
    package static let magenta = Style.foreground(.magenta)
}

/// Draws the Studio: a header, the library (or the help), Alicia's latest words,
/// the now-playing panel that stays, and a status line. A pure function of the
/// model, the players' snapshots and the size, so it is tested at several widths.
package struct StudioLayout {
    package struct Frame {
        package var lines: [StyledLine]
        /// Rows the list had (for paging and scrolling).
        package var listRows: Int
        /// The show notes' first line shown, kept within them.
        package var notesScroll = 0
    }

    package var model: StudioModel
    package var episode: PlayerSnapshot
    package var voice: (title: String, snapshot: PlayerSnapshot)?
    package var columns: Int
    package var rows: Int

    /// The smallest size drawn; below it, a one-line request to enlarge.
    package static let minimumColumns = 40
    package static let minimumRows = 12

    package func frame() -> Frame {
        let width = max(1, columns)
        guard columns >= Self.minimumColumns, rows >= Self.minimumRows else {
            var lines = [StyledLine(DisplayWidth.pad("Make the window at least 40×12", to: width), style: .bold)]
            while lines.count < rows { lines.append(StyledLine("")) }
            return Frame(lines: Array(lines.prefix(max(0, rows))), listRows: 0)
        }
        let chatRows = rows >= 18 ? 3 : (rows >= 14 ? 2 : 1)
        // Alicia's words only where there is a backend to hear them from.
        let alicia = model.hasBackend ? [rule("Alicia")] + chat(rows: chatRows) : []
        let status = statusLines(maximum: rows >= 16 ? 3 : 2)
        let footer = alicia + [rule("Now playing")] + nowPlaying() + status
        let listRows = max(1, rows - 1 - footer.count - (model.briefingReady != nil && rows >= 16 ? 1 : 0))
        var lines = [header()]
        if let briefing = model.briefingReady, rows >= 16 {
            lines.append(StyledLine(DisplayWidth.pad(DisplayWidth.truncate(" Today's briefing is ready: \(briefing) · b plays it, B its playlist",
                                                                            to: columns), to: columns), style: .bold))
        }
        var notesScroll = 0
        if model.showHelp {
            // The keys take the panes below the list too: they are what the listener looks for now.
            lines += help(rows: max(1, rows - lines.count - status.count)) + status
            return Frame(lines: Array(lines.prefix(rows)), listRows: listRows)
        } else if let queue = model.queueView {
            lines += queueView(queue, rows: listRows)
        } else if let pane = model.transcript {
            lines += transcriptPane(pane, rows: listRows)
        } else if let chapters = model.chaptersView {
            lines += chaptersPane(chapters, rows: listRows)
        } else if let notes = model.notes {
            let (pane, scroll) = notesPane(notes, rows: listRows)
            lines += pane
            notesScroll = scroll
        } else {
            lines += list(rows: listRows)
        }
        lines += footer
        return Frame(lines: Array(lines.prefix(rows)), listRows: listRows, notesScroll: notesScroll)
    }

    // MARK: Parts

    private func header() -> StyledLine {
        let right = "? help  q quit "
        let name = " Alicia Studio" + (model.backendName.isEmpty ? "" : " · " + model.backendName)
            + (model.offline.map { " · " + $0 } ?? "")
        let left = DisplayWidth.truncate(name, to: max(1, columns - DisplayWidth.of(right) - 1))
        let gap = max(1, columns - DisplayWidth.of(left) - DisplayWidth.of(right))
        return StyledLine(DisplayWidth.pad(left + String(repeating: " ", count: gap) + right, to: columns), style: .reverse)
    }

    private func rule(_ title: String) -> StyledLine {
        let head = "── \(title) "
        return StyledLine(head + String(repeating: "─", count: max(0, columns - DisplayWidth.of(head))), style: .dim)
    }

    private func list(rows: Int) -> [StyledLine] {
        if let error = model.libraryError, model.library.isEmpty {
            return pad([StyledLine(DisplayWidth.pad(" " + error, to: columns), style: .red)], rows: rows)
        }
        let lines = model.listLines
        if lines.isEmpty {
            let text = model.filter.isEmpty ? " The library is empty." : " Nothing matches “\(model.filter)”."
            return pad([StyledLine(DisplayWidth.pad(text, to: columns), style: .dim)], rows: rows)
        }
        let widths = columnWidths(model.visibleEntries)
        let shown = lines.dropFirst(model.scroll).prefix(rows).map { line -> StyledLine in
            switch line {
            case .heading(let title):
                return StyledLine(DisplayWidth.pad(" " + title, to: columns), style: .bold)
            case .entry(let index, let entry):
                return entryLine(entry, selected: index == model.selection, widths: widths)
            }
        }
        return pad(Array(shown), rows: rows)
    }

    /// Column widths; a label column only when some entry has a label (files from the command line
    /// have none), a time only where the length is known.
    private struct Widths { var index = 1, label = 0, mood = 0, time = 0 }

    private func columnWidths(_ entries: [Library.Entry]) -> Widths {
        var widths = Widths()
        let labelled = entries.contains { $0.episode.label != nil }
        for entry in entries {
            widths.index = max(widths.index, String(entry.index).count)
            if labelled { widths.label = max(widths.label, min(12, DisplayWidth.of(entry.episode.label ?? "—"))) }
            widths.mood = max(widths.mood, DisplayWidth.of(entry.episode.mood))
            widths.time = max(widths.time, DisplayWidth.of(time(of: entry.episode)))
        }
        return widths
    }

    private func entryLine(_ entry: Library.Entry, selected: Bool, widths: Widths) -> StyledLine {
        let episode = entry.episode
        let key = episode.label ?? episode.title
        let playing = model.nowPlaying?.entryIndex == entry.index
        let marker = playing ? "▶" : (model.played.contains(key) ? "✓" : " ")
        let index = String(repeating: " ", count: widths.index - String(entry.index).count) + String(entry.index)
        let time = self.time(of: episode)
        let label = widths.label > 0 ? DisplayWidth.pad(episode.label ?? "—", to: widths.label) + "  " : ""
        let head = " \(marker) \(index)  " + label
        // Right-aligned in a column of its own, so titles and moods line up on every row.
        let tail = "  " + String(repeating: " ", count: max(0, widths.time - DisplayWidth.of(time))) + time + " "
        let middle = max(4, columns - DisplayWidth.of(head) - DisplayWidth.of(tail))
        let moodWidth = columns >= 70 ? min(widths.mood, middle / 3) : 0
        let titleWidth = middle - (moodWidth > 0 ? moodWidth + 2 : 0)
        var text = head + DisplayWidth.pad(episode.title, to: titleWidth)
        if moodWidth > 0 { text += "  " + DisplayWidth.pad(episode.mood, to: moodWidth) }
        text = DisplayWidth.pad(text + tail, to: columns)
        if selected { return StyledLine(text, style: .reverse) }
        if !episode.hasAudio || model.unavailable.contains(key) { return StyledLine(text, style: .dim) }
        return StyledLine(text, style: playing ? .green : .plain)
    }

    /// The length, once known (`Episode.knownLength`; a file not opened yet has none); "no audio"
    /// for an episode without; `↓` after it when the episode is downloaded.
    private func time(of episode: Episode) -> String {
        guard episode.hasAudio else { return "no audio" }
        let length = episode.knownLength.map(TimeSpec.clock) ?? ""
        return model.downloaded.contains(episode.label ?? episode.title) ? length + " ↓" : length
    }

    /// The help's key column, at most.
    static let helpKeyWidth = 18

    private func help(rows: Int) -> [StyledLine] {
        var lines = [StyledLine(DisplayWidth.pad(" Keys (Esc or ? closes)", to: columns), style: .bold)]
        // Keys longer than this have a line of their own, the words under them: a long list of keys
        // (the listener's own) does not push every row's words off the screen.
        let keyWidth = min(Self.helpKeyWidth, model.keyHelp.map { DisplayWidth.of($0.keys) }.max() ?? 8)
        for (keys, what) in model.keyHelp {
            if DisplayWidth.of(keys) > keyWidth {
                lines.append(StyledLine(DisplayWidth.pad("   " + keys, to: columns)))
                lines.append(StyledLine(DisplayWidth.pad("   " + String(repeating: " ", count: keyWidth) + "   " + what, to: columns)))
            } else {
                lines.append(StyledLine(DisplayWidth.pad("   " + DisplayWidth.pad(keys, to: keyWidth) + "   " + what, to: columns)))
            }
        }
        if lines.count > rows {
            lines = Array(lines.prefix(max(1, rows - 1)))
            lines.append(StyledLine(DisplayWidth.pad("   … more in a taller window (alicia-player help keys lists them all)", to: columns), style: .dim))
        }
        return pad(lines, rows: rows)
    }

    /// The queue over the list: a title row with its keys, then the entries (▶ the one playing),
    /// the selection in reverse video.
    private func queueView(_ queue: StudioModel.QueueView, rows: Int) -> [StyledLine] {
        let lengths = queue.entries.map { $0.id == episode.entry ? episode.duration ?? $0.item.duration : $0.item.duration }
        let left = Self.timeLeft(lengths: lengths, current: queue.entries.firstIndex { $0.id == queue.current },
                                 position: episode.entry == queue.current ? episode.position : 0)
        let title = " Queue · \(queue.entries.count) item\(queue.entries.count == 1 ? "" : "s")" + (left.map { " · \($0) left" } ?? "")
        let keys = "enter play · x remove · J K move · w save · Esc "
        let gap = max(1, columns - DisplayWidth.of(title) - DisplayWidth.of(keys))
        var lines = [StyledLine(DisplayWidth.pad(DisplayWidth.truncate(title, to: columns - DisplayWidth.of(keys) - 1)
            + String(repeating: " ", count: gap) + keys, to: columns), style: .bold)]
        guard !queue.entries.isEmpty else {
            lines.append(StyledLine(DisplayWidth.pad(" Nothing queued: a adds the selected episode, A plays it next.", to: columns), style: .dim))
            return pad(lines, rows: rows)
        }
        let visible = max(1, rows - 1)
        let first = min(max(0, queue.scroll), max(0, queue.entries.count - visible))
        // The entry heard by its file's own title, once it has opened.
        let heard = episode.entry.flatMap { entry in ItemDetails(episode).map { (entry, $0.title) } }
        for (index, entry) in queue.entries.enumerated().dropFirst(first).prefix(visible) {
            let marker = entry.id == queue.current ? "▶" : " "
            let label = entry.item.label.map { "  " + $0 } ?? ""
            let title = heard?.0 == entry.id ? heard?.1 ?? entry.item.title : entry.item.title
            let length = lengths[index].map(TimeSpec.clock) ?? ""
            let room = max(0, columns - DisplayWidth.of(length) - 2)
            let text = DisplayWidth.pad(DisplayWidth.truncate(" \(marker) \(index + 1)  " + title + label, to: room), to: room) + length + "  "
            lines.append(StyledLine(text, style: index == queue.selection ? .reverse : .plain))
        }
        return pad(lines, rows: rows)
    }

    /// What is left of a queue from its current entry on: the rest of that one and every length
    /// after it, as a clock; `+` when a length after it is not known (a stream, a synthesis still
    /// voiced); nil when nothing is known or nothing is current.
    package static func timeLeft(lengths: [Double?], current: Int?, position: Double) -> String? {
        guard let current, lengths.indices.contains(current) else { return nil }
        var total = 0.0
        var unknown = false
        for (index, length) in lengths.enumerated().dropFirst(current) {
            guard let length else { unknown = true; continue }
            total += index == current ? max(0, length - position) : length
        }
        guard total > 0 || !unknown else { return nil }
        return TimeSpec.clock(total) + (unknown ? "+" : "")
    }

    /// The chapters of the item heard over the list: a title row, then each chapter's start and
    /// title (▶ the one heard), the selection in reverse video.
    private func chaptersPane(_ shown: StudioModel.ChaptersView, rows: Int) -> [StyledLine] {
        let chapters = episode.metadata.chapters
        let title = " Chapters · \(chapters.count)"
        let keys = "enter jumps · PgUp PgDn · Esc "
        let gap = max(1, columns - DisplayWidth.of(title) - DisplayWidth.of(keys))
        var lines = [StyledLine(DisplayWidth.pad(DisplayWidth.truncate(title, to: columns - DisplayWidth.of(keys) - 1)
            + String(repeating: " ", count: gap) + keys, to: columns), style: .bold)]
        let current = ChapterMap.index(of: episode.position, in: chapters)
        let visible = max(1, rows - 1)
        let first = min(max(0, shown.scroll), max(0, chapters.count - visible))
        let timeWidth = chapters.map { DisplayWidth.of(TimeSpec.clock($0.start)) }.max() ?? 4
        for (index, chapter) in chapters.enumerated().dropFirst(first).prefix(visible) {
            let marker = index == current ? "▶" : " "
            let time = TimeSpec.clock(chapter.start)
            let text = " \(marker) " + String(repeating: " ", count: max(0, timeWidth - DisplayWidth.of(time))) + time + "  " + chapter.title
            lines.append(StyledLine(DisplayWidth.pad(text, to: columns), style: index == shown.selection ? .reverse : (index == current ? .green : .plain)))
        }
        return pad(lines, rows: rows)
    }

    /// The notes over the list: a title row, then the text wrapped to the width from `scroll` on
    /// (clamped so the pane is full when it can be). Returns the scroll used.
    private func notesPane(_ notes: StudioModel.NotesPane, rows: Int) -> ([StyledLine], Int) {
        let title = " Show notes · \(notes.title)"
        let keys = "↑ ↓ scroll · Esc closes "
        let gap = max(1, columns - DisplayWidth.of(title) - DisplayWidth.of(keys))
        var lines = [StyledLine(DisplayWidth.pad(DisplayWidth.truncate(title, to: columns - DisplayWidth.of(keys) - 1)
            + String(repeating: " ", count: gap) + keys, to: columns), style: .bold)]
        let body: [String]
        if let error = notes.error {
            lines.append(StyledLine(DisplayWidth.pad(" " + error, to: columns), style: .red))
            return (pad(lines, rows: rows), 0)
        } else if let text = notes.text {
            body = text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
                let wrapped = wrap(String(line), width: columns - 2)
                return wrapped.isEmpty ? [""] : wrapped
            }
        } else {
            body = ["…"]
        }
        let visible = max(1, rows - 1)
        let scroll = min(max(0, notes.scroll), max(0, body.count - visible))
        lines += body.dropFirst(scroll).prefix(visible).map { StyledLine(DisplayWidth.pad(" " + $0, to: columns)) }
        return (pad(lines, rows: rows), scroll)
    }

    /// The index of the cue being spoken at `position` (the last one begun), if any has begun.
    package static func currentCue(_ cues: [TranscriptCue], at position: Double) -> Int? {
        cues.lastIndex { $0.start <= position + 0.05 }
    }

    /// The transcript over the list: a title row, then a cue a row (`0:02  Alicia: …`), the one
    /// spoken now in bold, the one chosen with ↑ ↓ in reverse video, kept in view (the spoken one
    /// a third of the way down while the pane follows the audio).
    private func transcriptPane(_ pane: StudioModel.TranscriptPane, rows: Int) -> [StyledLine] {
        let title = " Transcript · \(episode.item?.title ?? "")"
        let keys = columns >= 70 ? "↑ ↓ select · / find · enter seeks · Esc closes " : "Esc closes "
        let gap = max(1, columns - DisplayWidth.of(title) - DisplayWidth.of(keys))
        var lines = [StyledLine(DisplayWidth.pad(DisplayWidth.truncate(title, to: columns - DisplayWidth.of(keys) - 1)
            + String(repeating: " ", count: gap) + keys, to: columns), style: .bold)]
        if let find = pane.find {
            lines.append(StyledLine(DisplayWidth.pad(DisplayWidth.truncate(" Find: " + find.text + "▏", to: columns), to: columns)))
        }
        let cues = episode.metadata.transcript
        let current = Self.currentCue(cues, at: episode.position)
        let focus = pane.selection ?? current ?? 0
        let visible = max(1, rows - lines.count)
        let top = min(max(0, focus - visible / 3), max(0, cues.count - visible))
        for index in cues.indices.dropFirst(top).prefix(visible) {
            let text = " " + TimeSpec.clock(cues[index].start) + "  " + cues[index].line
            let style: Style = index == pane.selection ? .reverse : (index == current ? .bold : .plain)
            lines.append(StyledLine(DisplayWidth.pad(DisplayWidth.truncate(text, to: columns), to: columns), style: style))
        }
        return pad(lines, rows: rows)
    }

    private func chat(rows: Int) -> [StyledLine] {
        var text: String
        var style = Style.plain
        if !model.reply.prompt.isEmpty || model.reply.streaming {
            text = "You: \(model.reply.prompt)  ·  Alicia: " + model.reply.text + (model.reply.streaming ? " …" : "")
        } else if let message = model.proactive.first {
            text = message.isAsk ? "Alicia asks: " + message.text + "  (r answers)" : "Alicia: " + message.text
        } else {
            text = "Press t to talk to Alicia."
            style = .dim
        }
        text = MarkdownText.plain(text).replacing("\n", with: " ")
        let wrapped = wrap(text, width: columns - 2)
        let last = Array(wrapped.suffix(rows))
        return pad(last.map { StyledLine(DisplayWidth.pad(" " + $0, to: columns), style: style) }, rows: rows)
    }

    private func nowPlaying() -> [StyledLine] {
        guard let playing = model.nowPlaying else {
            return [StyledLine(DisplayWidth.pad(" Nothing playing: select an episode and press enter.", to: columns), style: .dim),
                    StyledLine(String(repeating: " ", count: columns))]
        }
        // The state's own name (playing, paused, ended, failed) but where the header says more.
        let state = switch episode.state {
        case .loading: "buffering"
        case .buffering: "buffering" + (episode.refill.map { " \(Int(($0 * 100).rounded()))%" } ?? "")
        case .reconnecting: "reconnecting" + (episode.reconnectingFor.map { " (\(Int($0)) s)" } ?? "")
        case .voicing: "voicing…"
        case .idle: "stopped"
        case .playing, .paused, .ended, .failed: episode.state.rawValue
        }
        let shownState = episode.noSoundServer.map { "no sound server: trying \($0)" } ?? (episode.isHeld ? "held: voice note" : state)
        let symbol = episode.state == .playing && !episode.isHeld ? "▶" : (episode.state == .paused || episode.isHeld ? "⏸" : "·")
        // A file's own title (its tags) once it has opened; Alicia's episodes keep theirs.
        let details = ItemDetails(episode)
        var title = " \(symbol) \(playing.label == nil ? details?.title ?? playing.title : playing.title)"
        if let label = playing.label { title += " · \(label)" }
        if let artist = details?.artist, playing.label == nil { title += " · \(artist)" }
        if !playing.mood.isEmpty { title += " · \(playing.mood)" }
        if let chapters = details?.chapters, let index = ChapterMap.index(of: episode.position, in: chapters), index >= 0 {
            title += " · ch \(index + 1)/\(chapters.count) \(chapters[index].title)"
        }
        var stateText = "  " + shownState + " "
        if let next = episode.next, columns >= 60 {
            stateText = "  next: " + DisplayWidth.truncate(next.title, to: min(28, columns / 4)) + " ·" + stateText.dropFirst()
        }
        let first = DisplayWidth.pad(title, to: columns - DisplayWidth.of(stateText)) + stateText
        var lines = [StyledLine(first, style: .bold)]
        lines.append(StyledLine(progress(episode)))
        if let voice {
            // "Voice note · 0:02": what it is and how long, not the file it came in.
            let name = "Voice note" + (voice.snapshot.duration.map { " · " + TimeSpec.clock($0) } ?? "")
            let head = " 🎙 " + DisplayWidth.pad(name, to: min(24, columns / 3)) + " "
            lines.append(StyledLine(head + progress(voice.snapshot, width: columns - DisplayWidth.of(head), volume: false), style: .magenta))
        }
        return lines
    }

    /// `1:23 ▕███▒▒   ▏ -1:37 / 3:00  -1:04 at 1.5×  vol 100%`: elapsed, the bar (played,
    /// buffered ahead, rest), remaining and total (they add up), the listening time left and the
    /// speed when not 1×, the time skipped silence saved (while it is on or has saved any), then the
    /// volume.
    private func progress(_ snapshot: PlayerSnapshot, width: Int? = nil, volume: Bool = true) -> String {
        let width = width ?? columns
        let elapsed = " " + TimeSpec.clock(snapshot.position) + " "
        var tail = ""
        if let duration = snapshot.duration {
            tail = " -" + TimeSpec.clock(TimeSpec.remaining(position: snapshot.position, duration: duration)) + " / " + TimeSpec.clock(duration)
        }
        if snapshot.speed != 1 {
            let speed = ProgressLine.speedText(snapshot.speed)
            if let duration = snapshot.duration {
                let listening = TimeSpec.listeningRemaining(position: snapshot.position, duration: duration, speed: snapshot.speed)
                tail += "  -" + TimeSpec.clock(listening) + " at " + speed
            } else {
                tail += "  " + speed
            }
        }
        if snapshot.silenceSkipping != .off || snapshot.silenceSavedTotal > 0 {
            tail += "  saved " + TimeSpec.clock(snapshot.silenceSavedTotal)
        }
        if let sleep = Self.sleepText(snapshot.sleepTimer) { tail += "  sleep " + sleep }
        if volume { tail += model.muted ? "  muted" : "  vol " + VolumeScale.text(model.volumePercent) }
        tail += " "
        let barWidth = width - DisplayWidth.of(elapsed) - DisplayWidth.of(tail)
        guard barWidth >= 6, let duration = snapshot.duration, duration > 0 else {
            return DisplayWidth.pad(elapsed + tail, to: width)
        }
        let inner = barWidth - 2
        let played = Int((min(1, max(0, snapshot.position / duration)) * Double(inner)).rounded(.down))
        let buffered = min(inner - played, Int((snapshot.bufferedAhead / duration * Double(inner)).rounded()))
        var cells = Array(String(repeating: "█", count: played) + String(repeating: "▒", count: max(0, buffered))
            + String(repeating: " ", count: max(0, inner - played - max(0, buffered))))
        // Where each chapter after the first starts.
        for chapter in snapshot.metadata.chapters where chapter.start > 0 && chapter.start < duration {
            let cell = Int((chapter.start / duration * Double(inner)).rounded(.down))
            if cells.indices.contains(cell) { cells[cell] = "│" }
        }
        let bar = "▕" + String(cells) + "▏"
        return DisplayWidth.pad(elapsed + bar + tail, to: width)
    }

    /// `in 14:59` or `at end` for a running sleep timer; nil when it is off.
    package static func sleepText(_ timer: SleepTimer) -> String? {
        switch timer {
        case .off: return nil
        case .after(let seconds): return "in " + TimeSpec.clock(seconds.rounded(.up))
        case .endOfEntries(1): return "at end"
        case .endOfChapter: return "at chapter end"
        case .endOfEntries(let count): return "after \(count) items"
        }
    }

    /// The composer, the search line, a status (a long one wrapped over up to `maximum` rows, so
    /// the advice at the end of an error shows; the last row cut with … if even that is short), or
    /// the key hints.
    private func statusLines(maximum: Int) -> [StyledLine] {
        if let status = model.status, model.composer == nil, model.search == nil {
            var lines = wrap(status.text, width: columns - 2)
            if lines.count > maximum {
                let rest = lines[(maximum - 1)...].joined(separator: " ")
                lines = Array(lines.prefix(maximum - 1)) + [DisplayWidth.truncate(rest, to: columns - 2)]
            }
            return lines.map { StyledLine(DisplayWidth.pad(" " + $0, to: columns), style: status.isError ? .red : .plain) }
        }
        return [statusLine()]
    }

    private func statusLine() -> StyledLine {
        if let composer = model.composer {
            let prompt = model.answering == nil ? " Say to Alicia: " : " Answer Alicia: "
            let visible = composer.visible(width: max(1, columns - DisplayWidth.of(prompt) - 1))
            return StyledLine(DisplayWidth.pad(prompt + visible.text, to: columns), style: .yellow)
        }
        if let search = model.search {
            let visible = search.visible(width: max(1, columns - 3))
            return StyledLine(DisplayWidth.pad(" /" + visible.text, to: columns), style: .yellow)
        }
        let hints = " space play/pause · ←/→ seek · enter play" + (model.hasBackend ? " · t talk" : "") + " · / search · ? help"
        return StyledLine(DisplayWidth.pad(hints, to: columns), style: .dim)
    }

    // MARK: Helpers

    private func pad(_ lines: [StyledLine], rows: Int) -> [StyledLine] {
        var lines = Array(lines.prefix(rows))
        while lines.count < rows { lines.append(StyledLine(String(repeating: " ", count: columns))) }
        return lines
    }

    /// Words wrapped to `width` columns (a word longer than the width is cut).
    package func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if DisplayWidth.of(candidate) <= width {
                line = candidate
            } else {
                if !line.isEmpty { lines.append(line) }
                line = DisplayWidth.of(String(word)) > width ? DisplayWidth.truncate(String(word), to: width) : String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
