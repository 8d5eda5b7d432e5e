import AliciaFeeds
import AliciaStore

/// `refresh [SHOW…]`.
extension Subscriptions {
    /// The kv key under which a show's "not before" time is kept, after a 429 or 503 with `Retry-After`.
    static func retryKey(_ id: Int64) -> String { "feeds.retry-at.\(id)" }

    /// Refreshes the named shows (every show when none is named), all at once: conditional
    /// requests, moves followed, new episodes added and flagged new. A line per new episode
    /// (`new: SHOW: TITLE`), then one that sums up; a problem per feed that failed, each named once.
    /// A show whose server asked to be left alone (`Retry-After`) is skipped until then, with a line.
    package func refresh(_ names: [String]) -> Report {
        var report = Report()
        var shows: [Show] = []
        do {
            shows = try names.isEmpty ? listed() : names.map { name throws(SubscriptionProblem) in try show(named: name) }
        } catch {
            report.problems.append(error.message)
            return report
        }
        let at = now()
        let due = shows.filter { show in
            guard let text = try? store.value(forKey: Self.retryKey(show.id)), let until = Int64(text), until > at else { return true }
            report.lines.append("\(show.metadata.title): not asked again until \(FeedDate.iso8601(until)) (its server asked to wait)")
            return false
        }
        let answers = fetch(due.map { FeedRequest(url: $0.url, etag: $0.etag, lastModified: $0.lastModified) })
        var added = 0
        for (show, (url, response)) in zip(due, answers) {
            do {
                let titles = try apply(response, to: show, url: url)
                added += titles.count
                report.lines += titles.map { "new: \(show.metadata.title): \($0)" }
            } catch {
                report.problems.append("\(show.metadata.title) (\(Self.shown(show.url))): \(error.message)")
                try? store.recordRefresh(showID: show.id, error: error.message, at: now())
                if case .failed(_, let retryAt?) = response { try? store.setValue(String(retryAt), forKey: Self.retryKey(show.id)) }
            }
        }
        let failed = report.problems.count
        report.lines.append("refreshed \(due.count - failed) of \(shows.count) show\(shows.count == 1 ? "" : "s"): "
            + "\(added) new episode\(added == 1 ? "" : "s")" + (failed > 0 ? ", \(failed) failed" : ""))
        return report
    }

    /// Writes one show's answer: the titles of the episodes it added. Throws why the feed failed.
    private func apply(_ response: FeedResponse, to show: Show, url: String) throws(SubscriptionProblem) -> [String] {
        if case .notModified(let movedTo) = response {
            try write { () throws(LibraryError) in
                try follow(movedTo, show: show)
                try store.recordRefresh(showID: show.id, error: nil, at: now())
                try store.setValue(nil, forKey: Self.retryKey(show.id))
            }
            return []
        }
        let (document, body) = try document(response, url: url).get()
        guard case .feed(let feed) = document else { throw SubscriptionProblem("it is no longer a feed") }
        let episodes = FeedEpisodes.episodes(feed)
        let at = now()
        return try write { () throws(LibraryError) in
            try follow(body.movedTo, show: show)
            try store.updateShow(show.id, metadata: FeedEpisodes.metadata(feed))
            try store.setValidators(showID: show.id, etag: body.etag, lastModified: body.lastModified)
            let upsert = try store.upsertEpisodes(episodes, showID: show.id, markNew: true, at: at)
            try store.recordRefresh(showID: show.id, error: nil, at: at)
            try store.setValue(nil, forKey: Self.retryKey(show.id))
            // The feed announces a new home (`itunes:new-feed-url`): the next refresh asks there.
            if let announced = feed.newFeedURL, FeedSource.isRemote(announced), announced != (body.movedTo ?? show.url) {
                try follow(announced, show: show)
            }
            let added = Set(upsert.inserted)
            return try upsert.inserted.isEmpty ? [] : store.episodes(.show(show.id)).filter { added.contains($0.id) }.map(\.title)
        }
    }

    /// Moves the show to `url` when it is another: a URL another subscription has is left alone.
    private func follow(_ url: String?, show: Show) throws(LibraryError) {
        guard let url, url != show.url else { return }
        if let other = try store.showID(forURL: url), other != show.id { return }
        try store.moveShow(show.id, to: url, at: now())
    }

    /// `body` in one transaction, its errors as a problem.
    private func write<R>(_ body: () throws(LibraryError) -> R) throws(SubscriptionProblem) -> R {
        do {
            return try store.transaction(body)
        } catch {
            throw SubscriptionProblem(error.message)
        }
    }
}
