#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaCache
import AliciaJSON
import AliciaLocks

/// The last library fetched, `$XDG_CACHE_HOME/alicia-player/library.json`: what `tracks`,
/// `playlists`, the Studio and shell completions show when the backend cannot be reached.
///
/// `{"version": 1, "base_url": URL, "tracks": [...], "tracks_updated_ms": N, "playlists": [...],
/// "playlists_updated_ms": N}`: the backend's own replies as they came (never the token), replaced
/// atomically under `library.json.lock`, so a reader sees one whole version.
package enum OfflineLibrary {
    package static func path() -> String? {
        MediaCache.defaultDirectory(environment: OfflineCache.environment()).map { $0 + "/library.json" }
    }

    /// Keeps the reply of `endpoint` (`/api/tracks` or `/api/playlists`) from the backend at `baseURL`.
    package static func keep(_ body: [UInt8], endpoint: String, baseURL: String) {
        guard case .success(let cache) = OfflineCache.open(), let reply = JSONValue(parsing: body) else { return }
        let path = cache.directory + "/library.json"
        guard let lock = FileLock(path: path + ".lock") else { return }
        lock.lock()
        defer { lock.unlock() }
        let field = Self.field(endpoint)
        var members: [JSONValue.Member] = []
        if case .object(let old)? = MediaCache.read(path).flatMap({ JSONValue(parsing: $0) }),
           old.contains(where: { $0.key == "base_url" && $0.value == .string(baseURL) }) {
            members = old.filter { $0.key != field && $0.key != field + "_updated_ms" }
        }
        members.removeAll { $0.key == "version" || $0.key == "base_url" }
        members = [.init("version", .number(1)), .init("base_url", .string(baseURL))] + members
        members.append(.init(field, reply))
        members.append(.init(field + "_updated_ms", .number(Double(nowMilliseconds()))))
        guard let text = JSONValue.object(members).text(layout: .compact) else { return }
        do {
            try MediaCache.writeAtomically(text, to: path)
        } catch {
            Log.info(.cli, "cannot keep the library for offline use: \(error.message)")
        }
    }

    /// Keeps an episode's show notes beside the library (`"notes": {LABEL: MARKDOWN}`), so that
    /// `notes` and the Studio's `i` have them offline.
    package static func keepNotes(_ markdown: String, label: String, baseURL: String) {
        var notes: [JSONValue.Member] = []
        if let path = path(), case .object(let members)? = MediaCache.read(path).flatMap({ JSONValue(parsing: $0) }),
           members.contains(where: { $0.key == "base_url" && $0.value == .string(baseURL) }),
           case .object(let kept)? = members.first(where: { $0.key == "notes" })?.value {
            notes = kept.filter { $0.key != label }
        }
        notes.append(.init(label, .string(markdown)))
        guard let body = JSONValue.object(notes).text(layout: .compact) else { return }
        keep(body, endpoint: "notes", baseURL: baseURL)
    }

    /// The show notes of `label` kept from the backend at `baseURL`.
    package static func notes(label: String, baseURL: String) -> String? {
        guard let kept = load("notes", baseURL: baseURL), case .object(let notes)? = JSONValue(parsing: kept.body),
              case .string(let markdown)? = notes.first(where: { $0.key == label })?.value else { return nil }
        return markdown
    }

    /// The kept reply of `endpoint` from the backend at `baseURL`, and when it was fetched.
    package static func load(_ endpoint: String, baseURL: String) -> (body: [UInt8], updatedMS: Int64)? {
        guard let path = path(), case .object(let members)? = MediaCache.read(path).flatMap({ JSONValue(parsing: $0) }),
              members.contains(where: { $0.key == "base_url" && $0.value == .string(baseURL) }) else { return nil }
        let field = Self.field(endpoint)
        guard let reply = members.first(where: { $0.key == field })?.value, let body = reply.text(),
              case .number(let updated)? = members.first(where: { $0.key == field + "_updated_ms" })?.value else { return nil }
        return (body, Int64(updated))
    }

    private static func field(_ endpoint: String) -> String {
        switch endpoint {
        case "/api/tracks": return "tracks"
        case "/api/playlists": return "playlists"
        default: return endpoint
        }
    }

    package static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// "offline — last updated 10:42" (local time; with the date when not today).
    package static func banner(updatedMS: Int64) -> String {
        var seconds = time_t(updatedMS / 1000)
        var then = tm()
        localtime_r(&seconds, &then)
        var current = time_t(nowMilliseconds() / 1000)
        var today = tm()
        localtime_r(&current, &today)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "offline — last updated \(two(then.tm_hour)):\(two(then.tm_min))"
        if then.tm_yday != today.tm_yday || then.tm_year != today.tm_year {
            text += " on \(then.tm_year + 1900)-\(two(then.tm_mon + 1))-\(two(then.tm_mday))"
        }
        return text
    }
}
