#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaJSON
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

    /// One line a playlist, in columns: index, name, items, length, how many are warming.
    static func render(_ playlists: [Playlist]) -> String {
        guard !playlists.isEmpty else { return "No playlists yet: `alicia-player playlist create NAME` makes one.\n" }
        let rows = playlists.enumerated().map { index, playlist in
            [String(index + 1), playlist.name, "\(playlist.items.count) item\(playlist.items.count == 1 ? "" : "s")",
             TimeSpec.clock(playlist.duration), playlist.warming > 0 ? "(\(playlist.warming) warming)" : ""]
        }
        return columns(rows, rightAligned: [0, 2, 3])
    }

    /// Rows as aligned columns (two spaces between, indented by two); a column of titles is cut at 48.
    static func columns(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in min(48, rows.map { column < $0.count ? DisplayWidth.of($0[column]) : 0 }.max() ?? 0) }
        return rows.map { row in
            var cells: [String] = []
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: max(0, widths[column] - DisplayWidth.of(cell)))
                if rightAligned.contains(column) {
                    cells.append(padding + cell)
                } else {
                    cells.append(column == row.count - 1 ? cell : DisplayWidth.pad(cell, to: widths[column]))
                }
            }
            var line = "  " + cells.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            return line + "\n"
        }.joined()
    }

    /// `playlist show NAME [--json]`: the playlist's items, each with its kind, length and state
    /// (ready, warming, downloaded).
    static func show(_ name: String, json: Bool, backend options: BackendOptions) -> Int32 {
        do {
            let backend = try BackendSession(options)
            let shelf = try backend.playlists()
            CompletionCache.record(shelf)
            let playlist = try PlaylistItems.find(name, in: shelf).get()
            if let banner = backend.offlineBanner, !json { Console.out("(\(banner))\n") }
            Console.out(json ? showJSON(playlist) : describe(playlist))
            return ExitCode.success
        } catch let problem as QueueFile.Problem {
            Console.fail(problem.message)
        } catch let error as BackendError {
            Console.fail(error.message)
        } catch {
            Console.fail("\(error)")
        }
        return ExitCode.failure
    }

    private static func showJSON(_ playlist: Playlist) -> String {
        let items = playlist.items.enumerated().map { index, item in
            "    {\"index\": \(index + 1), \"id\": \(quoted(item.id)), \"title\": \(quoted(item.title)), \"kind\": \(quoted(item.kind)), "
                + "\"label\": \(item.source.map(quoted) ?? "null"), \"duration\": \(TimeSpec.seconds(item.duration)), "
                + "\"state\": \(quoted(PlaylistItems.state(of: item)))}"
        }
        return "{\"id\": \(quoted(playlist.id)), \"name\": \(quoted(playlist.name)), \"duration\": \(TimeSpec.seconds(playlist.duration)), "
            + "\"items\": [\n" + items.joined(separator: ",\n") + "\n]}\n"
    }

    private static func quoted(_ text: String) -> String { JSONText.quoted(text) }

    private static func jsonText(_ playlists: [Playlist]) -> String {
        let items = playlists.map { p in
            "  {\"id\": \(quoted(p.id)), \"name\": \(quoted(p.name)), \"items\": \(p.items.count), \"duration\": \(TimeSpec.seconds(p.duration)), \"ready\": \(p.ready), \"warming\": \(p.warming)}"
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
        } catch let problem as SpeakText.Problem {
            Console.fail(problem.message)
            return problem.status
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
        case "add" where rest[1].hasPrefix(QueueResolver.speakPrefix) || rest[1].hasPrefix(SpeakText.filePrefix):
            // `--text TEXT` / `--file F`: a piece read aloud, voiced by the backend as the app's are.
            let playlist = try named(rest[0])
            let text = String(try SpeakText.reference(rest[1]).get().dropFirst(QueueResolver.speakPrefix.count))
            return (try client.perform(.addText(playlistID: playlist.id, title: SpeechVoicing.title(of: text), body: text)), playlist.name)
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

    /// A playlist and its items in columns, numbered as `remove` and `move` take them: kind (the
    /// episode's label, or "read aloud"), title, length, state.
    static func describe(_ playlist: Playlist) -> String {
        let text = "\(playlist.name)  \(playlist.items.count) item\(playlist.items.count == 1 ? "" : "s")  \(TimeSpec.clock(playlist.duration))\n"
        let rows = playlist.items.enumerated().map { index, item in
            [String(index + 1), item.isEpisode ? (item.source ?? "episode") : "read aloud", item.title,
             item.duration > 0 ? TimeSpec.clock(item.duration) : "", PlaylistItems.state(of: item)]
        }
        return text + columns(rows, rightAligned: [0, 3])
    }
}
