import AliciaAudio
import AliciaBackend
import AliciaTerminal

extension Style {
    static let red = Style.foreground(.red)
    static let green = Style.foreground(.green)
    static let yellow = Style.foreground(.yellow)
    static let magenta = Style.foreground(.magenta)
}

/// Draws the Studio: a header, the library (or the help), Alicia's latest words,
/// the now-playing panel that stays, and a status line. A pure function of the
/// model, the players' snapshots and the size, so it is tested at several widths.
struct StudioLayout {
    struct Frame {
        var lines: [StyledLine]
        /// Rows the list had (for paging and scrolling).
        var listRows: Int
    }

    var model: StudioModel
    var episode: PlayerSnapshot
    var voice: (title: String, snapshot: PlayerSnapshot)?
    var columns: Int
    var rows: Int

    /// The smallest size drawn; below it, a one-line request to enlarge.
    static let minimumColumns = 40
    static let minimumRows = 12

    func frame() -> Frame {
        let width = max(1, columns)
        guard columns >= Self.minimumColumns, rows >= Self.minimumRows else {
            var lines = [StyledLine(DisplayWidth.pad("Make the window at least 40×12", to: width), style: .bold)]
            while lines.count < rows { lines.append(StyledLine("")) }
            return Frame(lines: Array(lines.prefix(max(0, rows))), listRows: 0)
        }
        let chatRows = rows >= 18 ? 3 : (rows >= 14 ? 2 : 1)
        let footer = [rule("Alicia")] + chat(rows: chatRows) + [rule("Now playing")] + nowPlaying()
            + statusLines(maximum: rows >= 16 ? 3 : 2)
        let listRows = max(1, rows - 1 - footer.count)
        var lines = [header()]
        lines += model.showHelp ? help(rows: listRows) : list(rows: listRows)
        lines += footer
        return Frame(lines: Array(lines.prefix(rows)), listRows: listRows)
    }

    // MARK: Parts

