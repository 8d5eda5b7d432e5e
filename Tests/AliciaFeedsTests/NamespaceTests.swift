import AliciaFeeds
import Testing

/// Namespaces are matched by URI, whatever the prefix, in the URI's known spellings.
@Suite struct NamespaceTests {
    @Test(arguments: [
        "http://www.itunes.com/dtds/podcast-1.0.dtd",
        "https://www.itunes.com/dtds/podcast-1.0.dtd",
        "http://www.itunes.com/DTDs/Podcast-1.0.dtd",
        "http://itunes.com/dtds/podcast-1.0.dtd/",
        "HTTP://WWW.ITUNES.COM/DTDS/PODCAST-1.0.DTD",
    ])
    func iTunesByAnySpellingAndPrefix(_ uri: String) throws {
        let xml = """
            <rss version="2.0" xmlns:x="\(uri)"><channel><title>t</title>
            <item><guid>1</guid><x:duration>90</x:duration><x:episode>7</x:episode></item></channel></rss>
            """
        let item = try readItem(xml)
        #expect(item.duration == 90)
        #expect(item.episode == 7)
    }

    @Test(arguments: [
        "https://podcastindex.org/namespace/1.0",
        "http://podcastindex.org/namespace/1.0",
        "https://podcastindex.org/namespace/1.0/",
        "https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md",
    ])
    func podcastingTwoByAnySpelling(_ uri: String) throws {
        let xml = """
            <rss version="2.0" xmlns:p2="\(uri)"><channel><title>t</title>
            <item><guid>1</guid><p2:chapters url="https://example.com/c.json" type="application/json+chapters"/></item></channel></rss>
            """
        #expect(try readItem(xml).chaptersURL == "https://example.com/c.json")
    }

    @Test func aDefaultNamespaceIsAsGoodAsAPrefix() throws {
        let xml = """
            <rss version="2.0"><channel><title>t</title>
            <item><guid>1</guid><duration xmlns="http://www.itunes.com/dtds/podcast-1.0.dtd">2:00</duration></item></channel></rss>
            """
        #expect(try readItem(xml).duration == 120)
    }

    @Test func anElementOfAnUnknownNamespaceIsNotMistakenForRSS() throws {
        let xml = """
            <rss version="2.0" xmlns:other="https://example.com/other"><channel><title>t</title>
            <item><guid>1</guid><other:title>Wrong</other:title><title>Right</title></item></channel></rss>
            """
        #expect(try readItem(xml).title == "Right")
    }

    @Test func undeclaredWellKnownPrefixesAreTakenAtTheirWord() throws {
        let xml = """
            <rss version="2.0"><channel><title>t</title><itunes:author>Undeclared</itunes:author>
            <item><guid>1</guid><itunes:duration>1:00</itunes:duration><content:encoded>&lt;p&gt;notes&lt;/p&gt;</content:encoded>
            <podcast:transcript url="https://example.com/t.vtt" type="text/vtt"/></item></channel></rss>
            """
        let feed = try readFeed(xml)
        #expect(feed.author == "Undeclared")
        let item = try #require(feed.items.first)
        #expect(item.duration == 60)
        #expect(item.notesHTML == "<p>notes</p>")
        #expect(item.transcripts.map(\.url) == ["https://example.com/t.vtt"])
    }

    @Test func elementNamesAreMatchedWhateverTheirCase() throws {
        let item = try readItem(rss("<item><GUID>1</GUID><PubDate>Mon, 01 Jan 2024 00:00:00 GMT</PubDate><itunes:Duration>5</itunes:Duration></item>"))
        #expect(item.guid == "1")
        #expect(item.published == 1_704_067_200)
        #expect(item.duration == 5)
    }

    @Test func rss2ElementsInTheUserlandNamespaceAreRSS() throws {
        let xml = """
            <rss version="2.0" xmlns="http://backend.userland.com/rss2"><channel><title>Userland</title>
            <item><title>i</title><guid>g</guid></item></channel></rss>
            """
        let feed = try readFeed(xml)
        #expect(feed.title == "Userland")
        #expect(feed.items.map(\.id) == ["g"])
    }

    /// Items are freed while the read goes on, and the namespaces they declare with them: a prefix
    /// declared on each item is matched by its own URI every time (not by an address reused).
    @Test func namespacesDeclaredOnEachItemAreMatchedByTheirOwnURI() throws {
        let items = (0..<300).map { index in
            let uri = index.isMultiple(of: 2) ? "http://www.itunes.com/dtds/podcast-1.0.dtd" : "https://example.com/not-itunes/\(index)"
            return "<item xmlns:a=\"\(uri)\"><guid>\(index)</guid><a:duration>\(index)</a:duration>\(String(repeating: "<x/>", count: 100))</item>"
        }.joined()
        let feed = try readFeed("<rss version=\"2.0\"><channel><title>t</title>\(items)</channel></rss>")
        #expect(feed.items.count == 300)
        for (index, item) in feed.items.enumerated() {
            #expect(item.duration == (index.isMultiple(of: 2) ? Double(index) : nil), "item \(index)")
        }
    }
}
