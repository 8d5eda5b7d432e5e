#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaSession
import AliciaLocks

/// The backend as the commands use it: configuration resolved (warnings shown),
/// a client, and the library fetched on first use.
package final class BackendSession {
    package let client: BackendClient
    private var cachedLibrary: Library?
    /// When the library (or the playlists) came from the offline copy: when that copy was fetched.
    package private(set) var offlineSince: Int64?
    /// "offline — last updated 10:42", when offline.
    package var offlineBanner: String? { offlineSince.map { OfflineLibrary.banner(updatedMS: $0) } }

    package init(_ options: BackendOptions) throws(BackendError) {
        let sources = ConfigurationLoader.Sources(
            baseURL: options.baseURL, token: options.token, tokenFile: options.tokenFile,
            environment: Self.environment())
        var warnings: [String] = []
        defer { for warning in warnings { Console.error("alicia-player: warning: \(warning)\n") } }
        client = try BackendClient(configuration: try ConfigurationLoader.resolve(sources, warnings: &warnings))
        keepReplies()
    }

    package init(client: BackendClient) {
        self.client = client
        keepReplies()
    }

    /// Every library and playlists reply is kept for offline use.
    private func keepReplies() {
        let baseURL = client.configuration.baseURL
        client.onLibraryReply = { endpoint, body in OfflineLibrary.keep(body, endpoint: endpoint, baseURL: baseURL) }
    }

    /// The library; when the backend cannot be reached, the last one fetched from it.
    package func library() throws(BackendError) -> Library {
        if let cachedLibrary { return cachedLibrary }
        let library: Library
        do {
            library = Library(try client.tracks())
        } catch where error.isUnreachable {
            guard let kept = OfflineLibrary.load("/api/tracks", baseURL: client.configuration.baseURL) else { throw error }
            library = Library(try BackendClient.decodeTracks(kept.body))
            offlineSince = kept.updatedMS
        }
        cachedLibrary = library
        return library
    }

    /// Forgets the library, so the next `library()` asks the backend again (the Studio, when it is back).
    package func forgetLibrary() {
        cachedLibrary = nil
        offlineSince = nil
    }

    /// The playlists; when the backend cannot be reached, the last ones fetched from it.
    package func playlists() throws(BackendError) -> [Playlist] {
        do {
            return try client.playlists()
        } catch where error.isUnreachable {
            guard let kept = OfflineLibrary.load("/api/playlists", baseURL: client.configuration.baseURL) else { throw error }
            // One "last updated" time: the library's, when it was read offline too.
            offlineSince = offlineSince ?? kept.updatedMS
            return try BackendClient.decodePlaylists(kept.body)
        }
    }

    /// An episode's show notes (kept for offline use); offline, the ones kept when they were last read.
    package static func showNotes(label: String, client: BackendClient) throws(BackendError) -> String {
        let baseURL = client.configuration.baseURL
        do {
            let markdown = try client.showNotes(label: label)
            OfflineLibrary.keepNotes(markdown, label: label, baseURL: baseURL)
            return markdown
        } catch where error.isUnreachable {
            guard let kept = OfflineLibrary.notes(label: label, baseURL: baseURL) else { throw error }
            return kept
        }
    }

    /// The queue item of `episode`: from the cache when it was downloaded, else streamed from the
    /// backend; nil with why not (no audio yet; offline and not downloaded).
    package func item(for episode: Episode, title: String? = nil) -> Result<QueueItem, QueueFile.Problem> {
        guard let fileName = episode.fileName, episode.hasAudio else {
            return .failure(.init(line: nil, "\(episode.label ?? episode.title) has no audio yet"))
        }
        guard let location = client.mediaLocation(for: fileName) else {
            return .failure(.init(line: nil, "the backend gave a media path that is not a URL: \(RedactedURL.redact(fileName))"))
        }
        let key = PositionStore.key(label: episode.label, location: location)
        var streamed = QueueItem(location: location, title: title ?? episode.title, label: episode.label,
                                 positionKey: key, reference: episode.label ?? key).of(episode)
        streamed.duration = episode.knownLength
        let item = OfflineCache.substitute(streamed, key: episode.label ?? fileName, mediaPath: fileName)
        if let banner = offlineBanner, item.location == streamed.location {
            return .failure(.init(line: nil, "\(episode.label ?? episode.title) is not downloaded (\(banner))"))
        }
        return .success(item)
    }

    /// The entry `reference` names; prints why not (and the candidates) when none.
    package func find(_ reference: String) -> Library.Entry? {
        let library: Library
        do {
            library = try self.library()
        } catch {
            Console.fail(error.message)
            return nil
        }
        if reference == NextEpisode.reference {
            switch nextEpisode(in: library) {
            case .success(let entry): return entry
            case .failure(let problem):
                Console.fail(problem.message)
                return nil
            }
        }
        switch library.resolve(reference) {
        case .found(let entry):
            return entry
        case .ambiguous(let candidates):
            Console.fail("'\(reference)' matches \(candidates.count) episodes; say which:")
            Console.error(TrackList.lines(candidates, hasAudioMark: false).joined(separator: "\n") + "\n")
        case .notFound(let suggestions):
            if library.isEmpty {
                Console.fail("no episode matches '\(reference)': the backend's library is empty")
            } else {
                Console.fail("no episode matches '\(reference)'; the episodes are:")
                Console.error(TrackList.lines(Array(suggestions.prefix(30)), hasAudioMark: false).joined(separator: "\n") + "\n")
            }
        }
        return nil
    }

    /// The episode `reference` names, or one line of why not (for a list, a script, a download:
    /// `find` says more, for a person at the command line).
    package func episode(_ reference: String) -> Result<Library.Entry, QueueFile.Problem> {
        let library: Library
        do {
            library = try self.library()
        } catch {
            return .failure(.init(line: nil, error.message))
        }
        if reference == NextEpisode.reference { return nextEpisode(in: library) }
        switch library.resolve(reference) {
        case .found(let entry):
            return .success(entry)
        case .ambiguous(let candidates):
            let labels = candidates.prefix(5).map { $0.episode.label ?? $0.episode.title }.joined(separator: ", ")
            return .failure(.init(line: nil, "'\(reference)' matches \(candidates.count) episodes (\(labels)); say which"))
        case .notFound:
            return .failure(.init(line: nil, "no episode matches '\(reference)'"))
        }
    }

    /// `next`: the app's next episode after the one heard last (`NextEpisode`).
    private func nextEpisode(in library: Library) -> Result<Library.Entry, QueueFile.Problem> {
        let positions = PositionStore.defaultDirectory().map { PositionStore(directory: $0) }
        guard let next = NextEpisode.find(in: library, client: client, positions: positions),
              let entry = library.entries.first(where: { $0.episode.label == next.label && $0.episode.title == next.title }) else {
            return .failure(.init(line: nil, "no next episode: nothing heard yet is followed by another with audio"))
        }
        return .success(entry)
    }

    package static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for key in ["ALICIA_BASE_URL", "ALICIA_TOKEN", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "HOME"] {
            if let value = getenv(key) { values[key] = String(cString: value) }
        }
        return values
    }
}
