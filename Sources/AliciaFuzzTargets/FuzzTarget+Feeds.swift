import AliciaFeeds

extension FuzzTarget {
    /// When the fuzzed documents are read: dates after it plus a day must not be trusted.
    static let feedReadTime: Int64 = 1_800_000_000

    /// Feeds (RSS 2.0, RSS 1.0, Atom), web pages that name feeds, and OPML through the one entry
    /// point, over libxml2. Properties: every URL a feed hands the player is http(s); every item
    /// has an identity; no date is later than a day after the read; a failure is one line.
    static let feed = FuzzTarget(name: "feed", about: "podcast feeds, feed discovery in web pages (AliciaFeeds over libxml2)") { bytes in
        switch FeedDocument.read(bytes, url: "https://fuzz.example.com/podcast/feed.xml", now: feedReadTime, limit: 4 << 20) {
        case .success(.feed(let feed)):
            for item in feed.items {
                precondition(!item.id.isEmpty, "FeedDocument.read: an item without an identity")
                precondition((item.published ?? 0) <= feedReadTime + 86_400, "FeedDocument.read: a date from the future was trusted")
                let fetched = [item.enclosure?.url, item.chaptersURL].compactMap { $0 } + item.transcripts.map(\.url)
                    + item.alternateEnclosures.flatMap { $0.sources.map(\.uri) }
                precondition(fetched.allSatisfy(isHTTP), "FeedDocument.read: a URL to fetch is not http(s)")
                precondition(item.duration.map { $0.isFinite && $0 >= 0 } ?? true, "FeedDocument.read: a duration that is not a time")
            }
            _ = feed.items.first?.transcripts.preferred(language: "en", feedLanguage: feed.language)
        case .success(.page(let feeds)):
            precondition(!feeds.isEmpty && feeds.allSatisfy(isHTTP), "FeedDocument.read: a page's feed that is not http(s)")
        case .success(.opml(let outlines)):
            precondition(outlines.map(\.feedURL).allSatisfy(isHTTP), "FeedDocument.read: an OPML feed URL that is not http(s)")
        case .failure(let error):
            precondition(!error.message.isEmpty && !error.message.contains("\n"), "FeedError: not one line")
        }
    }

    /// OPML subscription lists, and the OPML `export` writes. Property: a list written back out
    /// (flat, one outline per show) reads as the same feeds in the same order.
    static let opml = FuzzTarget(name: "opml", about: "OPML subscription lists, and OPML writing (AliciaFeeds)") { bytes in
        guard case .success(.opml(let outlines)) = FeedDocument.read(bytes, url: "https://fuzz.example.com/list.opml", now: feedReadTime,
                                                                     limit: 4 << 20) else { return }
        let written = OPML.document(title: "fuzz", created: feedReadTime, outlines: outlines)
        guard case .success(.opml(let again)) = FeedDocument.read(Array(written.utf8), url: "https://fuzz.example.com/list.opml",
                                                                  now: feedReadTime) else {
            preconditionFailure("OPML.document: what was written is not OPML")
        }
        precondition(again.map(\.feedURL) == outlines.map(\.feedURL), "OPML.document: the feeds written do not read back")
    }

    private static func isHTTP(_ url: String) -> Bool {
        let head = url.prefix(8).lowercased()
        return head.hasPrefix("http://") || head.hasPrefix("https://")
    }
}
