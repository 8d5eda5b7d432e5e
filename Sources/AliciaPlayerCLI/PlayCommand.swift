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
        let signals = SignalWatcher(interactive: Studio.isInteractive)
        var items: [QueueItem] = []
        for asked in options.references {
            let reference: String
            switch SpeakText.reference(asked) {
            case .success(let read): reference = read
            case .failure(let problem):
                Console.fail(problem.message)
                return ExitCode.failure
            }
            if reference.hasPrefix("playlist:") || reference.hasPrefix(QueueResolver.speakPrefix) {
                resolver.stopRequested = { signals.signal != nil }
                switch resolver.items(reference) {
                case .success(let listed): items += listed
                case .failure(let problem):
                    Console.fail(problem.message)
                    return signals.signal.map { 128 + $0 } ?? ExitCode.failure
                }
                continue
            }
            if options.referencesAreLists || Self.isList(reference) {
                switch list(reference) {
                case .success(let listed): items += listed
                case .failure(let status): return status
                }
                continue
            }
            switch resolve(reference) {
            case .success(let item): items.append(item)
            case .failure(let status): return status
            }
        }
        if let path = options.saveQueue { return save(items, to: path) }
        guard !items.isEmpty else {
            Console.fail("nothing to play: the list is empty")
            return ExitCode.usage
        }
        var cues: [(at: StartPosition, note: QueueItem)] = []
        for trigger in options.voiceAt {
            guard let note = References.voiceNote(trigger.reference, backend: options.backend) else {
                return ExitCode.failure
            }
            cues.append((trigger.at, QueueItem(location: note.location, title: note.title)))
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

    private enum Resolved {
        case success(QueueItem)
        case failure(Int32)
    }

    private enum Listed {
        case success([QueueItem])
        case failure(Int32)
    }

    /// `.m3u` and `.m3u8` files are lists wherever a reference is taken.
    static func isList(_ reference: String) -> Bool {
        let lower = reference.lowercased()
        return (lower.hasSuffix(".m3u") || lower.hasSuffix(".m3u8")) && !reference.hasURLScheme
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
        guard let entry = backend.find(reference) else { return .failure(ExitCode.failure) }
        switch backend.item(for: entry.episode) {
        case .success(let item): return .success(item)
        case .failure(let problem):
            Console.fail(problem.message)
            return .failure(ExitCode.failure)
        }
    }
}
