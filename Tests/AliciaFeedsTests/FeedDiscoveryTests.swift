import AliciaFeeds
import Testing

/// Web pages that name their feeds (`<link rel="alternate" type="application/rss+xml">`).
@Suite struct FeedDiscoveryTests {
    static let page = """
        <!DOCTYPE html>
        <html lang="en"><head>
        <meta charset="utf-8">
        <title>The Alicia Show &mdash; home</title>
        <link rel="stylesheet" href="/style.css">
        <link rel="alternate" type="application/rss+xml" title="Podcast" href="/feed.xml">
        <LINK REL="Alternate home" TYPE="application/atom+xml; charset=utf-8" HREF="atom.xml">
        <link rel="alternate" type="application/json" href="/feed.json">
        <link rel="alternate" type="application/rss+xml" href="https://other.example.org/rss?a=1&b=2">
        <link rel="alternate" type="application/rss+xml" href="/feed.xml">
        <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
        </head><body><p>Hello<br>world & friends</body></html>
        """

    @Test func aPageGivesTheAbsoluteURLsOfItsFeedsInOrderOnce() throws {
        let document = try FeedDocument.read(Array(Self.page.utf8), url: "https://alicia.example.com/shows/index.html",
                                             contentType: "text/html; charset=utf-8", now: testNow).get()
        #expect(document == .page(feeds: [
            "https://alicia.example.com/feed.xml",
            "https://alicia.example.com/shows/atom.xml",
            "https://other.example.org/rss?a=1&b=2",
        ]))
    }

    @Test func aBaseElementMovesTheBase() throws {
        let page = """
            <html><head><base href="https://cdn.example.net/site/"><link rel="alternate" type="application/rss+xml" href="feed">
            </head></html>
            """
        let document = try FeedDocument.read(Array(page.utf8), url: "https://example.com/", now: testNow).get()
        #expect(document == .page(feeds: ["https://cdn.example.net/site/feed"]))
    }

    @Test func anXHTMLPageIsAPageToo() throws {
        let page = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title>
            <link rel="alternate" type="application/atom+xml" href="/atom"/></head><body/></html>
            """
        let document = try FeedDocument.read(Array(page.utf8), url: "https://example.com/a/b", now: testNow).get()
        #expect(document == .page(feeds: ["https://example.com/atom"]))
    }

    @Test func aPageServedAsTextHTMLWithoutADoctypeIsAPage() throws {
        let page = "<div><link rel=alternate type=application/rss+xml href=/f.rss></div>"
        let document = try FeedDocument.read(Array(page.utf8), url: "https://example.com/", contentType: "text/html", now: testNow).get()
        #expect(document == .page(feeds: ["https://example.com/f.rss"]))
    }

    @Test func aPageThatNamesNoFeedIsNotAFeed() {
        let page = "<!doctype html><html><head><title>Nothing</title></head><body>no feed here</body></html>"
        let result = FeedDocument.read(Array(page.utf8), url: "https://example.com/", now: testNow)
        #expect(result == .failure(FeedError(.notAFeed, "not a feed: a web page that names no feed")))
    }

    @Test func aFeedServedAsTextHTMLIsStillAFeed() throws {
        let feed = try readFeed(rss("<item><guid>1</guid></item>"), contentType: "text/html")
        #expect(feed.items.count == 1)
    }
}
