#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaLocks
import AliciaSession
import AliciaLibrary
import AliciaHost

/// The library and Alicia's playlists: what the list shows and what plays from it.
extension StudioApp {
    /// `w`: the queue as M3U8 in the state directory (episodes by label: a saved list holds no token).
    package func saveQueue() {
        let items = view.queue.entries.map(\.item)
        guard !items.isEmpty else {
            setStatus("nothing queued to save")
            return
        }
        guard let directory = PositionStore.defaultDirectory() else {
            setStatus("no state directory to save the queue in (set XDG_STATE_HOME or HOME)", error: true)
            return
        }
        let path = directory + "/queue.m3u8"
        switch LocalFiles.writeM3U8(items, to: path) {
        case nil: setStatus("queue saved: \(path) (alicia-player queue plays it)")
        case let problem?: setStatus(problem, error: true)
        }
    }

    /// `i`: fetches the selected episode's show notes on a thread of its own and opens the pane.
    package func openNotes() {
        guard let backend = setup.backend else {
            setStatus("no backend: show notes come from one")
            return
        }
        guard let entry = model.selectedEntry else { return }
        guard let label = entry.episode.label else {
            setStatus("\(entry.episode.title) has no label, so it has no show notes")
            return
        }
        model.showHelp = false
        model.notes = StudioModel.NotesPane(title: entry.episode.title, label: label)
        let inbox = self.inbox
        onBackendThread("alicia-notes", configuration: backend.client.configuration) { client throws(BackendError) in
            let markdown = try BackendSession.showNotes(label: label, client: client)
            inbox.withLock { $0.notes = (label, markdown, nil) }
        } failed: { error in
            inbox.withLock { $0.notes = (label, nil, error.message) }
        }
    }

    package func loadLibrary() {
        guard let backend = setup.backend else {
            model.library = queueLibrary()
            return
        }
        do {
            let library = try backend.library()
            model.libraryError = nil
            // Alicia's playlists, as a shelf of their own after the collections.
            do {
                playlists = try backend.playlists()
            } catch {
                setStatus("playlists: \(error.message)", error: true)
            }
            let shelf = playlists.map { playlist in
                Episode(title: playlist.name,
                        mood: "\(playlist.items.count) item\(playlist.items.count == 1 ? "" : "s")"
                            + (playlist.warming > 0 ? ", \(playlist.warming) warming" : ""),
                        duration: playlist.duration, symbol: "playlist", fileName: Self.playlistPrefix + playlist.id,
                        collection: "playlists", collectionTitle: "Playlists")
            }
            var episodes = library.entries.map(\.episode)
            model.downloaded = OfflineCache.downloaded(in: library)
            model.offline = backend.offlineBanner
            if backend.offlineBanner == nil {
                reconnect = nil
            } else if reconnect == nil {
                reconnect = (MonotonicClock.seconds() + Self.reconnectFirst, Self.reconnectFirst, false)
            }
            model.unavailable = []
            if backend.offlineBanner != nil {
                // Offline: what was not downloaded cannot play; say so where its mood is (its length
                // stays what the saved library says). The header carries the offline mark.
                for index in episodes.indices where episodes[index].hasAudio
                    && !model.downloaded.contains(episodes[index].label ?? episodes[index].title) {
                    episodes[index].mood = "not downloaded (offline)"
                    model.unavailable.insert(episodes[index].label ?? episodes[index].title)
                }
            }
            model.library = Library(episodes + shelf + (readingShelf.map(readingEntries) ?? []) + showEntries())
        } catch {
            model.libraryError = error.message
            setStatus(error.message, error: true)
        }
    }

    /// How a playlist's entry in the list is told from an episode's.
    package static let playlistPrefix = "playlist:"

    /// The playlist a list entry stands for, if it stands for one.
    package func playlist(for entry: Library.Entry) -> Playlist? {
        guard let fileName = entry.episode.fileName, fileName.hasPrefix(Self.playlistPrefix) else { return nil }
        let id = fileName.dropFirst(Self.playlistPrefix.count)
        return playlists.first { $0.id == id }
    }

    /// The queue items of a playlist that can play now; items still warming are voiced on a thread
    /// of their own (`voiceWarming`), so the Studio never waits for them, and each joins the queue
    /// once its first chunk is there.
    package func playlistItems(_ playlist: Playlist) -> [QueueItem]? {
        guard let backend = setup.backend else { return nil }
        switch PlaylistItems.items(of: playlist, backend: backend, voiceWarming: false) {
        case .success(let items):
            voiceWarming(playlist, configuration: backend.client.configuration)
            return items
        case .failure(let problem):
            setStatus(problem.message, error: true)
            return nil
        }
    }

