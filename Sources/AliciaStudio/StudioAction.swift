import AliciaLocks
import AliciaSession

/// What the Studio does itself, beside the session's grammar: the selection, its panes, the
/// composer. A key is bound to a command line (`StudioKeys`); a line that begins with one of these
/// names is the Studio's, any other is a line of the session's grammar, carried out as the socket
/// would carry it out.
package enum StudioAction: Equatable {
    case talk
    /// `r`: answer what Alicia asked in her latest asking message (`/api/reply`).
    case answer
    /// `b`: today's briefing; `B`: its playlist.
    case briefing, briefingPlaylist
    /// `N`: the app's next episode after the one heard last.
    case nextEpisode
    case playSelected, enqueueSelected, playSelectedNext
    case select(Selection)
    case search
    case show(Pane)
    case saveQueue
    /// Esc: closes the help, the status line and a filter; while a voice note plays, skips it.
    case dismiss
    case redraw
    case suspend

    package enum Selection: Equatable {
        case by(Int)
        /// A page of the list (its rows less one) on, or back.
        case pages(Int)
        case first, last
    }

    package enum Pane: String, Equatable, CaseIterable {
        case notes, transcript, queue, chapters, help
    }

    /// The Studio's commands, with their usage and what each does (for `help keys` and the overlay).
    package static let table: [(usage: String, help: String)] = [
        ("talk", "talk to Alicia (she answers with a voice note)"),
        ("answer", "answer what Alicia asked you"),
        ("briefing", "play today's briefing"),
        ("briefing-playlist", "play the playlist of today's briefing"),
        ("next-episode", "play the next episode, as the app has it (the series' next, or the collection's)"),
        ("play-selected", "play the selected episode (and the library after it)"),
        ("enqueue-selected", "add the selected episode to the queue"),
        ("play-selected-next", "play the selected episode next"),
        ("select +N|-N|+page|-page|first|last", "move the selection"),
        ("search", "search titles and labels"),
        ("show notes|transcript|queue|chapters|help", "open (or close) a pane"),
        ("save-queue", "save the queue as M3U8"),
        ("dismiss", "close the help, the notes, a filter; skip a voice note"),
        ("redraw", "draw the screen again"),
        ("suspend", "suspend (fg resumes)"),
    ]

    /// The names the Studio takes for itself.
    package static let names: Set<String> = Set(table.map { String($0.usage.prefix { $0 != " " }) })

    /// The Studio command `words` make; nil when the line is not the Studio's (it is the session's).
    package static func parse(_ words: [String]) -> Result<StudioAction, UsageError>? {
        guard let name = words.first, names.contains(name) else { return nil }
        let arguments = Array(words.dropFirst())
        switch name {
        case "select":
            guard arguments.count == 1, let selection = selection(arguments[0]) else {
                return .failure(UsageError("select takes +N, -N, +page, -page, first or last"))
            }
            return .success(.select(selection))
        case "show":
            guard arguments.count == 1, let pane = Pane(rawValue: arguments[0]) else {
                return .failure(UsageError("show takes notes, transcript, queue, chapters or help"))
            }
            return .success(.show(pane))
        default:
            guard arguments.isEmpty else { return .failure(UsageError("\(name) takes no arguments")) }
            let plain: [String: StudioAction] = [
                "talk": .talk, "answer": .answer, "briefing": .briefing, "briefing-playlist": .briefingPlaylist, "next-episode": .nextEpisode, "play-selected": .playSelected, "enqueue-selected": .enqueueSelected,
                "play-selected-next": .playSelectedNext, "search": .search, "save-queue": .saveQueue,
                "dismiss": .dismiss, "redraw": .redraw, "suspend": .suspend,
            ]
            return plain[name].map { .success($0) }
        }
    }

    private static func selection(_ word: String) -> Selection? {
        switch word {
        case "first": return .first
        case "last": return .last
        case "+page": return .pages(1)
        case "-page": return .pages(-1)
        default:
            guard word.hasPrefix("+") || word.hasPrefix("-"), let steps = Int(word.dropFirst()), steps <= 100_000 else { return nil }
            return .by(word.hasPrefix("-") ? -steps : steps)
        }
    }

    /// Whether `line` is a command a key may be bound to: the Studio's, or a line of the session's
    /// grammar; nil, or what is wrong.
    package static func problem(with line: String) -> String? {
        guard let words = SessionCommands.words(ofLine: line), !words.isEmpty else { return "'\(line.prefix(60))' is not a command line" }
        if let studio = parse(words) {
            if case .failure(let problem) = studio { return problem.message }
            return nil
        }
        if case .failure(let problem) = CommandAliases.requests(words) { return problem.message }
        return nil
    }
}
