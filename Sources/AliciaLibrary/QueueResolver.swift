#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaSession
import AliciaLocks

/// Turns the lines of a queue file (or a script's references) into queue items, saying in one line
/// what is wrong with each one that cannot be played. The backend is asked only when a line names an
/// episode, and then once.
package final class QueueResolver {
    package let backendOptions: BackendOptions
    private var backend: BackendSession?
    private var backendProblem: String?

    /// Asked while a playlist item is being voiced: true (a signal) gives up waiting.
    package var stopRequested: () -> Bool = { false }

    /// `session`: a backend already open (the Studio's), asked instead of opening another.
    package init(backend: BackendOptions, session: BackendSession? = nil) {
        backendOptions = backend
        self.backend = session
    }

    /// What `reference` names: one item, or a playlist's items (`playlist:NAME`).
    package func items(_ reference: String, title: String? = nil, relativeTo directory: String? = nil) -> Result<[QueueItem], QueueFile.Problem> {
        if reference.hasPrefix(Self.speakPrefix) { return spoken(String(reference.dropFirst(Self.speakPrefix.count)), title: title).map { [$0] } }
        if Readings.names(reference) {
            switch session() {
            case .success(let backend): return Readings.items(reference, client: backend.client, stop: stopRequested)
            case .failure(let problem): return .failure(.init(line: nil, "\(reference): \(problem.message)"))
            }
        }
        guard reference.hasPrefix("playlist:") else { return item(reference, title: title, relativeTo: directory).map { [$0] } }
        let name = String(reference.dropFirst("playlist:".count))
        guard !name.isEmpty else { return .failure(.init(line: nil, "playlist: needs a name, a piece of one, or an index")) }
        let backend: BackendSession
        switch session() {
        case .success(let made): backend = made
        case .failure(let problem): return .failure(.init(line: nil, "\(reference): \(problem.message)"))
        }
        let shelf: [Playlist]
        do {
            shelf = try backend.playlists()
        } catch {
            return .failure(.init(line: nil, error.message))
        }
        switch PlaylistItems.find(name, in: shelf) {
        case .success(let playlist): return PlaylistItems.items(of: playlist, backend: backend, stop: stopRequested)
        case .failure(let problem): return .failure(problem)
        }
    }

    /// A reference to a text read aloud: `speak:TEXT`.
    package static let speakPrefix = "speak:"

    /// `text` read aloud (`/api/speak`): played from its first chunk, growing as it is voiced.
    private func spoken(_ text: String, title: String?) -> Result<QueueItem, QueueFile.Problem> {
        guard !text.allSatisfy(\.isWhitespace) else { return .failure(.init(line: nil, "speak: there is no text to read aloud")) }
        let backend: BackendSession
        switch session() {
        case .success(let made): backend = made
        case .failure(let problem): return .failure(.init(line: nil, "speak: \(problem.message)"))
        }
        // A text of the listener's own has no title: the body alone is the backend's key.
        return SpeechVoicing.item(SpeechVoicing.Request(title: nil, body: text, kind: .note), title: title ?? SpeechVoicing.title(of: text),
                                  reference: Self.speakPrefix + text,
                                  client: backend.client, stop: stopRequested)
    }

    /// The item `reference` names; `directory` is where relative paths start (a queue file's own).
    package func item(_ reference: String, title: String? = nil, relativeTo directory: String? = nil) -> Result<QueueItem, QueueFile.Problem> {
        if reference.hasPrefix("voice:") {
            return voiceNote(String(reference.dropFirst("voice:".count)), relativeTo: directory)
        }
        if let local = localPath(reference, relativeTo: directory) ?? (reference.hasURLScheme ? reference : nil) {
            if !local.hasURLScheme && !LocalFiles.fileExists(local) {
                return .failure(.init(line: nil, "no such file '\(local)'"))
            }
            do {
                let location = try MediaLocation(local)
                let key = PositionStore.key(label: nil, location: location)
                return .success(QueueItem(location: location, title: title ?? location.fileName,
                                          positionKey: key, reference: key))
            } catch {
                switch error {
                case .empty: return .failure(.init(line: nil, "an empty reference"))
                case .unsupportedScheme(let scheme):
                    return .failure(.init(line: nil, "cannot play \(scheme):// links: use http://, https://, file:// or a path"))
                }
            }
        }
        return episode(reference, title: title)
    }

    /// Every line of `file` resolved, or the problems (each `PATH:LINE: why`).
    package func items(of file: QueueFile, named name: String, relativeTo directory: String?) -> (items: [QueueItem], problems: [String]) {
        var items: [QueueItem] = []
        var problems = file.problems.map { "\(name)\($0.line.map { ":\($0)" } ?? ""): \($0.message)" }
        for line in file.lines {
            switch self.items(line.reference, title: line.title, relativeTo: directory) {
            case .success(var listed):
                // The list's own length for a line that names one item, where the item has none.
                if listed.count == 1, listed[0].duration == nil, let seconds = line.duration, seconds > 0 { listed[0].duration = seconds }
                items += listed
            case .failure(let problem): problems.append("\(name):\(line.number): \(problem.message)")
            }
        }
        return (items, problems)
    }

    /// A path that exists (relative ones from `directory`), or one written as a path.
    private func localPath(_ reference: String, relativeTo directory: String?) -> String? {
        if reference.hasURLScheme { return nil }
        let joined = reference.hasPrefix("/") || directory == nil ? reference : directory! + "/" + reference
        if LocalFiles.fileExists(joined) { return joined }
        return Self.looksLikePath(reference) ? joined : nil
    }

    /// Written as a path: with a `/` (`./x`, `a/b`, `/x`, `~/x`) or an audio file's extension
    /// (`x.wav`). Such a reference that is not there is "no such file" before it is an episode.
    package static func looksLikePath(_ reference: String) -> Bool {
        if reference.hasURLScheme || reference.hasPrefix("playlist:") || reference.hasPrefix("voice:") { return false }
        let lower = reference.lowercased()
        return reference.utf8.contains(UInt8(ascii: "/")) || audioExtensions.contains(where: { lower.hasSuffix($0) })
    }

    package static let audioExtensions = [".wav", ".flac", ".mp3", ".ogg", ".oga", ".opus", ".aiff", ".aif", ".m4a", ".m4b", ".mp4", ".aac"]

    private func session() -> Result<BackendSession, QueueFile.Problem> {
        if let backend { return .success(backend) }
        if let backendProblem { return .failure(.init(line: nil, backendProblem)) }
        do {
            let made = try BackendSession(backendOptions)
            backend = made
            return .success(made)
        } catch .notConfigured {
            backendProblem = "not a file, and no backend is configured to look it up as an episode"
        } catch {
            backendProblem = error.message
        }
        return .failure(.init(line: nil, backendProblem!))
    }

    /// One of Alicia's episodes, else one of a subscribed show's (`FeedEpisodeItems`): `SHOW: piece`
    /// is looked up among the shows first.
    private func episode(_ reference: String, title: String?) -> Result<QueueItem, QueueFile.Problem> {
        if reference.contains(": "), let found = FeedEpisodeItems.find(reference, title: title) { return found }
        let backend: BackendSession
        switch session() {
        case .success(let made): backend = made
        case .failure(let problem):
            return FeedEpisodeItems.find(reference, title: title) ?? .failure(.init(line: nil, "'\(reference)': \(problem.message)"))
        }
        let alicias = backend.episode(reference).flatMap { backend.item(for: $0.episode, title: title) }
        if case .failure = alicias, let found = FeedEpisodeItems.find(reference, title: title) { return found }
        return alicias
    }

    /// A voice note as a queue item: one title for every note, `Voice note · FILE` (the Studio shows
    /// its length in place of the file), and `voice:REF` as a saved queue names it.
    private static func voiceNoteItem(_ location: MediaLocation, reference: String) -> QueueItem {
        QueueItem(location: location, title: "Voice note · " + location.fileName, reference: "voice:" + reference)
    }

    private func voiceNote(_ reference: String, relativeTo directory: String?) -> Result<QueueItem, QueueFile.Problem> {
        if let local = localPath(reference, relativeTo: directory) ?? (reference.hasURLScheme ? reference : nil) {
            guard let location = try? MediaLocation(local) else {
                return .failure(.init(line: nil, "voice:\(reference): not a URL or a path"))
            }
            return .success(Self.voiceNoteItem(location, reference: PositionStore.key(label: nil, location: location)))
        }
        switch session() {
        case .success(let backend):
            do {
                let location = try MediaLocation(backend.client.mediaURL(for: reference))
                return .success(Self.voiceNoteItem(location, reference: reference))
            } catch {
                return .failure(.init(line: nil, "voice:\(reference): the media path does not make a URL"))
            }
        case .failure(let problem):
            return .failure(.init(line: nil, "voice:\(reference): \(problem.message)"))
        }
    }

    /// The whole of a list file (or standard input for `-`), or why it cannot be read.
    package static func contents(of path: String) -> Result<[UInt8], QueueFile.Problem> {
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.init(line: nil, "cannot read \(path): \(String(cString: strerror(errno)))")) }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            return .failure(.init(line: nil, "cannot read \(path): it is a directory"))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(.init(line: nil, "cannot read \(path): \(String(cString: strerror(errno)))")) }
            if n == 0 { break }
            bytes += chunk[0..<n]
            // 10,000 lines of long URLs fit in a few MiB: more is not a list.
            if bytes.count > 16 * 1024 * 1024 { return .failure(.init(line: nil, "\(path) is larger than 16 MiB: not a list to play")) }
        }
        return .success(bytes)
    }

    /// The directory a list's relative paths start from.
    package static func directory(of path: String) -> String? {
        guard path != "-" else { return nil }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
