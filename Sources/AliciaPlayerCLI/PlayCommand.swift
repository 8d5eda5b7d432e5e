#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaSession
import AliciaLocks
import AliciaLibrary
import AliciaHost
import AliciaStudio

/// `alicia-player play <ref>...`: plays the references in order, as one gapless queue, to its end.
final class PlayCommand {
    let options: PlayOptions
    /// The backend, once a reference needed it.
    private var backend: BackendSession?

    init(options: PlayOptions) {
        self.options = options
    }

    func run() -> Int32 {
        defer { LocalFiles.removeSpooled() }
        let signals = SignalWatcher(interactive: Studio.isInteractive)
        let items: [QueueItem]
        switch queueItems(signals: signals) {
        case .success(let listed): items = listed
        case .failure(let status): return status
        }
        if let path = options.saveQueue { return save(items, to: path) }
        guard !items.isEmpty else {
            Console.fail("nothing to play: the list is empty")
            return ExitCode.usage
        }
        var cues: [VoiceCue] = []
        for trigger in options.voiceAt {
            guard let note = References.voiceNote(trigger.reference, backend: options.backend) else {
                return ExitCode.failure
            }
            cues.append(VoiceCue(at: trigger.at, note: QueueItem(location: note.location, title: note.title)))
        }
        if options.accessible || Studio.isInteractive && options.voiceAt.isEmpty {
            // On a terminal, `play` opens the Studio with the queue playing, and ends with it. What
            // plays is what was asked for (an episode named alone does not bring the library after it).
            // The accessible Studio is linear text, so it serves off a terminal too.
            return Studio.open(backend: backend, backendName: backend?.client.configuration.hostAndPort ?? "",
                               autoplay: .items(items), mode: .play, options: options, signals: signals, voiceCues: cues)
        }
        // With a control socket, `voice REF` can come at any time.
        switch SessionHost.open(options, signals: signals, voiceNotes: !cues.isEmpty) {
        case .failure(let failure): return failure.status
        case .success(let host): return PlaybackFrontEnd.play(items, cues: cues, host: host)
        }
    }

    /// Every reference on the command line as queue items, in order (what `render` takes too); the
    /// exit status after saying why when one names nothing that can play.
    func queueItems(signals: SignalWatcher) -> Listed {
        var items: [QueueItem] = []
        for asked in options.references {
            switch self.items(for: asked, signals: signals) {
            case .success(let listed): items += listed
            case .failure(let status): return .failure(status)
            }
        }
        return .success(items)
    }

    /// What one reference on the command line names, as queue items; the exit status after saying
    /// why when it names nothing that can play.
    private func items(for asked: String, signals: SignalWatcher) -> Listed {
        let reference: String
        switch SpeakText.reference(asked) {
        case .success(let read): reference = read
        case .failure(let problem):
            Console.fail(problem.message)
            return .failure(problem.status)
        }
        if !options.referencesAreLists, let local = localItems(reference) { return local }
        if reference.hasPrefix("playlist:") || reference.hasPrefix(QueueResolver.speakPrefix) || Readings.names(reference) {
            resolver.stopRequested = { signals.signal != nil }
            switch resolver.items(reference) {
            case .success(let listed): return .success(listed)
            case .failure(let problem):
                Console.fail(problem.message)
                return .failure(signals.signal.map { 128 + $0 } ?? ExitCode.failure)
            }
        }
        if StationList.names(reference) {
            switch StationList.items(reference) {
            case .success(let listed): return .success(listed)
            case .failure(let problem):
                Console.fail(problem.message)
                return .failure(ExitCode.failure)
            }
        }
        if options.referencesAreLists || Self.isList(reference) { return list(reference) }
        switch resolve(reference) {
        case .success(let item): return .success([item])
        case .failure(let status): return .failure(status)
        }
    }

    private enum Resolved {
        case success(QueueItem)
        case failure(Int32)
    }

    enum Listed {
        case success([QueueItem])
        case failure(Int32)
    }

    /// `play -` (audio on standard input: played once through, no resume position) and `play DIR`
    /// (its audio files in natural name order); nil for any other reference.
    private func localItems(_ reference: String) -> Listed? {
        if reference == "-" {
            switch LocalFiles.spoolStandardInput() {
            case .failure(let problem):
                Console.fail(problem.message)
                return .failure(ExitCode.usage)
            case .success(let path):
                guard let location = try? MediaLocation(path) else { return .failure(ExitCode.failure) }
                var item = QueueItem(location: location, title: "standard input")
                item.isOnceThrough = true
                return .success([item])
            }
        }
        guard LocalFiles.isDirectory(reference) else { return nil }
        switch LocalFiles.audioFiles(in: reference) {
        case .failure(let problem):
            Console.fail(problem.message)
            return .failure(ExitCode.failure)
        case .success(let paths) where paths.isEmpty:
            Console.fail("\(reference) is a directory with no audio files in it (\(QueueResolver.audioExtensions.joined(separator: " ")))")
            return .failure(ExitCode.failure)
        case .success(let paths):
            var items: [QueueItem] = []
            for path in paths {
                guard let location = try? MediaLocation(path) else { continue }
                let key = PositionStore.key(label: nil, location: location)
                items.append(QueueItem(location: location, title: location.fileName, positionKey: key, reference: key))
            }
            return .success(items)
        }
    }

