#if canImport(Glibc)
import Glibc
#endif
import AliciaLibrary
import AliciaLocks
import AliciaSession
import AliciaStore
import AliciaSubscriptions

/// The podcast commands over the library database: `subscribe`, `unsubscribe`, `shows`, `refresh`,
/// `episodes`, `export`. Each opens the database (made on first use), does its work and says it;
/// exit 1 when any feed or show failed, every other one done all the same.
public enum PodcastCommand: Equatable, Sendable {
    case subscribe([String])
    case unsubscribe([String])
    case shows(json: Bool)
    /// `download`: `--download N`, the newest N unplayed episodes of each show refreshed kept downloaded.
    case refresh([String], quiet: Bool, download: Int?)
    case episodes(show: String?, new: Bool, json: Bool)
    case export

    /// The command's name and the words after it, checked: what the command line parser calls.
    static func parse(_ command: String, _ rest: [String], _ line: ParsedLine) throws(UsageError) -> PodcastCommand {
        let (json, new, quiet) = (line.json, line.newOnly, line.play.quiet)
        switch command {
        case "subscribe":
            guard !rest.isEmpty else { throw UsageError("subscribe needs a feed: a URL, a web page that names one, or an OPML file") }
            return .subscribe(rest)
        case "unsubscribe":
            guard !rest.isEmpty else { throw UsageError("unsubscribe needs a show: its title, a piece of it, its number or its URL") }
            return .unsubscribe(rest)
        case "shows":
            guard rest.isEmpty else { throw UsageError("shows takes no arguments, got '\(rest[0])'") }
            return .shows(json: json)
        case "refresh": return .refresh(rest, quiet: quiet, download: line.downloadNewest)
        case "episodes":
            guard rest.count <= 1 else { throw UsageError("episodes takes one show at most, got '\(rest[1])' too") }
            return .episodes(show: rest.first, new: new, json: json)
        default:
            guard rest.isEmpty else { throw UsageError("export takes no arguments, got '\(rest[0])'") }
            return .export
        }
    }

    /// The commands `parse` knows.
    static let names: Set<String> = ["subscribe", "unsubscribe", "shows", "refresh", "episodes", "export"]

    func run() -> Int32 {
        guard let store = Self.openLibrary() else { return ExitCode.failure }
        let language = getenv("LANG").map { String(String(cString: $0).prefix { $0 != "." }) }
        return run(Subscriptions(store: store), language: language)
    }

