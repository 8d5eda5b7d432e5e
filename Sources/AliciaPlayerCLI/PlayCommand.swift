#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend

/// `alicia-player play <ref>`: plays one stream to its end.
final class PlayCommand {
    let options: PlayOptions
    /// The library entry a reference named, when it named one.
    private var resolvedEntry: (BackendSession, Library.Entry)?

    init(options: PlayOptions) {
        self.options = options
    }

    func run() -> Int32 {
        let signals = SignalWatcher(interactive: Studio.isInteractive)
        let target: (location: MediaLocation, title: String)
        switch resolve() {
        case .success(let resolved): target = resolved
        case .failure(let status): return status
        }
        if Studio.isInteractive && options.voiceAt.isEmpty {
            // On a terminal, `play` opens the Studio with the stream playing.
            if let (backend, entry) = resolvedEntry {
                return Studio.open(backend: backend, backendName: backend.client.configuration.hostAndPort,
                                   autoplay: .entry(label: entry.episode.label, index: entry.index),
                                   options: options, signals: signals)
            }
            return Studio.open(backend: nil, backendName: "", autoplay: .stream(target.location, title: target.title),
                               options: options, signals: signals)
        }
        var configuration = PlayerConfiguration(device: options.device)
        configuration.readAheadSeconds = options.readAheadSeconds
        configuration.mediaName = target.title
        let player = Player(configuration: configuration)
        player.setSpeed(options.speed)
        signals.whenSignalled { player.wakeEventWaiters() }
        var session = PlaybackSession(player: player, signals: signals, options: options)
        if !options.voiceAt.isEmpty {
            var triggers: [(at: StartPosition, location: MediaLocation, title: String)] = []
            for trigger in options.voiceAt {
                guard let note = References.voiceNote(trigger.reference, backend: options.backend) else {
                    return CommandLineTool.Status.failure
                }
                triggers.append((trigger.at, note.location, note.title))
            }
            let voiceNotes = VoiceNotes(episode: player, configuration: PlayerConfiguration(device: options.device),
                                        focus: options.voiceFocus, resumeRewind: options.resumeRewind)
            session.voiceNotes = voiceNotes
            session.triggers = triggers
            defer { voiceNotes.stop() }
            return PlaybackSession.status(of: session.play(target.location))
        }
        return PlaybackSession.status(of: session.play(target.location))
    }

    private enum Resolved {
        case success((location: MediaLocation, title: String))
        case failure(Int32)
    }

    /// A URL or an existing path plays as it is; anything else is looked up in the backend's library.
    private func resolve() -> Resolved {
        let reference = options.reference
        if reference.contains("://") || Self.fileExists(reference) || reference.hasPrefix("/") || reference.hasPrefix(".") {
            do {
                let location = try MediaLocation(reference)
                return .success((location, Self.fileName(location)))
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
        do {
            backend = try BackendSession(options.backend)
        } catch .notConfigured {
            Console.fail("no such file '\(reference)', and no backend is configured to look it up as an episode: "
                + "pass --base-url and --token, set ALICIA_BASE_URL and ALICIA_TOKEN, or try `alicia-player demo`")
            return .failure(CommandLineTool.Status.failure)
        } catch {
            Console.fail(error.message)
            return .failure(CommandLineTool.Status.failure)
        }
        guard let entry = backend.find(reference) else { return .failure(CommandLineTool.Status.failure) }
        resolvedEntry = (backend, entry)
        guard let fileName = entry.episode.fileName, entry.episode.hasAudio else {
            Console.fail("\(entry.episode.label ?? entry.episode.title) has no audio yet")
            return .failure(CommandLineTool.Status.failure)
        }
        do {
            let location = try MediaLocation(backend.client.mediaURL(for: fileName))
            return .success((location, entry.episode.title))
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
