import AliciaAudio
import AliciaBackend
import AliciaLocks

/// Turns what a person typed into something to play.
package enum References {
    /// A voice note: a URL, an existing path, or a media path on the backend
    /// (`/api/audio/voice-1.wav`, joined to the base URL with the token). Prints why not.
    package static func voiceNote(_ reference: String, backend options: BackendOptions) -> (location: MediaLocation, title: String)? {
        if reference.hasURLScheme || LocalFiles.fileExists(reference) || !reference.hasPrefix("/api/") {
            do {
                let location = try MediaLocation(reference)
                return (location, location.fileName)
            } catch {
                Console.fail("cannot play '\(reference)': use an http(s):// or file:// URL, a path, or a media path such as /api/audio/voice-1.wav")
                return nil
            }
        }
        do {
            let backend = try BackendSession(options)
            let location = try MediaLocation(backend.client.mediaURL(for: reference))
            return (location, location.fileName)
        } catch let error as BackendError {
            Console.fail(error.message)
        } catch {
            Console.fail("the media path '\(reference)' does not make a URL")
        }
        return nil
    }
}

extension QueueItem {
    /// The item with what media keys and status bars show beside its title: the episode's
    /// collection (MPRIS `xesam:album`) and series (`xesam:artist`).
    package func of(_ episode: Episode) -> QueueItem {
        var item = self
        item.album = episode.collectionTitle.isEmpty ? nil : episode.collectionTitle
        item.artist = episode.series.flatMap { $0.isEmpty ? nil : $0 }
        return item
    }
}
