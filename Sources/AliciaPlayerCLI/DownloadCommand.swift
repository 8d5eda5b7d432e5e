#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaCache
import AliciaSession
import AliciaLocks
import Synchronization
import AliciaLibrary
import AliciaHost

/// `alicia-player download REF… [--queue FILE] [--pin] [--rate LIMIT]`: episodes (a label, an index,
/// a title piece) and whole playlists (`playlist:NAME`, read-aloud chunks included) into the cache,
/// at most two at once, then the cache brought within its bound.
struct DownloadCommand {
    let options: DownloadOptions

    /// At most this many files download at once: two keep a tailnet link busy without starving playback.
    static let parallel = 2

    func run() -> Int32 {
        let signals = SignalWatcher()
        guard let cache = OfflineCache.openOrSay() else { return ExitCode.failure }
        // Asked for only when a reference is not a URL.
        let backend: Result<BackendSession, BackendError>
        do {
            backend = .success(try BackendSession(options.backend))
        } catch {
            backend = .failure(error)
        }
        let requests: [DownloadRequest]
        switch gatherRequests(backend: backend) {
        case .success(let found): requests = found
        case .failure(let exit): return exit.code
        }
        if case .success(let session) = backend, let banner = session.offlineBanner {
            Console.fail("cannot download: the backend cannot be reached (\(banner))")
            return ExitCode.failure
        }
        let board = ProgressBoard(terminal: Console.stderrIsTerminal && !options.quiet, slots: Self.parallel, quiet: options.quiet)
        let next = Atomic<Int>(0)
        let failed = Atomic<Int>(0)
        let shared = requests
        let workers = (0..<min(Self.parallel, requests.count)).map { slot in
            NativeThread(name: "download-\(slot)") {
                let downloader: MediaDownloader
                do throws(DownloadError) {
                    downloader = try MediaDownloader()
                } catch {
                    board.finish(slot: slot, line: "alicia-player: \(error.message)", failed: true)
                    failed.add(1, ordering: .relaxed)
                    return
                }
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < shared.count, signals.signal == nil else { return }
                    if !Self.download(shared[index], with: downloader, into: cache, slot: slot, board: board, signals: signals) {
                        failed.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        for worker in workers { worker.join() }
        board.clear()
        if let signal = signals.signal { return 128 + signal }
        for key in requests.map(\.entry.key) where options.pin { _ = cache.setPinned(true, key: key) }
        evict(cache, protecting: Set(requests.map(\.entry.key)))
        return failed.load(ordering: .relaxed) == 0 ? ExitCode.success : ExitCode.failure
    }

    /// A failure already said, and the exit status it ends the command with.
    private struct Said: Error { let code: Int32 }

    /// What the references and queue files ask for, each file once; a problem is said here.
    private func gatherRequests(backend: Result<BackendSession, BackendError>) -> Result<[DownloadRequest], Said> {
        var references = options.references
        for path in options.queueFiles {
            switch QueueResolver.contents(of: path) {
            case .success(let bytes):
                let file = QueueFile.parse(bytes)
                for problem in file.problems { Console.fail("warning: \(path)\(problem.line.map { ":\($0)" } ?? ""): \(problem.message)") }
                references += file.lines.map(\.reference).filter { !$0.hasPrefix("voice:") }
            case .failure(let problem):
                Console.fail(problem.message)
                return .failure(Said(code: ExitCode.usage))
            }
        }
        var requests: [DownloadRequest] = []
        for reference in references {
            switch self.requests(for: reference, backend: backend) {
            case .success(let found):
                for request in found where !requests.contains(where: { $0.entry.key == request.entry.key }) { requests.append(request) }
            case .failure(let problem):
                Console.fail(problem.message)
                return .failure(Said(code: ExitCode.failure))
            }
        }
        return .success(requests)
    }

    /// Downloads one file, telling the board; false when it failed.
    private static func download(_ request: DownloadRequest, with downloader: MediaDownloader, into cache: MediaCache,
                                 slot: Int, board: ProgressBoard, signals: SignalWatcher) -> Bool {
        let name = request.entry.label ?? request.entry.title
        do {
            let outcome = try downloader.download(
                request, into: cache, shouldStop: { signals.signal != nil },
                waiting: { board.say("\(name): another alicia-player is downloading it; waiting") },
                warn: { board.say("alicia-player: warning: \($0)") },
                progress: { board.update(slot: slot, line: ProgressBoard.line(name, $0)) })
            switch outcome {
            case .alreadyCached(let entry):
                board.finish(slot: slot, line: "\(name): already downloaded (\(ByteSize.format(entry.size)))")
            case .downloaded(let entry, let resumedFrom):
                board.finish(slot: slot, line: "\(name): downloaded \(request.entry.title) (\(ByteSize.format(entry.size))"
                             + (resumedFrom > 0 ? ", resumed at \(ByteSize.format(resumedFrom)))" : ")"))
            }
            return true
        } catch {
            board.finish(slot: slot, line: "alicia-player: \(name): \(error.message)", failed: true)
            return false
        }
    }

    /// The cache within its bound (`cache_max_size`, default 2 GiB): played episodes first, then the
    /// oldest; never what this run downloaded, pinned files, or files a player has queued.
    private func evict(_ cache: MediaCache, protecting keys: Set<String>) {
        let limit = CachePolicy.maximumSize()
        let removed = cache.evict(limit: limit, played: CachePolicy.playedKeys(), protected: keys)
        for entry in removed where !options.quiet {
            Console.out("removed \(entry.label ?? entry.title) from the cache (\(ByteSize.format(entry.size))) to stay within \(ByteSize.format(limit))\n")
        }
        let total = cache.totalSize()
        if total > limit {
            Console.fail("warning: the cache holds \(ByteSize.format(total)), more than its bound of \(ByteSize.format(limit)) "
                + "(what is pinned, playing or just downloaded stays): `alicia-player cache --max-size SIZE` raises it")
        }
    }

    /// What `reference` downloads: an episode, or every item of a playlist.
    private func requests(for reference: String, backend made: Result<BackendSession, BackendError>) -> Result<[DownloadRequest], QueueFile.Problem> {
        if reference.lowercased().hasPrefix("http://") || reference.lowercased().hasPrefix("https://"),
           let location = try? MediaLocation(reference) {
            // A URL is cached under itself without the token, as its resume position is kept.
            let key = PositionStore.key(label: nil, location: location)
            return .success([DownloadRequest(url: reference, display: location.display,
                                             entry: CacheEntry(key: key, title: location.fileName, pinned: options.pin),
                                             rateLimit: options.rate.map { $0 / Int64(Self.parallel) })])
        }
        let backend: BackendSession
        switch made {
        case .success(let session): backend = session
        case .failure(let error): return .failure(.init(line: nil, error.message))
        }
        let client = backend.client
        func request(_ key: String, _ title: String, _ label: String?, _ mediaPath: String) -> DownloadRequest {
            let url = client.mediaURL(for: mediaPath)
            let display = (try? MediaLocation(url).display) ?? mediaPath
            return DownloadRequest(url: url, display: display,
                                   entry: CacheEntry(key: key, title: title, label: label, mediaPath: mediaPath, pinned: options.pin),
                                   rateLimit: options.rate.map { $0 / Int64(Self.parallel) })
        }
        if reference.hasPrefix("playlist:") {
            return playlistRequests(String(reference.dropFirst("playlist:".count)), backend: backend, request)
        }
        if reference.hasURLScheme || reference.hasPrefix("/") || reference.hasPrefix(".") {
            return .failure(.init(line: nil, "'\(reference)': download takes episodes (a label, an index, a title), http(s) URLs and playlist:NAME"))
        }
        return backend.episode(reference).flatMap { entry in
            guard let fileName = entry.episode.fileName, entry.episode.hasAudio else {
                return .failure(.init(line: nil, "\(entry.episode.label ?? entry.episode.title) has no audio yet"))
            }
            return .success([request(entry.episode.label ?? fileName, entry.episode.title, entry.episode.label, fileName)])
        }
    }

    /// Every item of a playlist: an episode whole, a piece read aloud chunk by chunk.
    private func playlistRequests(_ name: String, backend: BackendSession,
                                  _ request: (String, String, String?, String) -> DownloadRequest) -> Result<[DownloadRequest], QueueFile.Problem> {
        let shelf: [Playlist]
        do {
            shelf = try backend.playlists()
        } catch {
            return .failure(.init(line: nil, error.message))
        }
        return PlaylistItems.find(name, in: shelf).map { playlist in
            var found: [DownloadRequest] = []
            for item in playlist.items {
                if item.chunks.isEmpty {
                    Console.fail("warning: \(playlist.name): \(item.title) is still being voiced (skipped: download it again later)")
                } else if item.isEpisode, let label = item.source {
                    found.append(request(label, item.title, label, item.chunks[0].url))
                } else {
                    for (index, chunk) in item.chunks.enumerated() {
                        found.append(request(chunk.url, "\(item.title) (\(index + 1)/\(item.chunks.count))", nil, chunk.url))
                    }
                }
            }
            return found
        }
    }
}

/// What `download` shows on stderr: on a terminal a progress line per running download (bytes,
/// rate, time left), redrawn at most 10 times a second; each finished file leaves one line (on
/// stdout, so scripts can read it).
final class ProgressBoard: Sendable {
    private struct State {
        var lines: [String?]
        var drawn = 0
    }

    private let terminal: Bool
    private let state: Locked<State>

    /// Only failures are said.
    private let quiet: Bool

    init(terminal: Bool, slots: Int, quiet: Bool = false) {
        self.terminal = terminal
        self.quiet = quiet
        state = Locked(State(lines: Array(repeating: nil, count: slots)))
    }

    static func line(_ name: String, _ progress: DownloadProgress) -> String {
        let rate = progress.bytesPerSecond
        var text = name + "  " + ByteSize.format(progress.received)
        if let total = progress.total, total > 0 {
            let share = min(1, Double(progress.received) / Double(total))
            let width = 20
            let filled = Int(share * Double(width))
            text += " of " + ByteSize.format(total) + "  [" + String(repeating: "#", count: filled)
                + String(repeating: ".", count: width - filled) + "] \(Int(share * 100))%"
            if rate > 0 { text += "  " + TimeSpec.clock(Double(total - progress.received) / rate) + " left" }
        }
        if rate > 0 { text += "  " + ByteSize.format(Int64(rate)) + "/s" }
        return text
    }

    func update(slot: Int, line: String) {
        guard terminal else { return }
        state.withLock { state in
            state.lines[slot] = line
            redraw(&state)
        }
    }

    func finish(slot: Int, line: String, failed: Bool = false) {
        state.withLock { state in
            state.lines[slot] = nil
            erase(&state)
            if failed { Console.error(line + "\n") } else if !quiet { Console.out(line + "\n") }
            redraw(&state)
        }
    }

    func say(_ line: String) {
        state.withLock { state in
            erase(&state)
            Console.error(line + "\n")
            redraw(&state)
        }
    }

    func clear() {
        state.withLock { erase(&$0) }
    }

    private func erase(_ state: inout State) {
        guard terminal, state.drawn > 0 else { return }
        Console.error((state.drawn > 1 ? "\u{1B}[\(state.drawn - 1)A" : "") + "\r\u{1B}[J")
        state.drawn = 0
    }

    private func redraw(_ state: inout State) {
        guard terminal else { return }
        let lines = state.lines.compactMap { $0 }
        let columns = max(20, (Console.stderrColumns ?? 80) - 1)
        var text = state.drawn > 1 ? "\u{1B}[\(state.drawn - 1)A" : ""
        text += "\r\u{1B}[J" + lines.map { String($0.prefix(columns)) }.joined(separator: "\n")
        Console.error(text)
        state.drawn = lines.count
    }
}
