import AliciaTerminal
import AliciaSession
import AliciaLocks
import AliciaLibrary
import AliciaHost

/// What a key asks the Studio to do: a command of the vocabulary, or something of the Studio's
/// own (moving the selection, opening a pane). Keys follow podcast-app conventions.
package enum StudioAction: Equatable {
    /// A command of the vocabulary, carried out by the session as every front end's are.
    case transport(TransportCommand)
    case talk
    case playSelected
    /// `a`: the selected episode to the end of the queue; `A`: to play next.
    case enqueueSelected
    case playSelectedNext
    case moveSelection(by: Int)
    case selectFirst, selectLast
    case search
    /// `i`: the selected episode's show notes.
    case showNotes
    /// `T`: the transcript beside the file, following the audio.
    case showTranscript
    /// `Q`: what will play, to reorder or thin; `w`: the queue saved as M3U8.
    case showQueue, saveQueue
    /// `c`: the chapters of the item heard, to jump to one.
    case showChapters
    case help
    case dismiss
    case redraw
    case suspend
    case quit
    /// Ctrl-C: quit with the status of an interrupt (130), as off the Studio.
    case interrupt

    /// The action for a key in the main view (no composer or search line open).
    package static func forKey(_ key: Key, pageSize: Int) -> StudioAction? {
        if let command = transport(for: key) { return .transport(command) }
        switch key {
        case .character("t"): return .talk
        case .enter: return .playSelected
        case .character("a"): return .enqueueSelected
        case .character("A"): return .playSelectedNext
        case .up, .character("k"): return .moveSelection(by: -1)
        case .down, .character("j"): return .moveSelection(by: 1)
        case .control("u"), .control("b"): return .moveSelection(by: -max(1, pageSize))
        case .control("d"), .control("f"): return .moveSelection(by: max(1, pageSize))
        case .home, .character("g"): return .selectFirst
        case .end, .character("G"): return .selectLast
        case .character("/"): return .search
        case .character("i"): return .showNotes
        case .character("Q"): return .showQueue
        case .character("T"): return .showTranscript
        case .character("c"): return .showChapters
        case .character("w"): return .saveQueue
        case .character("?"): return .help
        case .escape: return .dismiss
        case .control("l"): return .redraw
        case .control("z"): return .suspend
        case .character("q"): return .quit
        case .control("c"): return .interrupt
        default: return nil
        }
    }

    /// The keys that are commands of the vocabulary.
    package static func transport(for key: Key) -> TransportCommand? {
        switch key {
        case .character(" "): return .togglePause
        case .left: return .seek(.by(-15))
        case .right: return .seek(.by(30))
        case .character(","): return .seek(.by(-5))
        case .character("."): return .seek(.by(5))
        case .character(let c) where c.isASCII && c.isNumber:
            return .seek(.toFraction(Double(c.wholeNumberValue ?? 0) / 10))
        // As mpv's: the chapter before (after its first 3 s: this one's start) and the next.
        case .pageUp: return .chapter(.by(-1))
        case .pageDown: return .chapter(.by(1))
        case .character("n"): return .next
        case .character("p"): return .previous
        case .character("+"), .character("="): return .volume(.by(VolumeScale.step))
        case .character("-"), .character("_"): return .volume(.by(-VolumeScale.step))
        case .character("m"): return .mute(.toggle)
        // In quarter steps, whatever the speed was set to on the command line.
        case .character("]"): return .speed(.by(0.25))
        case .character("["): return .speed(.by(-0.25))
        case .character("s"): return .skipSilence(.cycle)
        case .character("z"): return .sleep(.cycle)
        case .character("v"): return .replayVoiceNote
        default: return nil
        }
    }

    /// The keys, for the help overlay.
    package static let keyTable: [(keys: String, what: String)] = [
        ("space", "play / pause; after the end, again; skips a voice note"),
        ("← / →", "back 15 s / forward 30 s"),
        (", / .", "back / forward 5 s"),
        ("0 – 9", "jump to 0 – 90 %"),
        ("n / p, PgDn / PgUp", "next / previous in the queue (p after 3 s: restart); the same by chapter"),
        ("+ / -", "volume up / down by 5 %"),
        ("m", "mute / unmute"),
        ("[ / ]", "slower / faster"),
        ("s / z", "skip silence: off, mild, medium, strong / sleep: off, 15-60 min, chapter, end"),
        ("↑ ↓ j k", "select; ctrl-u ctrl-d, g G: page, first, last"),
        ("enter", "play the selected episode"),
        ("a / A", "add the selected episode to the queue / play it next"),
        ("/", "search titles and labels"),
        ("i / T", "the selection's show notes / the transcript as it plays (↑ ↓ /, enter seeks)"),
        ("Q / w / c", "the queue (enter plays, x removes, J K move) / save it as M3U8 / the chapters"),
        ("v", "replay the last voice note"),
        ("t", "talk to Alicia (she answers with a voice note)"),
        ("Esc", "skip a voice note; close the help, the notes, a filter"),
        ("?", "this help; Esc closes it"),
        ("q / ctrl-z", "quit / suspend (fg resumes); ctrl-c quits with status 130"),
    ]
}
