import AliciaFeeds
import AliciaStore
import AliciaSubscriptions
import AliciaTestSupport
import Foundation
import Testing

/// Subscribing, refreshing and exporting over a real SQLite file, against a real nginx.
@Suite("Subscriptions")
struct SubscriptionsTests {
    static let opmlFixtures = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/"))
        + "/AliciaFeedsTests/Fixtures"

    @Test("a feed, a page that names it and an OPML list: one line a show, already subscribed said, nothing added for what is not a feed")
    func subscribe() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let library = try TestLibrary()
        try server.serve(TestFeed(title: "Alpha", items: [("a1", "First", "a1.wav"), ("a2", "Second", "a2.wav")]).bytes, as: "alpha.xml")
        try server.serve(TestFeed(title: "Beta", items: [("b1", "Only", "b1.wav")]).bytes, as: "beta.xml")
        try server.serve(Array("<html><head><link rel=\"alternate\" type=\"application/rss+xml\" href=\"beta.xml\"></head></html>".utf8), as: "beta.html")
        try server.serve(Array("<html><body>no feed here</body></html>".utf8), as: "plain.html")
        let report = library.subscriptions.subscribe([server.url("/media/alpha.xml"), server.url("/media/beta.html"),
                                                      server.url("/media/plain.html"), server.url("/status/404/x.xml")])
        #expect(report.lines == ["subscribed: Alpha (2 episodes)", "subscribed: Beta (1 episode)"])
        #expect(report.problems.count == 2, "\(report.problems)")
        #expect(report.problems.first { $0.contains("plain.html") }?.contains("not a feed") == true, "\(report.problems)")
        #expect(report.problems.first { $0.contains("/status/404") }?.contains("HTTP 404") == true, "\(report.problems)")
        let shows = try library.store.shows()
        #expect(shows.map(\.metadata.title) == ["Alpha", "Beta"])
        #expect(shows.map(\.url) == [server.url("/media/alpha.xml"), server.url("/media/beta.xml")])
        let again = library.subscriptions.subscribe([server.url("/media/alpha.xml")])
        #expect(again.lines == ["already subscribed: Alpha"] && !again.failed)
        // Nothing they had is new: new is what a refresh finds.
        #expect(try library.store.episodes(.new).isEmpty)
    }

    @Test("gPodder's OPML export subscribes every feed in it")
    func gpodderExport() throws {
        let server = try NginxServer()
        defer { server.stop() }
        for name in ["show1.xml", "show2.xml", "show3.xml"] {
            try server.serve(Array(try Data(contentsOf: URL(fileURLWithPath: Self.opmlFixtures + "/served/" + name))), as: name)
        }
        let opml = try String(contentsOfFile: Self.opmlFixtures + "/gpodder-export.opml", encoding: .utf8)
            .replacingOccurrences(of: "http://127.0.0.1:8765/", with: server.url("/media/"))
        let library = try TestLibrary()
        let path = try library.directory.write(Array(opml.utf8), as: "gpodder.opml")
        let report = library.subscriptions.subscribe([path])
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.lines.count == 3 && report.lines.allSatisfy { $0.hasPrefix("subscribed: ") }, "\(report.lines)")
        #expect(try library.store.shows().count == 3)
    }

    @Test("a second refresh is conditional and gets 304s; an item added later is new, and listed so")
    func refresh() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let library = try TestLibrary()
        var feed = TestFeed(title: "Alpha", items: [("a1", "First", "a1.wav")])
        try server.serve(feed.bytes, as: "alpha.xml")
        _ = library.subscriptions.subscribe([server.url("/media/alpha.xml")])
        let quiet = library.subscriptions.refresh([])
        #expect(quiet.lines == ["refreshed 1 of 1 show: 0 new episodes"] && !quiet.failed, "\(quiet)")
        #expect(await server.settledAccessLog().map(\.status) == [200, 304])
        // A longer file is a new ETag (nginx's is the time and the size): a 200 even within the same second.
        feed.items.append(("a2", "Second", "a2.wav"))
        try server.serve(feed.bytes, as: "alpha.xml")
        let found = library.subscriptions.refresh(["alpha"])
        #expect(found.lines == ["new: Alpha: Second", "refreshed 1 of 1 show: 1 new episode"], "\(found)")
        let new = try library.store.episodes(.new)
        #expect(new.map(\.title) == ["Second"])
        #expect(new.first?.url == server.url("/media/a2.wav"))
        #expect(try library.store.shows().first?.newCount == 1)
    }

    @Test("one feed that fails is named with why; the others are refreshed all the same; shows keeps the error")
    func oneBadFeed() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let library = try TestLibrary()
        try server.serve(TestFeed(title: "Alpha", items: []).bytes, as: "alpha.xml")
        try server.serve(TestFeed(title: "Beta", items: []).bytes, as: "beta.xml")
        _ = library.subscriptions.subscribe([server.url("/media/alpha.xml"), server.url("/media/beta.xml")])
        try server.remove("alpha.xml")
        try server.serve(TestFeed(title: "Beta", items: [("b1", "Fresh", "b1.wav")]).bytes, as: "beta.xml")
        let report = library.subscriptions.refresh([])
        #expect(report.problems.count == 1 && report.problems[0].hasPrefix("Alpha (") && report.problems[0].hasSuffix("HTTP 404"), "\(report.problems)")
        #expect(report.lines.contains("new: Beta: Fresh"), "\(report.lines)")
        #expect(report.lines.last == "refreshed 1 of 2 shows: 1 new episode, 1 failed")
        let shows = try library.store.shows()
        #expect(shows.map(\.lastError) == ["HTTP 404", nil])
        #expect(SubscriptionLists.showsJSON(shows).contains("\"error\":\t\"HTTP 404\""))
    }

    @Test("a feed that moved for good (a 301, itunes:new-feed-url) is followed; its old URL still finds it")
    func moves() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let library = try TestLibrary()
        try server.serve(TestFeed(title: "Alpha", items: []).bytes, as: "alpha.xml")
        #expect(library.subscriptions.subscribe([server.url("/moved/alpha.xml")]).lines == ["subscribed: Alpha (0 episodes)"])
        #expect(try library.store.shows().map(\.url) == [server.url("/media/alpha.xml")])
        #expect(library.subscriptions.subscribe([server.url("/media/alpha.xml")]).lines == ["already subscribed: Alpha"])
        try server.serve(TestFeed(title: "Alpha", items: [], newFeedURL: server.url("/media/alpha2.xml")).bytes, as: "alpha.xml")
        try server.serve(TestFeed(title: "Alpha", items: [("n", "At the new home", "n.wav")]).bytes, as: "alpha2.xml")
        #expect(!library.subscriptions.refresh([]).failed)
        #expect(try library.store.shows().map(\.url) == [server.url("/media/alpha2.xml")])
        let next = library.subscriptions.refresh([])
        #expect(next.lines.first == "new: Alpha: At the new home", "\(next)")
        #expect(library.subscriptions.subscribe([server.url("/moved/alpha.xml")]).lines == ["already subscribed: Alpha"])
    }

    @Test("a server that asks to wait is not asked again before then")
    func retryAfter() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let library = try TestLibrary()
        try server.serve(TestFeed(title: "Alpha", items: []).bytes, as: "alpha.xml")
        _ = library.subscriptions.subscribe([server.url("/media/alpha.xml")])
        let show = try #require(try library.store.shows().first)
        try library.store.moveShow(show.id, to: server.url("/busy/alpha.xml"))
        let busy = library.subscriptions.refresh([])
        #expect(busy.failed && busy.problems[0].hasSuffix("HTTP 503"), "\(busy)")
        let skipped = library.subscriptions.refresh([])
        #expect(!skipped.failed && skipped.lines.first?.contains("not asked again until") == true, "\(skipped)")
        #expect(await server.settledAccessLog().filter { $0.uri.hasPrefix("/busy/") }.count == 1)
    }

    @Test("export writes OPML that reads back as the same subscriptions")
    func export() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let library = try TestLibrary()
        try server.serve(TestFeed(title: "Alpha & Omega", items: []).bytes, as: "alpha.xml")
        try server.serve(TestFeed(title: "Beta", items: []).bytes, as: "beta.xml")
        _ = library.subscriptions.subscribe([server.url("/media/alpha.xml"), server.url("/media/beta.xml")])
        let opml = try library.subscriptions.export()
        guard case .success(.opml(let outlines)) = FeedDocument.read(Array(opml.utf8), url: "export.opml", now: 0) else {
            Issue.record("not OPML: \(opml)")
            return
        }
        #expect(outlines.map(\.title) == ["Alpha & Omega", "Beta"])
        #expect(outlines.map(\.feedURL) == [server.url("/media/alpha.xml"), server.url("/media/beta.xml")])
    }

    @Test("episodes keep what the feed says: absolute enclosure, chapters, the listener's transcript; a file:// enclosure is never kept")
    func episodeFields() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let library = try TestLibrary()
        var feed = TestFeed(title: "Alpha", items: [("a1", "First", "a1.wav")]).bytes
        feed = Array(String(decoding: feed, as: UTF8.self).replacingOccurrences(of: "</channel>",
            with: "<item><title>Hostile</title><guid>h</guid><enclosure url=\"file:///etc/passwd\" type=\"audio/wav\"/></item></channel>").utf8)
        try server.serve(feed, as: "alpha.xml")
        #expect(library.subscriptions.subscribe([server.url("/media/alpha.xml")]).lines == ["subscribed: Alpha (1 episode)"])
        let rows = try library.store.episodes()
        let json = SubscriptionLists.episodesJSON(rows, details: try library.store.episodeDetails(), language: "de_DE")
        #expect(json.contains("\"url\": \"\(server.url("/media/a1.wav"))\""), "\(json)")
        #expect(json.contains("\"chapters_url\": \"\(server.url("/media/chapters-a1.json"))\""), "\(json)")
        #expect(json.contains("\"transcript_url\": \"\(server.url("/media/a1.srt"))\""), "\(json)")
        #expect(json.contains("\"duration\": 60") && json.contains("\"published\": \"2026-06-01T10:00:00Z\""), "\(json)")
        #expect(!json.contains("passwd"))
    }

    @Test("a private feed's token is in no line: not in a failure, not in shows' text")
    func privateFeedToken() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let library = try TestLibrary()
        try server.serve(TestFeed(title: "Private", items: []).bytes, as: "private.xml")
        let failed = library.subscriptions.subscribe([server.url("/status/404/private.xml?token=s3cret-feed")])
        #expect(failed.problems.count == 1 && !failed.problems[0].contains("s3cret-feed"), "\(failed)")
        #expect(failed.problems.first?.contains("token=***") == true, "\(failed)")
        let subscribed = library.subscriptions.subscribe([server.url("/media/private.xml?token=s3cret-feed")])
        #expect(subscribed.lines == ["subscribed: Private (0 episodes)"], "\(subscribed)")
        try server.remove("private.xml")
        let refreshed = library.subscriptions.refresh([])
        #expect(refreshed.problems.count == 1 && !refreshed.problems[0].contains("s3cret-feed"), "\(refreshed)")
        #expect(!SubscriptionLists.showsText(try library.store.shows()).contains("s3cret-feed"))
    }
}

