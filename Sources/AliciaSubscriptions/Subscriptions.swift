import AliciaCurl
import AliciaFeeds
import AliciaStore

/// The listener's subscriptions over the library database: subscribing (a feed, a page that names
/// one, an OPML list), refreshing, unsubscribing, exporting. Each operation returns a `Report`:
/// what goes to standard output, one line per problem for standard error, and whether any failed.
/// One feed's failure is its line and never stops the rest.
package final class Subscriptions {
    package let store: LibraryStore
    package var fetcher = FeedFetcher()
    /// UNIX seconds now (a test's clock).
    package var now: () -> Int64 = { LibraryStore.nowSeconds() }
    /// Called as fetches finish, with how many have and of how many (a progress line on a terminal).
    package var progress: (@Sendable (Int, Int) -> Void)?

    package struct Report: Equatable, Sendable {
        package var lines: [String] = []
        package var problems: [String] = []
        package var failed: Bool { !problems.isEmpty }
    }

    package init(store: LibraryStore) {
        self.store = store
    }

    // MARK: Fetching

    /// Fetches every request (files read from disk, URLs over the network, all at once), answers
    /// in order, with the URL or absolute path each was fetched as.
    func fetch(_ requests: [FeedRequest]) -> [(url: String, response: FeedResponse)] {
        var answers: [(url: String, response: FeedResponse)?] = Array(repeating: nil, count: requests.count)
        var remote: [(Int, FeedRequest)] = []
        for (index, request) in requests.enumerated() {
            if FeedSource.isRemote(request.url) {
                remote.append((index, request))
            } else {
                let (path, response) = FeedSource.readFile(request.url, limit: fetcher.limit)
                answers[index] = (path, response)
            }
        }
        let total = remote.count
        let progress = self.progress
        let responses = fetcher.fetch(remote.map(\.1)) { done in progress?(done, total) }
        for ((index, request), response) in zip(remote, responses) { answers[index] = (request.url, response) }
        return answers.map { $0 ?? ("", .failed("not fetched", retryAt: nil)) }
    }

    /// The document in a fetched body, or why there is none.
    func document(_ response: FeedResponse, url: String) -> Result<(FeedDocument, FeedBody), SubscriptionProblem> {
        switch response {
        case .failed(let why, _): return .failure(SubscriptionProblem(why))
        case .notModified: return .failure(SubscriptionProblem("HTTP 304 to a request that was not conditional"))
        case .document(let body):
            switch FeedDocument.read(body.bytes, url: body.movedTo ?? url, contentType: body.contentType, now: now()) {
            case .success(let document): return .success((document, body))
            case .failure(let error): return .failure(SubscriptionProblem(error.message))
            }
        }
    }

    /// How a URL or path shows in a line: no token of anyone's (`URLRedaction`).
    package static func shown(_ source: String) -> String { URLRedaction.redact(source) }

    // MARK: Finding shows

    /// The show `name` names: its URL, its number as `shows` lists it, its title, or a piece of one
    /// title (ignoring case).
    package func show(named name: String) throws(SubscriptionProblem) -> Show {
        let shows = try listed()
        if let show = shows.first(where: { $0.url == name }) { return show }
        if let number = Int(name), shows.indices.contains(number - 1) { return shows[number - 1] }
        let lower = name.lowercased()
        if let show = shows.first(where: { $0.metadata.title.lowercased() == lower }) { return show }
        let matches = shows.filter { $0.metadata.title.lowercased().contains(lower) }
        guard let first = matches.first else {
            throw SubscriptionProblem("no subscribed show is '\(name)'" + (shows.isEmpty ? " (there are none: subscribe URL adds one)" : ""))
        }
        guard matches.count == 1 else {
            throw SubscriptionProblem("'\(name)' names \(matches.count) shows: " + matches.map(\.metadata.title).joined(separator: ", "))
        }
        return first
    }

    /// Every show, in `shows`'s order (by title).
    package func listed() throws(SubscriptionProblem) -> [Show] {
        do {
            return try store.shows()
        } catch {
            throw SubscriptionProblem(error.message)
        }
    }

    // MARK: Unsubscribing, exporting

    package func unsubscribe(_ names: [String]) -> Report {
        var report = Report()
        for name in names {
            do {
                let show = try show(named: name)
                _ = try store.removeShow(show.id)
                report.lines.append("unsubscribed: \(show.metadata.title)")
            } catch let problem as SubscriptionProblem {
                report.problems.append(problem.message)
            } catch {
                report.problems.append("\(name): \(error)")
            }
        }
        return report
    }

    /// OPML 2.0 of every subscription.
    package func export() throws(SubscriptionProblem) -> String {
        let outlines = try listed().map { OPMLOutline(title: $0.metadata.title, feedURL: $0.url, siteURL: $0.metadata.link) }
        return OPML.document(title: "alicia-player subscriptions", created: now(), outlines: outlines)
    }
}

/// One line that says what went wrong with a subscription.
package struct SubscriptionProblem: Error, Equatable, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
}
