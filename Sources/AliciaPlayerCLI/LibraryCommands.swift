import AliciaBackend
import AliciaSession
import AliciaLocks
import AliciaLibrary
import AliciaHost
import AliciaSubscriptions

/// `alicia-player tracks [--json]` and `alicia-player notes <ref>`.
enum LibraryCommands {
    /// `words` (`--accessible`): one sentence an episode, no columns or marks.
    static func tracks(json: Bool, words: Bool = false, backend options: BackendOptions) -> Int32 {
        do {
            let backend = try BackendSession(options)
            let library = try backend.library()
            CompletionCache.record(library)
            var progress: TrackList.Progress = [:]
            if let directory = PositionStore.defaultDirectory() {
                let store = PositionStore(directory: directory)
                for warning in store.warnings { Console.fail("warning: " + warning) }
                for (key, saved) in store.all { progress[key] = (saved.position, saved.played) }
            }
            let downloaded = OfflineCache.downloaded(in: library)
            var unavailable: Set<String> = []
            if let banner = backend.offlineBanner {
                for entry in library.entries where entry.episode.hasAudio && !downloaded.contains(entry.episode.label ?? entry.episode.title) {
                    unavailable.insert(entry.episode.label ?? entry.episode.title)
                }
                if !json { Console.out("(\(banner); episodes not downloaded cannot play)\n") }
            }
            if json {
                Console.out(library.json(progress: progress, downloaded: downloaded) + "\n")
            } else {
                Console.out(words ? TrackList.words(library, progress: progress, unavailable: unavailable)
                    : TrackList.render(library, progress: progress, unavailable: unavailable))
            }
            return ExitCode.success
        } catch {
            Console.fail(error.message)
            return ExitCode.failure
        }
    }

    static func notes(reference: String, backend options: BackendOptions) -> Int32 {
        if let status = feedNotes(reference, backend: options) { return status }
        do {
            let backend = try BackendSession(options)
            guard let entry = backend.find(reference) else { return ExitCode.failure }
            guard let label = entry.episode.label else {
                Console.fail("'\(entry.episode.title)' has no label, so it has no show notes")
                return ExitCode.failure
            }
            let markdown = try BackendSession.showNotes(label: label, client: backend.client)
            Console.out(MarkdownText.plain(markdown) + (markdown.hasSuffix("\n") ? "" : "\n"))
            return ExitCode.success
        } catch {
            Console.fail(error.message)
            return ExitCode.failure
        }
    }

    /// A subscribed show's episode: its notes from the library database. Alicia's come first unless
    /// the reference names a show (`SHOW: piece`), as `play` takes them; nil when it is not one.
    private static func feedNotes(_ reference: String, backend options: BackendOptions) -> Int32? {
        if !reference.contains(": "), let backend = try? BackendSession(options), case .success = backend.episode(reference) { return nil }
        switch FeedEpisodeItems.listing(reference) {
        case nil: return nil
        case .failure(let problem)?:
            Console.fail(problem.message)
            return ExitCode.failure
        case .success(let (listing, store))?:
            guard let episode = try? store.episode(listing.id) else {
                Console.fail("'\(listing.title)' is no longer in the library")
                return ExitCode.failure
            }
            Console.out(FeedEpisodeNotes.text(episode, show: listing.showTitle))
            return ExitCode.success
        }
    }
}