    /// `.m3u`, `.m3u8` and `.pls` files are lists wherever a reference is taken.
    static func isList(_ reference: String) -> Bool {
        let lower = reference.lowercased()
        return (lower.hasSuffix(".m3u") || lower.hasSuffix(".m3u8") || lower.hasSuffix(".pls")) && !reference.hasURLScheme
    }

    /// The items of the list at `path`: every line checked before anything plays; a line that
    /// cannot be played stops it here (exit 2) unless `--keep-going` (then a warning each).
    private func list(_ path: String) -> Listed {
        let bytes: [UInt8]
        switch QueueResolver.contents(of: path) {
        case .success(let read): bytes = read
        case .failure(let problem):
            Console.fail(problem.message)
            return .failure(ExitCode.usage)
        }
        let resolver = self.resolver
        let (items, problems) = resolver.items(of: QueueFile.parse(bytes), named: path == "-" ? "stdin" : path,
                                               relativeTo: QueueResolver.directory(of: path))
        if !problems.isEmpty {
            if !options.keepGoing {
                for problem in problems { Console.fail(problem) }
                return .failure(ExitCode.usage)
            }
            for problem in problems { Console.fail("warning: \(problem) (skipped)") }
        }
        return .success(items)
    }

    private lazy var resolver = QueueResolver(backend: options.backend)

    /// `--save FILE`: the queue as M3U8, its episodes by label (a saved list never holds the token).
    private func save(_ items: [QueueItem], to path: String) -> Int32 {
        guard let problem = LocalFiles.writeM3U8(items, to: path) else { return ExitCode.success }
        Console.fail(problem)
        return ExitCode.failure
    }

    /// A URL or an existing path plays as it is; anything else is looked up in the backend's library.
    private func resolve(_ reference: String) -> Resolved {
        if QueueResolver.looksLikePath(reference) && !LocalFiles.fileExists(reference) {
            Console.fail("no such file '\(reference)'")
            if let entry = episodeQuietly(reference), let label = entry.episode.label {
                Console.error("(the episode \(label) \"\(entry.episode.title)\" matches it: alicia-player play \(label))\n")
            }
            return .failure(ExitCode.failure)
        }
        if reference.hasURLScheme || LocalFiles.fileExists(reference) || reference.hasPrefix("/") || reference.hasPrefix(".") {
            do {
                let location = try MediaLocation(reference)
                let key = PositionStore.key(label: nil, location: location)
                let item = QueueItem(location: location, title: location.fileName, positionKey: key, reference: key)
                return .success(location.isFile ? item : OfflineCache.substitute(item, key: key, mediaPath: nil))
            } catch {
                switch error {
                case .empty: Console.fail("play needs a URL or a path")
                case .unsupportedScheme(let scheme):
                    Console.fail("cannot play \(scheme):// links: use http://, https://, file:// or a path")
                }
                return .failure(ExitCode.usage)
            }
        }
        if let feed = feedEpisode(reference) { return feed }
        let backend: BackendSession
        switch session(for: reference) {
        case .success(let made): backend = made
        case .failure(let status): return .failure(status)
        }
        guard let entry = backend.find(reference) else { return .failure(ExitCode.failure) }
        switch backend.item(for: entry.episode) {
        case .success(let item): return .success(item)
        case .failure(let problem):
            Console.fail(problem.message)
            return .failure(ExitCode.failure)
        }
    }

    /// An episode of a subscribed show (`FeedEpisodeItems`), where Alicia's do not come first: a
    /// `SHOW: piece` reference, or any when no backend is configured or none of hers matches.
    private func feedEpisode(_ reference: String) -> Resolved? {
        if !reference.contains(": ") {
            if backend == nil { backend = try? BackendSession(options.backend) }
            if let backend, case .success = backend.episode(reference) { return nil }
        }
        switch FeedEpisodeItems.find(reference) {
        case .success(let item)?: return .success(item)
        case .failure(let problem)?:
            Console.fail(problem.message)
            return .failure(ExitCode.failure)
        case nil: return nil
        }
    }

    /// The episode a path-like reference that is not there also names, asking a configured
    /// backend (nothing said when there is none, or it cannot be reached).
    private func episodeQuietly(_ reference: String) -> Library.Entry? {
        if backend == nil { backend = try? BackendSession(options.backend) }
        guard let backend else { return nil }
        // `s1e01.wav` names S1E01 too: the name without its directory and extension.
        let name = reference.split(separator: "/").last.map(String.init) ?? reference
        let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
        for wanted in [reference, stem] where !wanted.isEmpty {
            if case .success(let entry) = backend.episode(wanted) { return entry }
        }
        return nil
    }

    private enum Session {
        case success(BackendSession)
        case failure(Int32)
    }

    /// The backend (made once), or the status after saying why there is none.
    private func session(for reference: String) -> Session {
        let backend: BackendSession
        if let existing = self.backend {
            backend = existing
        } else {
            do {
                backend = try BackendSession(options.backend)
            } catch .notConfigured(let configPath) {
                Console.fail("no such file '\(reference)', and no backend is configured to look it up as an episode: "
                    + "pass --base-url and --token, set ALICIA_BASE_URL and ALICIA_TOKEN, write them to \(configPath), "
                    + "or try `alicia-player demo`")
                return .failure(ExitCode.failure)
            } catch {
                Console.fail(error.message)
                return .failure(ExitCode.failure)
            }
            self.backend = backend
        }
        return .success(backend)
    }
}
