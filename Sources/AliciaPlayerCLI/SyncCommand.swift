#if canImport(Glibc)
import Glibc
#endif
import AliciaBackend
import AliciaLocks
import AliciaSession
import AliciaStore
import AliciaSync

/// Options of `alicia-player sync`.
public struct SyncOptions: Equatable, Sendable {
    /// `setup`, `status`, or nothing (sync now); `setup`'s URL after it.
    public var words: [String] = []
    public var user: String?
    public var device: String?

    public init() {}
}

/// `alicia-player sync [setup URL --user NAME [--device ID] | status]`: the account kept in a 0600
/// file, a pass now, or what the last one did. The password is never shown: `***`.
struct SyncCommand {
    let options: SyncOptions

    static func parse(_ rest: [String], _ line: ParsedLine) throws(UsageError) -> SyncOptions {
        var options = line.sync
        options.words = rest
        switch rest.first {
        case nil, "now":
            guard rest.count <= 1 else { throw UsageError("sync takes no arguments, got '\(rest[1])'") }
        case "status":
            guard rest.count == 1 else { throw UsageError("sync status takes no arguments, got '\(rest[1])'") }
        case "setup":
            guard rest.count == 2 else { throw UsageError("sync setup needs the server's URL, and only it: sync setup URL --user NAME") }
            guard options.user != nil else { throw UsageError("sync setup needs --user NAME (the account on the server)") }
            // A URL that cannot be a sync server is a bad argument, refused before anything is asked.
            do {
                _ = try SyncAccount.serverURL(rest[1])
            } catch {
                throw UsageError(error.message)
            }
        default:
            throw UsageError("sync takes setup, status or nothing, not '\(rest[0])'")
        }
        if rest.first != "setup" && (options.user != nil || options.device != nil) {
            throw UsageError("--user and --device go with sync setup")
        }
        return options
    }

    func run() -> Int32 {
        let environment = SyncAccount.environment()
        guard let accountPath = SyncAccount.defaultPath(environment: environment),
              let databasePath = LibraryStore.defaultPath(environment: environment),
              let positions = PositionStore.defaultDirectory() else {
            Console.fail("sync: neither XDG_CONFIG_HOME nor HOME is set")
            return ExitCode.failure
        }
        do throws(SyncError) {
            if options.words.first == "setup" { return try setup(accountPath, databasePath: databasePath, positions: positions) }
            guard let account = try SyncAccount.load(from: accountPath) else {
                Console.fail("sync: no sync account: set one up with alicia-player sync setup URL --user NAME")
                return ExitCode.failure
            }
            let job = SyncJob(account: account, databasePath: databasePath, positionsDirectory: positions)
            return options.words.first == "status" ? try status(job) : now(job)
        } catch {
            Console.fail(error.message)
            return ExitCode.failure
        }
    }

    /// Asks for the password, finds the server's dialect, makes the device known, keeps the
    /// account, and syncs once.
    private func setup(_ path: String, databasePath: String, positions: String) throws(SyncError) -> Int32 {
        let server = try SyncAccount.serverURL(options.words[1])
        let password = try SyncPassword.read(user: options.user ?? "")
        var account = SyncAccount(server: server, user: options.user ?? "", device: options.device ?? SyncAccount.defaultDevice(),
                                  password: password, dialect: .gpodderNet)
        account.dialect = try SyncClient.detectDialect(account)
        try account.save(to: path)
        Console.out("sync: set up \(account)\n")
        return now(SyncJob(account: account, databasePath: databasePath, positionsDirectory: positions))
    }

    private func now(_ job: SyncJob) -> Int32 {
        switch job.run() {
        case .success(let report):
            for line in Self.lines(report) { Console.out(line + "\n") }
            return report.problems.isEmpty ? ExitCode.success : ExitCode.failure
        case .failure(let error):
            Console.fail(error.message)
            return ExitCode.failure
        }
    }

    /// What a pass did, one line each, the problems after.
    static func lines(_ report: SyncPass.Report) -> [String] {
        var lines = report.subscribedHere.map { "subscribed here: \($0)" } + report.unsubscribedHere.map { "unsubscribed here: \($0)" }
        if report.movedHere > 0 { lines.append("moved here: \(report.movedHere) feeds the server renamed") }
        if report.sentAdded + report.sentRemoved > 0 {
            lines.append("subscriptions sent: \(report.sentAdded) added, \(report.sentRemoved) removed")
        }
        lines.append("episode actions: \(report.actionsSent) sent, \(report.actionsReceived) received, "
                     + "\(report.positionsTaken) newer positions taken")
        if report.skipped > 0 { lines.append("left out: \(report.skipped) entries of the server's that are not episode actions") }
        return lines + report.problems.map { "problem: \($0)" }
    }

    /// The account (password `***`), the last pass, what waits to be sent.
    private func status(_ job: SyncJob) throws(SyncError) -> Int32 {
        let store: LibraryStore
        do {
            store = try LibraryStore(path: job.databasePath)
        } catch {
            throw SyncError("sync: \(error.message)")
        }
        let state = try SyncState.load(store, for: job.account)
        let queued = try SyncQueue.waiting(store: store, positions: PositionStore(directory: job.positionsDirectory), state: state)
        Console.out("""
            server: \(job.account.server) (\(job.account.dialect.name))
            user: \(job.account.user)
            password: ***
            device: \(job.account.device)
            last sync: \(state.lastSyncMS.map { ISO8601UTC.format(Int($0 / 1000)) } ?? "never")
            subscriptions agreed: \(state.known.count)
            waiting to be sent: \(queued) episode positions
            last error: \(state.lastError ?? "none")

            """)
        return ExitCode.success
    }
}
