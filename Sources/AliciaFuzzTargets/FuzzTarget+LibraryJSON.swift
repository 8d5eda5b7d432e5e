import AliciaBackend
import AliciaJSON

extension FuzzTarget {
    /// The backend's JSON: `/api/tracks` (the library, grouped and searched), `/api/playlists`,
    /// through AliciaJSON over cJSON. Property: a document printed reads back as the same value.
    static let libraryJSON = FuzzTarget(name: "library-json", about: "the tracks and playlists JSON (AliciaJSON over cJSON)") { bytes in
        if let value = JSONValue(parsing: bytes), let text = value.text(layout: .compact) {
            precondition(JSONValue(parsing: text) == value, "JSONValue: the printed document does not read back")
        }
        if let episodes = try? BackendClient.decodeTracks(bytes) {
            let library = Library(episodes)
            precondition(library.entries.count == episodes.count, "Library lost or doubled episodes")
            _ = library.json()
            for entry in library.entries.prefix(4) {
                _ = library.resolve(entry.episode.label ?? entry.episode.title)
                _ = library.resolve(String(entry.episode.title.prefix(3)))
            }
            _ = library.resolve("1")
        }
        _ = try? BackendClient.decodePlaylists(bytes)
    }
}