    /// The library database at its default place (made on first use), or nil after saying why,
    /// each line after `prefix`. The commands that use it (these, `watch`) open it so.
    ///
    /// No import of the old state directory: every player still keeps positions in its
    /// positions.json (PositionStore), which the import would move aside (DECISIONS.md, "Feed
    /// episodes are references; positions stay in positions.json").
    static func openLibrary(prefix: String = "") -> LibraryStore? {
        var environment: [String: String] = [:]
        for key in ["XDG_DATA_HOME", "HOME"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        guard let path = LibraryStore.defaultPath(environment: environment) else {
            Console.fail(prefix + "no library database: neither XDG_DATA_HOME nor HOME is set")
            return nil
        }
        do {
            let store = try LibraryStore(path: path)
            for warning in store.warnings { Console.fail(prefix + "warning: " + warning) }
            return store
        } catch {
            Console.fail(prefix + error.message)
            return nil
        }
    }

    private func run(_ subscriptions: Subscriptions, language: String?) -> Int32 {
        do throws(SubscriptionProblem) {
            switch self {
            case .subscribe(let sources):
                Self.showProgress(on: subscriptions, verb: "fetching")
                return say(subscriptions.subscribe(sources))
            case .unsubscribe(let names):
                return say(subscriptions.unsubscribe(names))
            case .shows(let json):
                let shows = try subscriptions.listed()
                Console.out(json ? SubscriptionLists.showsJSON(shows) : SubscriptionLists.showsText(shows))
            case .refresh(let names, let quiet, let download):
                if !quiet { Self.showProgress(on: subscriptions, verb: "refreshing") }
                var report = subscriptions.refresh(names)
                if quiet { report.lines.removeAll() }
                let status = say(report)
                guard let download else { return status }
                let fetched = try Self.downloadNewest(download, of: names, in: subscriptions, quiet: quiet)
                return status == ExitCode.success ? fetched : status
            case .episodes(let show, let new, let json):
                try episodes(subscriptions, show: show, new: new, json: json, language: language)
            case .export:
                Console.out(try subscriptions.export())
            }
            return ExitCode.success
        } catch {
            Console.fail(error.message)
            return ExitCode.failure
        }
    }

    private func episodes(_ subscriptions: Subscriptions, show: String?, new: Bool, json: Bool, language: String?) throws(SubscriptionProblem) {
        let id = try show.map { name throws(SubscriptionProblem) in try subscriptions.show(named: name).id }
        do {
            var rows = Self.withPositions(try subscriptions.store.episodes(id.map { .show($0) } ?? (new ? .new : .all)))
            if new { rows = rows.filter(\.isUnheardNew) }
            if json {
                let details = try subscriptions.store.episodeDetails(showID: id)
                SubscriptionLists.writeEpisodesJSON(rows, details: details, language: language) { Console.out($0) }
            } else {
                Console.out(SubscriptionLists.episodesText(rows))
            }
        } catch {
            throw SubscriptionProblem(error.message)
        }
    }

    /// `refresh --download N`: the newest `count` unplayed episodes of each show named (or every
    /// show) that are not in the cache yet, downloaded as `download` does (two at once, resumed if cut,
    /// the cache then brought within its bound, played ones going first).
    private static func downloadNewest(_ count: Int, of names: [String], in subscriptions: Subscriptions,
                                       quiet: Bool) throws(SubscriptionProblem) -> Int32 {
        let shows = try names.isEmpty ? subscriptions.listed() : names.map { name throws(SubscriptionProblem) in try subscriptions.show(named: name) }
        let cached = Set((try? OfflineCache.open().get())?.entries().map(\.key) ?? [])
        var urls: [String] = []
        for show in shows {
            let rows: [EpisodeListing]
            do {
                rows = withPositions(try subscriptions.store.episodes(.show(show.id)))
            } catch {
                throw SubscriptionProblem(error.message)
            }
            urls += rows.filter { $0.url != nil && !$0.isPlayed }.prefix(count).filter { !cached.contains($0.positionKey) }.compactMap(\.url)
        }
        var status = ExitCode.success
        if !urls.isEmpty {
            var options = DownloadOptions(references: urls)
            options.quiet = quiet
            status = DownloadCommand(options: options).run()
        }
        // Then what stays: `keep` a show, and no download played long ago.
        let rule = PodcastRetention.configured()
        if let cache = try? OfflineCache.open().get() {
            for show in shows {
                guard let rows = try? subscriptions.store.episodes(.show(show.id)) else { continue }
                rule.apply(withPositions(rows), cache: cache, quiet: quiet)
            }
        }
        return status
    }

    /// Where each episode was left and whether it was played, as every player keeps it (`PositionStore`,
    /// the one resume rule for Alicia's episodes and the shows'), and whether the download cache has it,
    /// over what the database holds.
    private static func withPositions(_ rows: [EpisodeListing]) -> [EpisodeListing] {
        let positions = PositionStore.defaultDirectory().map { PositionStore(directory: $0) }
        let cache = try? OfflineCache.open().get()
        let downloads = Dictionary((cache?.entries() ?? []).map { ($0.key, $0.fileName) }, uniquingKeysWith: { first, _ in first })
        // In place: a list of 50,000 is not copied.
        var rows = rows
        for index in rows.indices {
            let key = rows[index].positionKey
            if let saved = positions?.position(for: key) {
                rows[index].position = PositionRecord(position: saved.position, duration: saved.duration, played: saved.played, updated: saved.updated)
            }
            if let name = downloads[key] { rows[index].downloadPath = cache?.path(of: name) }
        }
        return rows
    }

    private func say(_ report: Subscriptions.Report) -> Int32 {
        for line in report.lines { Console.out(line + "\n") }
        for problem in report.problems { Console.fail(problem) }
        return report.failed ? ExitCode.failure : ExitCode.success
    }

    /// On a terminal, `refreshing 12/200` on standard error as fetches end, cleared at the last.
    private static func showProgress(on subscriptions: Subscriptions, verb: String) {
        guard isatty(2) == 1 else { return }
        subscriptions.progress = { done, total in
            Console.error(done == total ? "\r\u{1B}[K" : "\r\(verb) \(done)/\(total)")
        }
    }
}
