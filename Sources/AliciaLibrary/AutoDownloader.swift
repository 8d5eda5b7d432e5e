#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaCache
import AliciaLocks
import AliciaSession

/// `--auto-download N` (config `auto_download = N`): while a queue plays, the next `N` entries
/// after the one heard download into the cache in the background, at most `parallel` at once. Each
/// one that lands (or was cached already) is played from its file from then on (`Player.relocate`)
/// and leased against eviction, so when the backend goes away the queue plays on from the cache.
///
/// | thread | owns | waits on |
/// | --- | --- | --- |
/// | the front-end's loop | `update` (reads the queue, hands over what is wanted) | its own poll |
/// | one or two `auto-download-N` | a `MediaDownloader` each | `state`, until something is wanted |
///
/// A failure is one notice (the item then streams as it would have), never a stop of playback.
/// After each download the cache is brought within its bound, never removing the entry heard or the
/// next one (nor any other entry it still wants); when it cannot get there, auto-download stops for
/// the run and says so once.
package final class AutoDownloader: Sendable {
    /// Two at once keep a link busy without starving the stream that plays (as `download`).
    package static let parallel = 2

    /// The most `--auto-download` takes.
    package static let maximum = 100

    private struct Wanted: Sendable {
        package var entry: QueueEntryID
        package var request: DownloadRequest
    }

    private struct State {
        /// In queue order, the entries to download (front-end's loop writes, workers read).
        package var wanted: [Wanted] = []
        /// Keys a worker is on, and keys that failed this run (not tried again).
        package var running: Set<String> = []
        package var failed: Set<String> = []
        /// Keys eviction must leave: the entry heard, the next one, everything wanted.
        package var protected: Set<String> = []
        /// Over the bound with nothing left to remove: no more downloads this run.
        package var full = false
        package var stopped = false
        /// Leases of the files entries now play from (held until `close`).
        package var leases: [FileLock] = []
        /// Downloads ended (either way): a new look at the queue is due.
        package var ended = 0
    }

    /// What `update` last looked at (the entry heard and the upcoming ones, and `ended`): the
    /// loop calls it up to 10 times a second, and the cache is only looked at again on a change.
    private let lastLook = Locked<(entries: [QueueEntryID], ended: Int)?>(nil)

    private let count: Int
    private let cache: MediaCache
    private let view: SessionView
    private let relocation: Relocation
    private let state: ConditionLock<State>
    private let workers: Locked<[NativeThread]>

    /// Starts the workers; `notify` gets one line per failure (from a worker thread).
    package init(count: Int, cache: MediaCache, view: SessionView, remote: RemoteMailbox, wake: @escaping @Sendable () -> Void,
         limit: @escaping @Sendable () -> Int64, played: @escaping @Sendable () -> Set<String>,
         notify: @escaping @Sendable (String) -> Void) {
        self.count = count
        self.cache = cache
        self.view = view
        let state = ConditionLock(State())
        self.state = state
        let relocation = Relocation(view: view, remote: remote, cache: cache, state: state)
        self.relocation = relocation
        workers = Locked((0..<min(Self.parallel, count)).map { slot in
            NativeThread(name: "auto-download-\(slot)") {
                Self.work(state: state, cache: cache, relocation: relocation, limit: limit, played: played, wake: wake, notify: notify)
            }
        })
    }

    /// Moving an entry to its cached file: through the session's mailbox (the session changes only
    /// through its vocabulary), the file leased once the session has taken it.
    private struct Relocation: Sendable {
        package let view: SessionView
        package let remote: RemoteMailbox
        package let cache: MediaCache
        package let state: ConditionLock<State>

        package func callAsFunction(_ id: QueueEntryID, to path: String, key: String) {
            guard let location = try? MediaLocation(path), view.queue.entry(id)?.item.location != location else { return }
            let (cache, state) = (self.cache, self.state)
            remote.post(.relocate(id, location)) { reply in
                guard reply == .done else { return }
                if let lease = cache.lease(key) { state.withLock { $0.leases.append(lease) } }
                Log.info(.cli, "auto-download: \(key) plays from the cache (\(path))")
            }
        }
    }

    /// The downloader for a run, when `--auto-download` or `auto_download` asks for one and there is a cache.
    package static func start(_ given: Int?, view: SessionView, remote: RemoteMailbox, wake: @escaping @Sendable () -> Void,
                      notify: @escaping @Sendable (String) -> Void) -> AutoDownloader? {
        let count = given ?? configured()
        guard count > 0 else { return nil }
        let cache: MediaCache
        switch OfflineCache.open() {
        case .success(let opened): cache = opened
        case .failure(let problem):
            notify("auto-download is off: " + problem.message)
            return nil
        }
        return AutoDownloader(count: count, cache: cache, view: view, remote: remote, wake: wake,
                              limit: { CachePolicy.maximumSize() }, played: { CachePolicy.playedKeys() }, notify: notify)
    }

    /// `auto_download` from the config file (0 when it is not set; a warning and 0 when it is not a number).
    package static func configured() -> Int {
        guard let text = ConfigurationLoader.fileValue("auto_download", environment: BackendSession.environment()) else { return 0 }
        guard let count = parse(text) else {
            Console.fail("warning: auto_download = \(text) in the config file is not a number from 0 to \(maximum): no auto-download")
            return 0
        }
        return count
    }

    /// `0` to `maximum`.
    package static func parse(_ text: String) -> Int? {
        guard let count = Int(text), (0...maximum).contains(count) else { return nil }
        return count
    }

    /// Looks at the queue (call from the front-end's loop, after `session.tick()`): entries now
    /// cached play from their files; the next `count` that are not are handed to the workers.
    package func update() {
        let queue = view.queue
        guard let heard = queue.currentID else { return }
        var upcoming: [QueueEntry] = []
        var after = heard
        while upcoming.count < count, let next = queue.entry(after: after), next.id != heard,
              !upcoming.contains(where: { $0.id == next.id }) {
            upcoming.append(next)
            after = next.id
        }
        let look = ([heard] + upcoming.map(\.id), state.withLock { $0.ended })
        let changed = lastLook.withLock { last -> Bool in
            defer { last = look }
            return last.map { $0.entries != look.0 || $0.ended != look.1 } ?? true
        }
        guard changed else { return }
        var wanted: [Wanted] = []
        var protected: Set<String> = []
        if let playing = queue.current.flatMap({ OfflineCache.downloadRequest(for: $0.item) }) { protected.insert(playing.entry.key) }
        for entry in upcoming {
            guard let request = OfflineCache.downloadRequest(for: entry.item) else { continue }
            protected.insert(request.entry.key)
            if let file = cache.file(for: request.entry.key, mediaPath: request.entry.mediaPath) {
                relocation(entry.id, to: file.path, key: request.entry.key)
            } else {
                wanted.append(Wanted(entry: entry.id, request: request))
            }
        }
        state.update { s in
            s.wanted = wanted
            s.protected = protected
        }
    }

    /// Stops the workers (a download in progress keeps its `.part`) and lets the leases go.
    package func close() {
        state.update { $0.stopped = true }
        let threads = workers.withLock { threads in
            defer { threads = [] }
            return threads
        }
        for thread in threads { thread.join() }
        state.withLock { $0.leases.removeAll() }
    }

    deinit {
        close()
    }

    private static func work(state: ConditionLock<State>, cache: MediaCache, relocation: Relocation,
                             limit: @Sendable () -> Int64, played: @Sendable () -> Set<String>,
                             wake: @Sendable () -> Void, notify: @Sendable (String) -> Void) {
        let downloader: MediaDownloader
        do {
            downloader = try MediaDownloader()
        } catch {
            notify("auto-download is off: " + error.message)
            return
        }
        func next(_ s: inout State) -> Wanted? {
            guard !s.full else { return nil }
            return s.wanted.first { !s.running.contains($0.request.entry.key) && !s.failed.contains($0.request.entry.key) }
        }
        while true {
            let job = state.withLock(waitingUntil: { $0.stopped || next(&$0) != nil }) { s -> Wanted? in
                guard !s.stopped, let job = next(&s) else { return nil }
                s.running.insert(job.request.entry.key)
                return job
            }
            guard let job else { return }
            let key = job.request.entry.key
            let name = job.request.entry.label ?? job.request.entry.title
            var failed = false
            do {
                _ = try downloader.download(job.request, into: cache, shouldStop: { state.withLock { $0.stopped } })
                if let file = cache.file(for: key, mediaPath: job.request.entry.mediaPath) {
                    relocation(job.entry, to: file.path, key: key)
                }
            } catch {
                if case .interrupted = error { return }
                failed = true
                notify("auto-download of \(name): \(error.message)")
            }
            let protected = state.withLock { s -> Set<String> in
                s.running.remove(key)
                s.ended += 1
                if failed { s.failed.insert(key) }
                return s.protected.union(s.wanted.map(\.request.entry.key)).union([key])
            }
            // The host's loop looks at the queue again (`update`): what is wanted next.
            wake()
            guard !failed else { continue }
            let bound = limit()
            for removed in cache.evict(limit: bound, played: played(), protected: protected) {
                Log.info(.cli, "auto-download: removed \(removed.label ?? removed.title) from the cache to stay within \(ByteSize.format(bound))")
            }
            if cache.totalSize() > bound {
                let first = state.withLock { s -> Bool in
                    defer { s.full = true }
                    return !s.full
                }
                if first {
                    notify("auto-download stops: the cache holds \(ByteSize.format(cache.totalSize())), more than its bound of "
                        + "\(ByteSize.format(bound)), and what is left is playing, next, pinned or in use "
                        + "(`alicia-player cache --max-size SIZE` raises it)")
                }
            }
        }
    }
}