    private func header() -> StyledLine {
        let left = " Alicia Studio" + (model.backendName.isEmpty ? "" : " · " + model.backendName)
        let right = "? help  q quit "
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

    private struct Widths { var index = 1, label = 1, mood = 0, time = 4 }

    private func columnWidths(_ entries: [Library.Entry]) -> Widths {
        var widths = Widths()
        for entry in entries {
            widths.index = max(widths.index, String(entry.index).count)
            widths.label = max(widths.label, min(12, DisplayWidth.of(entry.episode.label ?? "—")))
            widths.mood = max(widths.mood, DisplayWidth.of(entry.episode.mood))
            widths.time = max(widths.time, DisplayWidth.of(Self.time(of: entry.episode)))
        }
        return widths
    }

    private func entryLine(_ entry: Library.Entry, selected: Bool, widths: Widths) -> StyledLine {
        let episode = entry.episode
        let key = episode.label ?? episode.title
        let playing = model.nowPlaying?.entryIndex == entry.index
        let marker = playing ? "▶" : (model.played.contains(key) ? "✓" : " ")
        let index = String(repeating: " ", count: widths.index - String(entry.index).count) + String(entry.index)
        let time = Self.time(of: episode)
        let head = " \(marker) \(index)  " + DisplayWidth.pad(episode.label ?? "—", to: widths.label) + "  "
        // Right-aligned in a column of its own, so titles and moods line up on every row.
        let tail = "  " + String(repeating: " ", count: max(0, widths.time - DisplayWidth.of(time))) + time + " "
        let middle = max(4, columns - DisplayWidth.of(head) - DisplayWidth.of(tail))
        let moodWidth = columns >= 70 ? min(widths.mood, middle / 3) : 0
        let titleWidth = middle - (moodWidth > 0 ? moodWidth + 2 : 0)
        var text = head + DisplayWidth.pad(episode.title, to: titleWidth)
        if moodWidth > 0 { text += "  " + DisplayWidth.pad(episode.mood, to: moodWidth) }
        text = DisplayWidth.pad(text + tail, to: columns)
        if selected { return StyledLine(text, style: .reverse) }
        if !episode.hasAudio { return StyledLine(text, style: .dim) }
        return StyledLine(text, style: playing ? .green : .plain)
    }

    private static func time(of episode: Episode) -> String {
        episode.hasAudio ? TimeSpec.clock(episode.duration) : "no audio"
    }

    private func help(rows: Int) -> [StyledLine] {
        var lines = [StyledLine(DisplayWidth.pad(" Keys (Esc or ? closes)", to: columns), style: .bold)]
        let keyWidth = StudioAction.keyTable.map { DisplayWidth.of($0.keys) }.max() ?? 8
        for (keys, what) in StudioAction.keyTable {
            lines.append(StyledLine(DisplayWidth.pad("   " + DisplayWidth.pad(keys, to: keyWidth) + "   " + what, to: columns)))
        }
        return pad(lines, rows: rows)
    }

    private func chat(rows: Int) -> [StyledLine] {
        var text: String
        var style = Style.plain
        if !model.reply.prompt.isEmpty || model.reply.streaming {
            text = "You: \(model.reply.prompt)  ·  Alicia: " + model.reply.text + (model.reply.streaming ? " …" : "")
        } else if let message = model.proactive.first {
            text = "Alicia: " + message.text
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
        let state: String
        switch episode.state {
        case .playing: state = "playing"
        case .paused: state = "paused"
        case .buffering, .loading: state = "buffering"
        case .ended: state = "ended"
        case .failed: state = "failed"
        case .idle: state = "stopped"
        }
        let shownState = episode.isHeld ? "held: voice note" : state
        let symbol = episode.state == .playing && !episode.isHeld ? "▶" : (episode.state == .paused || episode.isHeld ? "⏸" : "·")
        var title = " \(symbol) \(playing.title)"
        if let label = playing.label { title += " · \(label)" }
        if !playing.mood.isEmpty { title += " · \(playing.mood)" }
        var stateText = "  " + shownState + " "
        if let next = episode.next, columns >= 60 {
            stateText = "  next: " + DisplayWidth.truncate(next.title, to: min(28, columns / 4)) + " ·" + stateText.dropFirst()
        }
        let first = DisplayWidth.pad(title, to: columns - DisplayWidth.of(stateText)) + stateText
        var lines = [StyledLine(first, style: .bold)]
        lines.append(StyledLine(progress(episode)))
        if let voice {
            let head = " 🎙 " + DisplayWidth.pad(voice.title, to: min(24, columns / 3)) + " "
            lines.append(StyledLine(head + progress(voice.snapshot, width: columns - DisplayWidth.of(head), volume: false), style: .magenta))
        }
        return lines
    }

    /// `1:23 ▕███▒▒   ▏ -1:37 / 3:00  1.5×  vol 100%`: elapsed, the bar (played, buffered
    /// ahead, rest), remaining and total, the speed when not 1×, then the volume.
    private func progress(_ snapshot: PlayerSnapshot, width: Int? = nil, volume: Bool = true) -> String {
        let width = width ?? columns
        let elapsed = " " + TimeSpec.clock(snapshot.position) + " "
        var tail = ""
        if let duration = snapshot.duration {
            tail = " -" + TimeSpec.clock(max(0, duration - snapshot.position)) + " / " + TimeSpec.clock(duration)
        }
        if snapshot.speed != 1 { tail += "  " + ProgressLine.speedText(snapshot.speed) }
        if volume { tail += model.muted ? "  muted" : "  vol " + VolumeScale.text(model.volumePercent) }
        tail += " "
        let barWidth = width - DisplayWidth.of(elapsed) - DisplayWidth.of(tail)
        guard barWidth >= 6, let duration = snapshot.duration, duration > 0 else {
            return DisplayWidth.pad(elapsed + tail, to: width)
        }
        let inner = barWidth - 2
        let played = Int((min(1, max(0, snapshot.position / duration)) * Double(inner)).rounded(.down))
        let buffered = min(inner - played, Int((snapshot.bufferedAhead / duration * Double(inner)).rounded()))
        let bar = "▕" + String(repeating: "█", count: played) + String(repeating: "▒", count: max(0, buffered))
            + String(repeating: " ", count: max(0, inner - played - max(0, buffered))) + "▏"
        return DisplayWidth.pad(elapsed + bar + tail, to: width)
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
            let prompt = " Say to Alicia: "
            let visible = composer.visible(width: max(1, columns - DisplayWidth.of(prompt) - 1))
            return StyledLine(DisplayWidth.pad(prompt + visible.text, to: columns), style: .yellow)
        }
        if let search = model.search {
            let visible = search.visible(width: max(1, columns - 3))
            return StyledLine(DisplayWidth.pad(" /" + visible.text, to: columns), style: .yellow)
        }
        let hints = " space play/pause · ←/→ seek · enter play · t talk · / search · ? help"
        return StyledLine(DisplayWidth.pad(hints, to: columns), style: .dim)
    }

    // MARK: Helpers

    private func pad(_ lines: [StyledLine], rows: Int) -> [StyledLine] {
        var lines = Array(lines.prefix(rows))
        while lines.count < rows { lines.append(StyledLine(String(repeating: " ", count: columns))) }
        return lines
    }

    /// Words wrapped to `width` columns (a word longer than the width is cut).
    func wrap(_ text: String, width: Int) -> [String] {
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
