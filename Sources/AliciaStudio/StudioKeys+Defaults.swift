import AliciaTerminal

/// The keys the Studio starts with (podcast-app conventions, mpv's where it has one), and the rows
/// of the help overlay they are shown in.
extension StudioKeys {
    package static let defaults: StudioKeys = {
        var bindings: [Binding] = []
        func bind(_ names: [String], _ command: String, row: String) {
            for name in names {
                guard let key = Key(name: name) else { preconditionFailure("StudioKeys.defaults: '\(name)' is not a key name") }
                bindings.append(Binding(key: key, command: command, row: row))
            }
        }
        bind(["SPACE"], "toggle", row: "toggle")
        bind(["LEFT"], "seek -15", row: "back15")
        bind(["RIGHT"], "seek +30", row: "forward30")
        bind([","], "seek -5", row: "back5")
        bind(["."], "seek +5", row: "forward5")
        for digit in 0...9 { bind(["\(digit)"], "seek \(digit * 10) absolute-percent", row: "percent") }
        bind(["n"], "playlist-next", row: "next")
        bind(["p"], "playlist-prev", row: "previous")
        // As mpv's: the chapter before (after its first 3 s: this one's start) and the next.
        bind(["PGDWN"], "add chapter 1", row: "nextChapter")
        bind(["PGUP"], "add chapter -1", row: "previousChapter")
        bind(["+", "="], "add volume 5", row: "louder")
        bind(["-", "_"], "add volume -5", row: "quieter")
        bind(["m"], "cycle mute", row: "mute")
        // In quarter steps, whatever the speed was set to on the command line.
        bind(["["], "add speed -0.25", row: "slower")
        bind(["]"], "add speed 0.25", row: "faster")
        bind(["s"], "cycle alicia-skip-silence", row: "skipSilence")
        bind(["z"], "cycle alicia-sleep", row: "sleep")
        bind(["UP", "k"], "select -1", row: "select")
        bind(["DOWN", "j"], "select +1", row: "select")
        bind(["Ctrl+u", "Ctrl+b"], "select -page", row: "page")
        bind(["Ctrl+d", "Ctrl+f"], "select +page", row: "page")
        bind(["g", "HOME"], "select first", row: "firstLast")
        bind(["G", "END"], "select last", row: "firstLast")
        bind(["ENTER"], "play-selected", row: "playSelected")
        bind(["a"], "enqueue-selected", row: "enqueue")
        bind(["A"], "play-selected-next", row: "playNext")
        bind(["/"], "search", row: "search")
        bind(["i"], "show notes", row: "notes")
        bind(["T"], "show transcript", row: "transcript")
        bind(["Q"], "show queue", row: "queue")
        bind(["w"], "save-queue", row: "saveQueue")
        bind(["c"], "show chapters", row: "chapters")
        bind(["v"], "voice-replay", row: "replay")
        bind(["t"], "talk", row: "talk")
        bind(["r"], "answer", row: "answer")
        bind(["b"], "briefing", row: "briefing")
        bind(["B"], "briefing-playlist", row: "briefingPlaylist")
        bind(["N"], "next-episode", row: "nextEpisode")
        bind(["ESC"], "dismiss", row: "dismiss")
        bind(["?"], "show help", row: "help")
        bind(["Ctrl+l"], "redraw", row: "redraw")
        bind(["q"], "quit", row: "quit")
        bind(["Ctrl+z"], "suspend", row: "suspend")
        bind(["Ctrl+c"], "quit 130", row: "interrupt")
        return StudioKeys(bindings: bindings)
    }()

    /// The overlay's rows, in order: each row's groups are shown apart by " / " (keys and words).
    static let rows: [Row] = [
        Row(groups: [("toggle", "play / pause; after the end, again; skips a voice note")]),
        Row(groups: [("back15", "back 15 s"), ("forward30", "forward 30 s")]),
        Row(groups: [("back5", "back 5 s"), ("forward5", "forward 5 s")]),
        Row(groups: [("percent", "jump to 0 – 90 %")]),
        Row(groups: [("next", "next"), ("previous", "previous in the queue (p after 3 s: restart)")]),
        Row(groups: [("nextEpisode", "the next episode after the one heard last (as the app has it)")]),
        Row(groups: [("nextChapter", "next chapter"), ("previousChapter", "the chapter before (after 3 s: its start)")]),
        Row(groups: [("louder", "volume up 5 %"), ("quieter", "down 5 %")]),
        Row(groups: [("mute", "mute / unmute")]),
        Row(groups: [("slower", "slower"), ("faster", "faster")]),
        Row(groups: [("skipSilence", "skip silence: off, mild, medium, strong"), ("sleep", "sleep: off, 15-60 min, chapter, end")]),
        Row(groups: [("select", "select")]),
        Row(groups: [("page", "a page up / down"), ("firstLast", "first / last")]),
        Row(groups: [("playSelected", "play the selected episode")]),
        Row(groups: [("enqueue", "add the selected episode to the queue"), ("playNext", "play it next")]),
        Row(groups: [("search", "search titles and labels")]),
        Row(groups: [("notes", "the selection's show notes"), ("transcript", "the transcript as it plays (↑ ↓ /, enter seeks)")]),
        Row(groups: [("queue", "the queue (enter plays, x removes, J K move)"), ("saveQueue", "save it as M3U8"), ("chapters", "the chapters")]),
        Row(groups: [("replay", "replay the last voice note")]),
        Row(groups: [("briefing", "today's briefing"), ("briefingPlaylist", "its playlist")]),
        Row(groups: [("talk", "talk to Alicia (she answers with a voice note)"), ("answer", "answer what she asked")]),
        Row(groups: [("dismiss", "skip a voice note; close the help, the notes, a filter")]),
        Row(groups: [("help", "this help; Esc closes it")]),
        Row(groups: [("redraw", "draw the screen again")]),
        Row(groups: [("quit", "quit"), ("suspend", "suspend (fg resumes)"), ("interrupt", "quit with status 130")]),
    ]
}
