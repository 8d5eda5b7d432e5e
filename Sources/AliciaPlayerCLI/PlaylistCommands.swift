#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaSession
import AliciaTerminal
import AliciaLocks
import AliciaLibrary
import AliciaHost

/// Alicia's playlists: `playlists [--json]`, `playlist ACTION …`, and `playlist:NAME` as a
/// reference (play, queue files, scripts): episodes as episodes, syntheses as their read-aloud
/// chunks heard as one item, items still warming voiced on demand through `/api/speak`.
enum PlaylistCommands {
    /// `playlists [--json]`.
    static func list(json: Bool, backend options: BackendOptions) -> Int32 {
        do {
            let backend = try BackendSession(options)
            let playlists = try backend.playlists()
            if let banner = backend.offlineBanner, !json { Console.out("(\(banner))\n") }
            CompletionCache.record(playlists)
            Console.out(json ? jsonText(playlists) : render(playlists))
            return ExitCode.success
        } catch {
            Console.fail(error.message)
            return ExitCode.failure
        }
    }

    /// One line a playlist: index, name, items, length, how many are warming.
    static func render(_ playlists: [Playlist]) -> String {
        guard !playlists.isEmpty else { return "No playlists yet: `alicia-player playlist create NAME` makes one.\n" }
        let width = min(32, playlists.map { DisplayWidth.of($0.name) }.max() ?? 1)
        return playlists.enumerated().map { index, playlist in
            var line = "  \(index + 1)  " + DisplayWidth.pad(playlist.name, to: width)
                + "  \(playlist.items.count) item\(playlist.items.count == 1 ? "" : "s")  " + TimeSpec.clock(playlist.duration)
            if playlist.warming > 0 { line += "  (\(playlist.warming) warming)" }
            return line + "\n"
        }.joined()
    }

    private static func jsonText(_ playlists: [Playlist]) -> String {
        func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case _ where scalar.value < 0x20: out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let items = playlists.map { p in
            "  {\"id\": \(quoted(p.id)), \"name\": \(quoted(p.name)), \"items\": \(p.items.count), \"duration\": \(ScriptCommand.seconds(p.duration)), \"ready\": \(p.ready), \"warming\": \(p.warming)}"
        }
        return "[\n" + items.joined(separator: ",\n") + "\n]\n"
    }

    /// `playlist ACTION …`: the action through `/api/playlist`, then the refreshed playlist.
    static func act(_ arguments: [String], backend options: BackendOptions) -> Int32 {
        let backend: BackendSession
        do {
            backend = try BackendSession(options)
        } catch {
            Console.fail(error.message)
            return ExitCode.failure
        }
        do {
            let shelf = try backend.client.playlists()
            let (refreshed, shown) = try change(arguments[0], Array(arguments.dropFirst()), shelf, backend)
            if let shown, case .success(let playlist) = PlaylistItems.find(shown, in: refreshed) {
                Console.out(describe(playlist))
            } else {
                Console.out(render(refreshed))
            }
            return ExitCode.success
        } catch let problem as QueueFile.Problem {
            Console.fail(problem.message)
        } catch let error as BackendError {
            Console.fail(error.message)
        } catch is AlreadySaid {
            // `find` has said why, with the candidates.
        } catch {
            Console.fail("\(error)")
        }
        return ExitCode.failure
    }

    private struct AlreadySaid: Error {}

    /// Carries out one action; the shelf as the backend has it then, and the playlist to show.
    private static func change(_ action: String, _ rest: [String], _ shelf: [Playlist],
                               _ backend: BackendSession) throws -> ([Playlist], String?) {
        let client = backend.client
        func named(_ reference: String) throws(QueueFile.Problem) -> Playlist {
            try PlaylistItems.find(reference, in: shelf).get()
        }
        switch action {
        case "create":
            return (try client.perform(.create(name: rest[0])), rest[0])
        case "rename":
            return (try client.perform(.rename(playlistID: try named(rest[0]).id, name: rest[1])), rest[1])
        case "delete":
            return (try client.perform(.delete(playlistID: try named(rest[0]).id)), nil)
        case "add":
            let playlist = try named(rest[0])
            guard let entry = backend.find(rest[1]) else { throw AlreadySaid() }
            guard let fileName = entry.episode.fileName, let label = entry.episode.label else {
                throw QueueFile.Problem(line: nil, "\(entry.episode.title) has no audio (or no label) to add")
            }
            return (try client.perform(.addEpisode(playlistID: playlist.id, label: label, title: entry.episode.title,
                                                   duration: entry.episode.duration, audioURL: fileName)), playlist.name)
        case "remove":
            let playlist = try named(rest[0])
            return (try client.perform(.remove(playlistID: playlist.id, itemID: try item(rest[1], of: playlist).id)), playlist.name)
        default:  // "move", checked by the parser
            let playlist = try named(rest[0])
            let moving = try item(rest[1], of: playlist)
            var order = playlist.items.map(\.id).filter { $0 != moving.id }
            let position = min(max(1, Int(rest[2]) ?? 1), order.count + 1)
            order.insert(moving.id, at: position - 1)
            return (try client.perform(.reorder(playlistID: playlist.id, order: order)), playlist.name)
        }
    }

    /// The item of `playlist` a reference names: its number, its id, or a unique piece of its title.
    private static func item(_ reference: String, of playlist: Playlist) throws(QueueFile.Problem) -> PlaylistItem {
        if let index = Int(reference), playlist.items.indices.contains(index - 1) { return playlist.items[index - 1] }
        let wanted = reference.lowercased()
        let matches = playlist.items.filter { $0.id == reference || $0.title.lowercased().contains(wanted) }
        guard matches.count == 1 else {
            throw QueueFile.Problem(line: nil, matches.isEmpty
                ? "no item of \(playlist.name) matches '\(reference)'" : "'\(reference)' matches \(matches.count) items of \(playlist.name)")
        }
        return matches[0]
    }

    /// A playlist and its items, numbered as `remove` and `move` take them.
    static func describe(_ playlist: Playlist) -> String {
        var text = "\(playlist.name)  \(playlist.items.count) item\(playlist.items.count == 1 ? "" : "s")  \(TimeSpec.clock(playlist.duration))\n"
        for (index, item) in playlist.items.enumerated() {
            let state = item.isReady ? TimeSpec.clock(item.duration) : "warming"
            text += "  \(index + 1)  \(item.isEpisode ? (item.source ?? "episode") : "read aloud")  \(item.title)  \(state)\n"
        }
        return text
    }
}
