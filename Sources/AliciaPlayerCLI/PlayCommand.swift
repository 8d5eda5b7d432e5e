#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaSession

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
        for reference in options.references {
            switch resolve(reference) {
            case .success(let item): items.append(item)
            case .failure(let status): return status
            }
        }
        if Studio.isInteractive && options.voiceAt.isEmpty {
            // On a terminal, `play` opens the Studio with the queue playing, and ends with it. What
            // plays is what was asked for (an episode named alone does not bring the library after it).
            return Studio.open(backend: backend, backendName: backend?.client.configuration.hostAndPort ?? "",
                               autoplay: .items(items), mode: .play, options: options, signals: signals)
        }
        var cues: [(at: StartPosition, location: MediaLocation, title: String)] = []
        for trigger in options.voiceAt {
            guard let note = References.voiceNote(trigger.reference, backend: options.backend) else {
                return CommandLineTool.Status.failure
            }
            cues.append((trigger.at, note.location, note.title))
        }
        let session = ListeningSession(PlaybackSession.sessionOptions(options, voiceNotes: !cues.isEmpty))
        let playback = PlaybackSession(session: session, signals: signals, options: options)
        return PlaybackSession.status(of: playback.play(items, voiceAt: cues))
    }

    private enum Resolved {
        case success(QueueItem)
        case failure(Int32)
    }

    /// A URL or an existing path plays as it is; anything else is looked up in the backend's library.
    private func resolve(_ reference: String) -> Resolved {
        if reference.contains("://") || Self.fileExists(reference) || reference.hasPrefix("/") || reference.hasPrefix(".") {
            do {
                let location = try MediaLocation(reference)
                return .success(QueueItem(location: location, title: Self.fileName(location)))
            } catch {
                switch error {
                case .empty: Console.fail("play needs a URL or a path")
                case .unsupportedScheme(let scheme):
                    Console.fail("cannot play \(scheme):// links: use http://, https://, file:// or a path")
                }
                return .failure(CommandLineTool.Status.usage)
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
                return .failure(CommandLineTool.Status.failure)
            } catch {
                Console.fail(error.message)
                return .failure(CommandLineTool.Status.failure)
            }
            self.backend = backend
        }
        guard let entry = backend.find(reference) else { return .failure(CommandLineTool.Status.failure) }
        guard let fileName = entry.episode.fileName, entry.episode.hasAudio else {
            Console.fail("\(entry.episode.label ?? entry.episode.title) has no audio yet")
            return .failure(CommandLineTool.Status.failure)
        }
        do {
            let location = try MediaLocation(backend.client.mediaURL(for: fileName))
            return .success(QueueItem(location: location, title: entry.episode.title, label: entry.episode.label))
        } catch {
            Console.fail("the backend gave a media path that is not a URL: \(fileName)")
            return .failure(CommandLineTool.Status.failure)
        }
    }

    static func fileExists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The stream's name in mixers: the file name, without its query.
    static func fileName(_ location: MediaLocation) -> String {
        let path = location.display.split(separator: "?").first.map(String.init) ?? location.display
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return MediaLocation.percentDecoded(name)
    }
}
