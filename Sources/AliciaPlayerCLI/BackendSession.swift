#if canImport(Glibc)
import Glibc
#endif
import AliciaBackend

/// The backend as the commands use it: configuration resolved (warnings shown),
/// a client, and the library fetched on first use.
final class BackendSession {
    let client: BackendClient
    private var cachedLibrary: Library?

    init(_ options: BackendOptions) throws(BackendError) {
        let sources = ConfigurationLoader.Sources(
            baseURL: options.baseURL, token: options.token, tokenFile: options.tokenFile,
            environment: Self.environment())
        var warnings: [String] = []
        defer { for warning in warnings { Console.error("alicia-player: warning: \(warning)\n") } }
        client = try BackendClient(configuration: try ConfigurationLoader.resolve(sources, warnings: &warnings))
    }

    init(client: BackendClient) {
        self.client = client
    }

    func library() throws(BackendError) -> Library {
        if let cachedLibrary { return cachedLibrary }
        let library = Library(try client.tracks())
        cachedLibrary = library
        return library
    }

    /// The entry `reference` names; prints why not (and the candidates) when none.
    func find(_ reference: String) -> Library.Entry? {
        let library: Library
        do {
            library = try self.library()
        } catch {
            Console.fail(error.message)
            return nil
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

    static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for key in ["ALICIA_BASE_URL", "ALICIA_TOKEN", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "HOME"] {
            if let value = getenv(key) { values[key] = String(cString: value) }
        }
        return values
    }
}
