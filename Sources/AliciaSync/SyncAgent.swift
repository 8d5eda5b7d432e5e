#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaCache
import AliciaLocks
import AliciaSession
import AliciaStore

/// Sync for a session host, on a thread of its own (`alicia-sync`), so that first audio never
/// waits for the network: a pass at start, on pause, at an item's end, at most once a minute while
/// playing, and a last one when the session closes, after its position is saved (bounded: the
/// exit waits at most `closeGrace`). A pass that fails is said in one line, and its recovery in
/// one more; what it did not send waits in the positions and goes with the next pass.
///
/// | thread | owns | waits on |
/// | --- | --- | --- |
/// | the host's loop | `update`, `close` (a lock and a flag: no I/O) | nothing, but `close`'s bounded join |
/// | `alicia-sync` | its `LibraryStore`, `PositionStore` and `SyncClient` | `shared`: a pass asked for, the close |
package final class SyncAgent: Sendable {
    /// While playing, a pass at most this often (seconds).
    package static let playingInterval = 60.0
    /// How long a closing session waits for its last pass (seconds).
    package static let closeGrace = 3.0

    struct Shared {
        var wanted = true
        /// Alicia's episodes heard in this session, by label.
        var aliases: [String: SyncAlias] = [:]
        var closing = false
        var closeBy: Double?
        var passes = 0
        var failures = 0
    }

    private let shared: ConditionLock<Shared>
    private let thread: NativeThread
    private let watch = Locked(Watch())

    /// What `update` follows between turns.
    private struct Watch {
        var state: PlayerState = .idle
        var lastPass = MonotonicClock.seconds()
    }

    /// The agent for the sync account set up (`alicia-player sync setup`), or nil when there is
    /// none, or when `turnedOff` (`--no-sync`). `notify` says a failure once and its recovery once.
    package static func start(turnedOff: Bool, environment: [String: String],
                              notify: @escaping @Sendable (String) -> Void) -> SyncAgent? {
        guard !turnedOff, let path = SyncAccount.defaultPath(environment: environment),
              let databasePath = LibraryStore.defaultPath(environment: environment) else { return nil }
        let account: SyncAccount?
        do {
            account = try SyncAccount.load(from: path)
        } catch {
            notify(error.message)
            return nil
        }
        guard let account, let positions = PositionStore.defaultDirectory() else { return nil }
        return SyncAgent(SyncJob(account: account, databasePath: databasePath, positionsDirectory: positions), notify: notify)
    }

    init(_ job: SyncJob, notify: @escaping @Sendable (String) -> Void) {
        let shared = ConditionLock(Shared())
        self.shared = shared
        thread = NativeThread(name: "alicia-sync") { SyncAgent.run(job, shared: shared, notify: notify) }
    }

    /// One turn of the host: a pass when the episode paused or ended, or a minute has passed while
    /// it plays.
    package func update(_ notices: [SessionNotice], _ snapshot: PlayerSnapshot) {
        let heard = notices.compactMap { notice -> (String, SyncAlias)? in
            guard case .started(_, let item) = notice, let label = item.label, !item.location.isFile,
                  let alias = SyncAlias(label: label, url: PositionStore.key(label: nil, location: item.location)) else { return nil }
            return (label, alias)
        }
        if !heard.isEmpty { shared.update { $0.aliases.merge(heard) { _, new in new } } }
        let ended = notices.contains { if case .finished = $0 { return true } else { return false } }
        let now = MonotonicClock.seconds()
        let due = watch.withLock { watch -> Bool in
            defer { watch.state = snapshot.state }
            let paused = snapshot.state == .paused && watch.state != .paused
            let minute = snapshot.state == .playing && now - watch.lastPass >= Self.playingInterval
            guard ended || paused || minute else { return false }
            watch.lastPass = now
            return true
        }
        if due { shared.update { $0.wanted = true } }
    }

    /// A last pass (the session has saved its position), waited for at most `closeGrace`.
    package func close() {
        let closeBy = MonotonicClock.seconds() + Self.closeGrace
        shared.update { state in
            state.wanted = true
            state.closing = true
            state.closeBy = closeBy
        }
        if !thread.join(within: .milliseconds(Int(Self.closeGrace * 1000) + 500)) {
            Log.info(.cli, "sync: the last pass did not end in time; what it had not sent goes with the next")
        }
    }

    /// Passes run and failed so far (for tests).
    package var counts: (passes: Int, failures: Int) { shared.withLock { ($0.passes, $0.failures) } }

    private static func run(_ job: SyncJob, shared: ConditionLock<Shared>, notify: @Sendable (String) -> Void) {
        var failing = false
        while true {
            let (closing, aliases) = shared.withLock(waitingUntil: { $0.wanted }) { state -> (Bool, [String: SyncAlias]) in
                state.wanted = false
                return (state.closing, state.aliases)
            }
            let cancelled: @Sendable () -> Bool = {
                shared.withLock { state in state.closeBy.map { MonotonicClock.seconds() >= $0 } ?? false }
            }
            switch job.run(aliases: aliases, cancelled: cancelled) {
            case .success:
                if failing { notify("sync reaches \(job.account.server) again") }
                failing = false
                shared.update { $0.passes += 1 }
            case .failure(let error) where error.busy:
                Log.info(.cli, "\(error.message): this pass left to it")
            case .failure(let error):
                Log.info(.cli, error.message)
                if !failing { notify("\(error.message); what was heard here waits and goes with the next sync") }
                failing = true
                shared.update { $0.failures += 1 }
            }
            if closing { return }
        }
    }
}

/// One sync pass from scratch: its own database connection and positions read fresh, so that it
/// sees what the session saved a moment ago. Only one pass runs at a time on a machine (a lock
/// beside the database); another that finds it taken does nothing and says so.
package struct SyncJob: Sendable {
    package let account: SyncAccount
    package let databasePath: String
    package let positionsDirectory: String
    /// The download cache's directory, when there is one.
    package let cacheDirectory: String?

    package init(account: SyncAccount, databasePath: String, positionsDirectory: String,
                 cacheDirectory: String? = MediaCache.defaultDirectory(environment: SyncAccount.environment())) {
        self.account = account
        self.databasePath = databasePath
        self.positionsDirectory = positionsDirectory
        self.cacheDirectory = cacheDirectory
    }

    package func run(aliases: [String: SyncAlias] = [:], cancelled: (@Sendable () -> Bool)? = nil) -> Result<SyncPass.Report, SyncError> {
        do throws(SyncError) {
            let store: LibraryStore
            do {
                store = try LibraryStore(path: databasePath)
            } catch {
                throw SyncError("sync: \(error.message)")
            }
            // Beside the database, whose directory opening it made.
            let lock = open(databasePath + ".sync-lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard lock >= 0 else { throw SyncError("sync: cannot open \(databasePath).sync-lock: \(String(cString: strerror(errno)))") }
            defer { close(lock) }
            guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { throw SyncError("sync: another sync is running", busy: true) }
            let client = try SyncClient(account)
            client.cancel(when: cancelled)
            var pass = SyncPass(client: client, store: store, positions: PositionStore(directory: positionsDirectory))
            pass.aliases = aliases
            if let cacheDirectory, access(cacheDirectory, F_OK) == 0 { pass.cache = try? MediaCache(directory: cacheDirectory) }
            return .success(try pass.run())
        } catch {
            return .failure(error)
        }
    }
}