    package func start(_ autoplay: Autoplay?) {
        switch autoplay {
        case .entry(_, let index)?:
            if let entry = model.library.entries.first(where: { $0.index == index }) {
                model.selection = model.visibleEntries.firstIndex(of: entry) ?? 0
                play(entry)
            }
        case .items(let items)?:
            let options = setup.options
            session.perform(.load(LoadPlan(items, start: options.start, loop: options.loop ? .queue : .off,
                                           shuffle: options.shuffle, voiceCues: setup.voiceCues)))
            if let first = items.first { model.nowPlaying = nowPlaying(first) }
        case nil:
            break
        }
    }

    /// Without a backend the list is the queue given on the command line, on one shelf, with each
    /// length once its file has opened (no season, label or length is made up).
    package func queueLibrary() -> Library {
        let items = ownItems
        return Library(items.enumerated().map { index, item in
            Episode(title: item.title, duration: itemLengths[index] ?? 0, fileName: "stream", label: item.label,
                    collection: "QUEUE", collectionTitle: "Queue")
        } + showEntries())
    }

    /// Without a backend, the items the list shows: the command line's, or the queue continued.
    package var ownItems: [QueueItem] {
        if case .items(let items)? = setup.autoplay { return items }
        return restoredItems
    }

    /// An item's length, learnt when it opened, for the list of a queue without a backend.
    package func learnLength(of item: QueueItem, _ format: AudioFormat) {
        guard setup.backend == nil, let duration = format.duration,
              let index = ownItems.firstIndex(of: item), itemLengths[index] != duration else { return }
        itemLengths[index] = duration
        model.library = queueLibrary()
    }

    /// Plays the library from `entry` on: the queue is every episode with audio, in library order,
    /// so `n` and `p` move through it and it plays on by itself.
    package func play(_ entry: Library.Entry) {
        if let reading = reading(for: entry) { return playReading(reading, title: entry.episode.title) }
        if let reference = showEpisode(for: entry) { return playShowEpisode(reference) }
        guard setup.backend != nil else {
            // Items of their own: the list shows the queue; play from the selected one.
            let items = ownItems
            if let index = model.library.entries.firstIndex(of: entry), items.indices.contains(index) {
                session.perform(.load(LoadPlan(items, index: index)))
                model.nowPlaying = nowPlaying(items[index])
            }
            return
        }
        if let playlist = playlist(for: entry) {
            guard let items = playlistItems(playlist), let first = items.first else {
                if playlist.items.isEmpty { setStatus("\(playlist.name) is empty") }
                // All of it still warming: nothing plays until the first is voiced.
                if playlist.warming > 0 { _ = session.perform(.stop) }
                return
            }
            session.perform(.load(LoadPlan(items)))
            model.nowPlaying = nowPlaying(first)
            return
        }
        guard item(for: entry) != nil else {
            let name = entry.episode.label ?? entry.episode.title
            setStatus(model.unavailable.contains(name) ? "\(name) is not downloaded (offline)" : "\(name) has no audio yet")
            return
        }
        let playable = model.library.entries.filter { item(for: $0) != nil }
        let items = playable.compactMap(item(for:))
        guard let index = playable.firstIndex(of: entry) else { return }
        session.perform(.load(LoadPlan(items, index: index)))
        model.nowPlaying = nowPlaying(items[index])
    }

    /// The queue item of a library entry; nil when it has no audio.
    package func item(for entry: Library.Entry) -> QueueItem? {
        let episode = entry.episode
        if episode.fileName?.hasPrefix(Self.playlistPrefix) == true { return nil }
        guard let backend = setup.backend else {
            let items = ownItems
            if let index = model.library.entries.firstIndex(of: entry), items.indices.contains(index) {
                return items[index]
            }
            return nil
        }
        return try? backend.item(for: episode).get()
    }

    /// The now-playing panel's record of `item`: its library entry when it is one.
    package func nowPlaying(_ item: QueueItem) -> StudioModel.NowPlaying {
        let entry = model.library.entries.first { entry in
            if let label = item.label { return entry.episode.label == label }
            return entry.episode.title == item.title
        }
        return .init(title: item.title, label: item.label, mood: entry?.episode.mood ?? "", entryIndex: entry?.index)
    }
}
