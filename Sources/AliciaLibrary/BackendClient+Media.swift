import AliciaAudio
import AliciaBackend

extension BackendClient {
    /// Where a media path of a reply plays from: a path on our backend (our token added), or an
    /// absolute URL as given with, when it names another host, the same path on our backend as its
    /// fallback (`MediaLocation.fallback`: asked when that host does not answer from here). Nil
    /// when it makes no URL.
    package func mediaLocation(for path: String) -> MediaLocation? {
        let urls = configuration.mediaURLs(for: path)
        guard var location = try? MediaLocation(urls.primary) else { return nil }
        location.fallback = urls.fallback
        return location
    }
}
