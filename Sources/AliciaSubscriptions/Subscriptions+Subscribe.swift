import AliciaFeeds
import AliciaStore

/// `subscribe URL|FILE…`.
extension Subscriptions {
    /// A feed to subscribe to: what the listener named (a URL, a file, an OPML outline's URL) and
    /// where it is fetched.
    struct Wanted {
        var named: String
        var url: String
    }

    /// Subscribes to every source: a feed, a web page that names its feed (the first it names), or
    /// an OPML list (every outline with a feed URL). One line per show; a show already subscribed
    /// says so; a source that is not a feed is one problem, and nothing of it is added.
    package func subscribe(_ sources: [String]) -> Report {
        var report = Report()
        var next: [Wanted] = []
        round(sources.map { Wanted(named: $0, url: $0) }, into: &report) { wanted, document in
            switch document {
            case .opml(let outlines):
                let feeds = outlines.filter { FeedSource.isRemote($0.feedURL) }
                if feeds.isEmpty { return "the OPML list has no feed URL in it" }
                next += feeds.map { Wanted(named: $0.feedURL, url: $0.feedURL) }
            case .page(let feeds):
                next.append(Wanted(named: wanted.named, url: feeds[0]))
            case .feed: break
            }
            return nil
        }
        round(next, into: &report) { _, document in
            if case .feed = document { return nil }
            return "not a feed"
        }
        return report
    }

    /// Fetches what is wanted (what is already subscribed is said, not fetched) and adds every feed;
    /// `other` takes what is not a feed and returns why it is a problem, or nil.
    private func round(_ wanted: [Wanted], into report: inout Report, other: (Wanted, FeedDocument) -> String?) {
        var fetching: [Wanted] = []
        for item in wanted {
            if let title = subscribedTitle(item.url) {
                report.lines.append("already subscribed: \(title)")
            } else if !fetching.contains(where: { $0.url == item.url }) {
                fetching.append(item)
            }
        }
        for (item, (url, response)) in zip(fetching, fetch(fetching.map { FeedRequest(url: $0.url) })) {
            switch document(response, url: url) {
            case .failure(let problem):
                report.problems.append("\(Self.shown(item.named)): \(problem.message)")
            case .success((.feed(let feed), let body)):
                let stored = body.movedTo ?? url
                if let title = subscribedTitle(stored) {
                    report.lines.append("already subscribed: \(title)")
                    continue
                }
                do {
                    report.lines.append(try add(feed, url: stored, body: body))
                } catch {
                    report.problems.append("\(Self.shown(item.named)): \(error.message)")
                }
            case .success((let document, _)):
                if let why = other(item, document) { report.problems.append("\(Self.shown(item.named)): \(why)") }
            }
        }
    }

    private func subscribedTitle(_ url: String) -> String? {
        guard let id = try? store.showID(forURL: url), let show = try? store.show(id) else { return nil }
        return show.metadata.title
    }

    /// Adds the show and its episodes in one transaction (none of them new: they were there before
    /// the listener came); the line that says so.
    private func add(_ feed: Feed, url: String, body: FeedBody) throws(LibraryError) -> String {
        let episodes = FeedEpisodes.episodes(feed)
        let metadata = FeedEpisodes.metadata(feed)
        let at = now()
        try store.transaction { () throws(LibraryError) in
            let id = try store.upsertShow(url: url, metadata: metadata, at: at)
            try store.setValidators(showID: id, etag: body.etag, lastModified: body.lastModified)
            _ = try store.upsertEpisodes(episodes, showID: id, markNew: false, at: at)
            try store.recordRefresh(showID: id, error: nil, at: at)
        }
        return "subscribed: \(metadata.title) (\(episodes.count) episode\(episodes.count == 1 ? "" : "s"))"
    }
}
