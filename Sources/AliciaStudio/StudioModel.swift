import AliciaAudio
import AliciaBackend
import AliciaTerminal
import AliciaSession
import AliciaLocks
import AliciaLibrary
import AliciaHost

/// Everything the Studio shows, apart from the players' live state (read from
/// their snapshots at each frame). Pure: keys and replies change it; the layout
/// draws it.
package struct StudioModel {
    /// What can be played: the backend's library, or a single stream given by URL.
    package var library = Library([])
    package var libraryError: String?
    /// A search narrowing the list (titles, labels, moods), when one is set.
    package var filter = ""
    /// The search line while it is being typed.
    package var search: LineEditor?
    /// The composer of `t` (and of `r`, answering what Alicia asked: `answering` is her message).
    package var composer: LineEditor?
    package var answering: ProactiveMessage?
    /// Index into `visibleEntries` of the selected entry.
    package var selection = 0
    /// First list row shown.
    package var scroll = 0
    /// What plays (an entry of the library, or an ad-hoc stream).
    package var nowPlaying: NowPlaying?
    /// Labels (or titles) of episodes played to their end this session.
    package var played: Set<String> = []
    /// Labels (or titles) of episodes in the download cache: `↓` beside their length.
    package var downloaded: Set<String> = []
    /// Offline: labels (or titles) of episodes that cannot play now (not downloaded).
    package var unavailable: Set<String> = []
    /// Alicia's latest reply (streaming or done) and her proactive messages.
    package var reply = ChatPanel()
    package var proactive: [ProactiveMessage] = []
    /// Today's briefing's title, when it is ready to play (the line under the header says so).
    package var briefingReady: String?
    /// The app's next episode, offered when one of hers ended (`N` plays it).
    package var nextEpisode: Library.Entry?
    /// The last voice note heard, for `v`.
    package var lastVoiceNote: (location: MediaLocation, title: String)?
    package var showHelp = false
    /// The help overlay's rows: the keys in effect and what they do (`StudioKeys.helpRows`).
    package var keyHelp: [(keys: String, what: String)] = StudioKeys.defaults.helpRows
    /// The show notes pane of `i`, over the list, when open.
    package var notes: NotesPane?
    /// The transcript pane of `T`, over the list, when open: the cue chosen with ↑ ↓, nil while it
    /// follows the audio.
    package var transcript: TranscriptPane?
    /// The queue view of `Q`, over the list, when open.
    package var queueView: QueueView?
    /// The chapters of `c`, over the list, when open: the one selected, the first shown.
    package var chaptersView: ChaptersView?
    /// A one-line message (an error, a hint) and whether it is an error.
    package var status: (text: String, isError: Bool)?
    /// Where the backend is (for the header), never with the token.
    package var backendName = ""
    /// "offline — last updated 10:42" while the library shown is the one kept in the cache.
    package var offline: String?
    /// Whether a backend is configured (without one there is no one to talk to).
    package var hasBackend = true
    /// The listener's volume in percent on the mixer's scale (`VolumeScale`), and whether muted.
    package var volumePercent = 100.0
    package var muted = false

    package struct NowPlaying: Equatable {
        package var title: String
        package var label: String?
        package var mood: String
        /// Index of the entry in `library.entries`, when it is from the library.
        package var entryIndex: Int?
    }

    /// What will play: the player's queue as it was at this frame, with a selection.
    package struct QueueView: Equatable {
        package var entries: [QueueEntry] = []
        package var current: QueueEntryID?
        package var selection = 0
        /// First entry shown; the layout keeps the selection in view.
        package var scroll = 0
    }

    /// The chapters of the item heard (read from its snapshot at each frame), with a selection.
    package struct ChaptersView: Equatable {
        package var selection = 0
        package var scroll = 0
        package init(selection: Int = 0) { self.selection = selection }
    }

    /// One episode's show notes, as plain text (markdown rendered as the chat's is), scrolled.
    package struct TranscriptPane: Equatable {
        package var selection: Int?
        /// `/`: words to find, while they are typed.
        package var find: LineEditor?
    }

    package struct NotesPane: Equatable {
        package var title: String
        /// What the backend knows the episode by (the notes that arrive must be this one's).
        package var label: String
        /// Nil while they load.
        package var text: String?
        package var error: String?
        /// First line shown; the layout keeps it within the notes.
        package var scroll = 0
    }

    package struct ChatPanel: Equatable, Sendable {
        package var prompt = ""
        package var text = ""
        package var streaming = false
        package var messageID: String?
    }

    /// Entries matching the filter, in library order.
    package var visibleEntries: [Library.Entry] {
        guard !filter.isEmpty else { return library.entries }
        let wanted = filter.lowercased()
        return library.entries.filter { entry in
            let e = entry.episode
            return e.title.lowercased().contains(wanted) || (e.label?.lowercased().contains(wanted) ?? false)
                || e.mood.lowercased().contains(wanted)
        }
    }

    package var selectedEntry: Library.Entry? {
        let entries = visibleEntries
        return entries.indices.contains(selection) ? entries[selection] : nil
    }

    package mutating func moveSelection(by delta: Int) {
        let count = visibleEntries.count
        guard count > 0 else {
            selection = 0
            return
        }
        selection = min(max(0, selection + delta), count - 1)
    }

    /// Keeps the selection within `rows` rows of list, scrolling as little as possible, and never
    /// further than fills the rows (after the window grows, no empty rows under a hidden top).
    package mutating func scrollToSelection(rows: Int) {
        guard rows > 0 else { return }
        let line = listLine(ofEntry: selection)
        if line < scroll { scroll = max(0, line - (selection == 0 ? line : 0)) }
        if line >= scroll + rows { scroll = line - rows + 1 }
        scroll = min(scroll, max(0, listLines.count - rows))
        if selection == 0 { scroll = 0 }
    }

    /// The list's lines: a heading per shelf (when not filtering), then its entries.
    package var listLines: [ListLine] {
        if !filter.isEmpty {
            return visibleEntries.enumerated().map { .entry($0.offset, $0.element) }
        }
        var lines: [ListLine] = []
        var position = 0
        for shelf in library.shelves {
            lines.append(.heading(shelf.title))
            for entry in shelf.entries {
                lines.append(.entry(position, entry))
                position += 1
            }
        }
        return lines
    }

    package enum ListLine: Equatable {
        case heading(String)
        /// The entry and its index among the visible entries.
        case entry(Int, Library.Entry)
    }

    private func listLine(ofEntry index: Int) -> Int {
        listLines.firstIndex { if case .entry(let i, _) = $0 { return i == index } else { return false } } ?? 0
    }
}
