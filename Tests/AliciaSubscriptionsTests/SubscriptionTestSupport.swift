import AliciaStore
import AliciaSubscriptions
import AliciaTestSupport
import Foundation

/// A feed as a test writes it: RSS 2.0 with the iTunes and Podcasting 2.0 namespaces.
struct TestFeed {
    var title: String
    var items: [(guid: String, title: String, file: String)]
    var newFeedURL: String?

    var bytes: [UInt8] {
        let moved = newFeedURL.map { "<itunes:new-feed-url>\($0)</itunes:new-feed-url>" } ?? ""
        let entries = items.enumerated().map { index, item in
            """
            <item><title>\(item.title)</title><guid isPermaLink="false">\(item.guid)</guid>
            <pubDate>Mon, 0\(index + 1) Jun 2026 10:00:00 GMT</pubDate><itunes:duration>\(index + 1):00</itunes:duration>
            <enclosure url="\(item.file)" type="audio/wav" length="1000"/>
            <podcast:chapters url="chapters-\(item.guid).json" type="application/json+chapters"/>
            <podcast:transcript url="\(item.guid).srt" type="application/srt" language="de"/>
            <podcast:transcript url="\(item.guid).vtt" type="text/vtt" language="en"/></item>
            """
        }.joined(separator: "\n")
        return Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                 xmlns:podcast="https://podcastindex.org/namespace/1.0">
            <channel><title>\(title)</title><link>https://example.org/</link><description>A show&nbsp;for tests</description>
            <language>en</language>\(moved)
            \(entries)
            </channel></rss>
            """.utf8)
    }
}

/// A library database in a directory of its own, and `Subscriptions` over it.
final class TestLibrary {
    let directory: TemporaryDirectory
    let store: LibraryStore
    let subscriptions: Subscriptions

    init() throws {
        directory = try TemporaryDirectory(prefix: "subscriptions")
        store = try LibraryStore(path: directory.file("library.db"))
        subscriptions = Subscriptions(store: store)
    }

    deinit { directory.remove() }
}
