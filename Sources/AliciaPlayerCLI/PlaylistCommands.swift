#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaSession
import AliciaTerminal

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
            return CommandLineTool.Status.success
        } catch {
            Console.fail(error.message)
            return CommandLineTool.Status.failure
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

    /// The playlist `reference` names: its name (any case), a unique piece of it, or its index.
    static func find(_ reference: String, in playlists: [Playlist]) -> Result<Playlist, QueueFile.Problem> {
        if let index = Int(reference), playlists.indices.contains(index - 1) { return .success(playlists[index - 1]) }
        let wanted = reference.lowercased()
        if let exact = playlists.first(where: { $0.name.lowercased() == wanted }) { return .success(exact) }
        let matches = playlists.filter { $0.name.lowercased().contains(wanted) }
        if matches.count == 1 { return .success(matches[0]) }
        let names = playlists.map(\.name).joined(separator: ", ")
        if matches.isEmpty { return .failure(.init(line: nil, "no playlist matches '\(reference)' (the playlists: \(names.isEmpty ? "none" : names))")) }
        return .failure(.init(line: nil, "'\(reference)' matches \(matches.count) playlists (\(matches.map(\.name).joined(separator: ", "))); say which"))
    }

    /// `playlist ACTION …`: the action through `/api/playlist`, then the refreshed playlist.
    static func act(_ arguments: [String], backend options: BackendOptions) -> Int32 {
        let backend: BackendSession
        do {
            backend = try BackendSession(options)
        } catch {
            Console.fail(error.message)
            return CommandLineTool.Status.failure
        }
        let client = backend.client
        do {
            let shelf = try client.playlists()
            func named(_ reference: String) throws(QueueFile.Problem) -> Playlist {
                try find(reference, in: shelf).get()
            }
            func item(_ reference: String, of playlist: Playlist) throws(QueueFile.Problem) -> PlaylistItem {
                if let index = Int(reference), playlist.items.indices.contains(index - 1) { return playlist.items[index - 1] }
                let wanted = reference.lowercased()
                let matches = playlist.items.filter { $0.id == reference || $0.title.lowercased().contains(wanted) }
                guard matches.count == 1 else {
                    throw QueueFile.Problem(line: nil, matches.isEmpty
                        ? "no item of \(playlist.name) matches '\(reference)'" : "'\(reference)' matches \(matches.count) items of \(playlist.name)")
                }
                return matches[0]
            }
            let sub = arguments[0]
            let rest = Array(arguments.dropFirst())
            var shown: String?
            let refreshed: [Playlist]
            switch sub {
            case "create":
                refreshed = try client.perform(.create(name: rest[0]))
                shown = rest[0]
            case "rename":
                let playlist = try named(rest[0])
                refreshed = try client.perform(.rename(playlistID: playlist.id, name: rest[1]))
                shown = rest[1]
            case "delete":
                let playlist = try named(rest[0])
                refreshed = try client.perform(.delete(playlistID: playlist.id))
            case "add":
                let playlist = try named(rest[0])
                guard let entry = backend.find(rest[1]) else { return CommandLineTool.Status.failure }
                guard let fileName = entry.episode.fileName, let label = entry.episode.label else {
                    Console.fail("\(entry.episode.title) has no audio (or no label) to add")
                    return CommandLineTool.Status.failure
                }
                refreshed = try client.perform(.addEpisode(playlistID: playlist.id, label: label, title: entry.episode.title,
                                                           duration: entry.episode.duration, audioURL: fileName))
                shown = playlist.name
            case "remove":
                let playlist = try named(rest[0])
                refreshed = try client.perform(.remove(playlistID: playlist.id, itemID: try item(rest[1], of: playlist).id))
                shown = playlist.name
            default:  // "move", checked by the parser
                let playlist = try named(rest[0])
                let moving = try item(rest[1], of: playlist)
                var order = playlist.items.map(\.id).filter { $0 != moving.id }
                let position = min(max(1, Int(rest[2]) ?? 1), order.count + 1)
                order.insert(moving.id, at: position - 1)
                refreshed = try client.perform(.reorder(playlistID: playlist.id, order: order))
                shown = playlist.name
            }
            if let shown, case .success(let playlist) = find(shown, in: refreshed) {
                Console.out(describe(playlist))
            } else {
                Console.out(render(refreshed))
            }
            return CommandLineTool.Status.success
        } catch let problem as QueueFile.Problem {
            Console.fail(problem.message)
            return CommandLineTool.Status.failure
        } catch let error as BackendError {
            Console.fail(error.message)
            return CommandLineTool.Status.failure
        } catch {
            Console.fail("\(error)")
            return CommandLineTool.Status.failure
        }
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

    /// How long an item still warming is waited for, asking `/api/speak` about once a second.
    static let voicingPatience: Duration = .seconds(60)

    /// The queue items of `playlist`: episodes by their label, syntheses as one item of their
    /// chunks, warming ones voiced first. Items that cannot be voiced are skipped, with a warning.
    static func items(of playlist: Playlist, backend: BackendSession, voiceWarming: Bool = true,
                      stop: () -> Bool = { false }) -> Result<[QueueItem], QueueFile.Problem> {
        var items: [QueueItem] = []
        for item in playlist.items {
            var chunks = item.chunks
            if chunks.isEmpty && !voiceWarming { continue }
            if chunks.isEmpty {
                guard let body = item.body, !body.isEmpty else {
                    Console.fail("warning: \(playlist.name): \(item.title) has nothing to voice (skipped)")
                    continue
                }
                switch voice(body, title: item.title, client: backend.client, stop: stop) {
                case .success(let voiced): chunks = voiced
                case .failure(let problem):
                    Console.fail("warning: \(playlist.name): \(problem.message) (skipped)")
                    continue
                }
            }
            let locations = chunks.compactMap { try? MediaLocation(backend.client.mediaURL(for: $0.url)) }
            guard let first = locations.first, locations.count == chunks.count else {
                return .failure(.init(line: nil, "\(playlist.name): \(item.title) has a chunk path that is not a URL"))
            }
            if item.isEpisode, let label = item.source {
                let streamed = QueueItem(location: first, title: item.title, label: label,
                                         positionKey: PositionStore.key(label: label, location: first), reference: label)
                items.append(OfflineCache.substitute(streamed, key: label, mediaPath: chunks[0].url))
            } else {
                var queued = QueueItem(location: first, title: item.title, reference: "playlist:" + playlist.name)
                queued.moreParts = Array(locations.dropFirst())
                items.append(OfflineCache.substitute(chunks: chunks.map(\.url), of: queued))
            }
        }
        return .success(items)
    }

    /// Asks `/api/speak` until `text` is voiced (about once a second, within `voicingPatience`).
    private static func voice(_ text: String, title: String, client: BackendClient, stop: () -> Bool) -> Result<[PlaylistItem.Chunk], QueueFile.Problem> {
        let deadline = ContinuousClock.now + voicingPatience
        var said = false
        while true {
            let status: SpeechStatus
            do {
                status = try client.speak(text)
            } catch {
                return .failure(.init(line: nil, "\(title): \(error.message)"))
            }
            switch status.status {
            case "ready":
                guard !status.chunks.isEmpty else { return .failure(.init(line: nil, "\(title) was voiced as nothing")) }
                return .success(status.chunks)
            case "failed", "empty":
                return .failure(.init(line: nil, "\(title) cannot be voiced (\(status.status))"))
            default:
                if !said && Console.stderrIsTerminal {
                    Console.error("alicia-player: voicing \(title)…\n")
                    said = true
                }
                guard !stop() else { return .failure(.init(line: nil, "\(title): stopped while it was being voiced")) }
                guard ContinuousClock.now < deadline else {
                    return .failure(.init(line: nil, "\(title) was not voiced within \(voicingPatience)"))
                }
                var pause = timespec(tv_sec: 1, tv_nsec: 0)
                nanosleep(&pause, nil)
            }
        }
    }
}
