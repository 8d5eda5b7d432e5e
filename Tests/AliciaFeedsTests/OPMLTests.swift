import AliciaFeeds
import Testing

/// OPML subscription lists: as gPodder and newsboat export them, nested, and as we write them.
@Suite struct OPMLTests {
    static func outlines(_ bytes: [UInt8], url: String = "file:///home/alicia/subscriptions.opml") throws -> [OPMLOutline] {
        let document = try FeedDocument.read(bytes, url: url, now: testNow).get()
        guard case .opml(let outlines) = document else { throw Unexpected(description: "not OPML: \(document)") }
        return outlines
    }

    @Test func gPodderExport() throws {
        let outlines = try Self.outlines(Fixture.bytes("gpodder-export.opml"))
        #expect(outlines == [
            OPMLOutline(title: "Café & Q&A Radio", feedURL: "http://127.0.0.1:8765/show1.xml"),
            OPMLOutline(title: "Atom <Weekly> \"Show\"", feedURL: "http://127.0.0.1:8765/show2.xml?format=atom&x=1"),
            OPMLOutline(title: "Третий подкаст", feedURL: "http://127.0.0.1:8765/show3.xml"),
        ])
    }

    @Test func newsboatExport() throws {
        let outlines = try Self.outlines(Fixture.bytes("newsboat-export.opml"))
        #expect(outlines == [
            OPMLOutline(title: "Café Q&A", feedURL: "http://127.0.0.1:8765/show1.xml", siteURL: "https://example.org/cafe"),
            OPMLOutline(title: "Atom <Weekly> \"Show\"", feedURL: "http://127.0.0.1:8765/show2.xml?format=atom&x=1",
                        siteURL: "http://127.0.0.1:8765/show2.xml?format=atom&x=1"),
            OPMLOutline(title: "Третий подкаст", feedURL: "http://127.0.0.1:8765/show3.xml", siteURL: "https://example.org/three"),
        ])
    }

    @Test func nestedOutlinesAreCategories() throws {
        let opml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="1.1"><head><title>Mixed</title></head><body>
              <outline text="Tech">
                <outline text="News" title="News &amp; Views">
                  <outline title="Deep Show" text="ignored" XMLURL="https://deep.example.com/feed" HTMLURL="https://deep.example.com/"/>
                </outline>
                <outline text="Text Only" type="rss" xmlurl="feed://old.example.com/rss"/>
              </outline>
              <outline type="rss" xmlUrl="  https://top.example.com/feed  "/>
              <outline text="Relative" xmlUrl="relative/feed.xml"/>
              <outline text="Local" xmlUrl="file:///etc/passwd"/>
              <outline text="Wrapped" xmlUrl="feed:https://wrapped.example.com/feed"/>
              <outline text="Empty category"/>
            </body></opml>
            """
        let outlines = try Self.outlines(Array(opml.utf8), url: "https://lists.example.com/mine/list.opml")
        #expect(outlines == [
            OPMLOutline(title: "Deep Show", feedURL: "https://deep.example.com/feed", siteURL: "https://deep.example.com/",
                        categories: ["Tech", "News & Views"]),
            OPMLOutline(title: "Text Only", feedURL: "http://old.example.com/rss", categories: ["Tech"]),
            OPMLOutline(title: "https://top.example.com/feed", feedURL: "https://top.example.com/feed"),
            OPMLOutline(title: "Relative", feedURL: "https://lists.example.com/mine/relative/feed.xml"),
            OPMLOutline(title: "Wrapped", feedURL: "https://wrapped.example.com/feed"),
        ])
    }

    @Test func anOPMLWithoutABodyHasNoOutlines() throws {
        #expect(try Self.outlines(Array("<opml version=\"2.0\"><head/></opml>".utf8)).isEmpty)
    }

    static let shows = [
        OPMLOutline(title: "Café & \"Quotes\" <Show>", feedURL: "https://a.example.com/feed?x=1&y=2", siteURL: "https://a.example.com/"),
        OPMLOutline(title: "Line\nbreak\tand 'apostrophe' \u{1}control", feedURL: "https://b.example.com/rss"),
        OPMLOutline(title: "Третий 🎧", feedURL: "https://c.example.com/feed"),
    ]

    @Test func theWriterWritesOPML2() {
        let text = OPML.document(title: "alicia-player subscriptions", created: 1_796_615_626, outlines: Array(Self.shows.prefix(1)))
        #expect(text == """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0">
              <head>
                <title>alicia-player subscriptions</title>
                <dateCreated>Mon, 07 Dec 2026 03:53:46 GMT</dateCreated>
              </head>
              <body>
                <outline type="rss" text="Café &amp; &quot;Quotes&quot; &lt;Show&gt;" title="Café &amp; &quot;Quotes&quot; &lt;Show&gt;" \
            xmlUrl="https://a.example.com/feed?x=1&amp;y=2" htmlUrl="https://a.example.com/"/>
              </body>
            </opml>

            """)
    }

    @Test func whatIsWrittenReadsBack() throws {
        let text = OPML.document(title: "A & B", created: 0, outlines: Self.shows)
        let outlines = try Self.outlines(Array(text.utf8))
        var expected = Self.shows
        expected[1].title = "Line break and 'apostrophe' control"
        #expect(outlines == expected)
    }
}
