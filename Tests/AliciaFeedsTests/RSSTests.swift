import AliciaFeeds
import Testing

/// RSS 2.0 (and 0.9x), and the podcast feed fixture with every element the reader takes.
@Suite struct RSSTests {
    static func podcastFeed() throws -> Feed {
        try readFeed(bytes: Fixture.bytes("podcast20.xml"), url: "https://alicia.example.com/feed.xml")
    }

    @Test func theChannel() throws {
        let feed = try Self.podcastFeed()
        #expect(feed.kind == .rss)
        #expect(feed.title == "The Alicia Show")
        #expect(feed.link == "https://alicia.example.com/")
        #expect(feed.description == "A show about listening.")
        #expect(feed.language == "en-us")
        #expect(feed.author == "Alicia Example")
        #expect(feed.imageURL == "https://alicia.example.com/cover.jpg")
        #expect(feed.newFeedURL == "https://new.example.com/feed.xml")
        #expect(feed.podcastGUID == "917393e3-1b1e-5cef-ace4-edaa54e1f810")
        #expect(feed.updateFrequency == 604_800)
        #expect(feed.complete)
        #expect(!feed.block)
        #expect(feed.funding == [FeedFunding(url: "https://alicia.example.com/donate", text: "Support the show!")])
        #expect(feed.persons == [FeedPerson(name: "Alicia", role: "host", group: "cast", imageURL: "https://alicia.example.com/alicia.jpg",
                                            href: "https://alicia.example.com/about")])
        #expect(feed.warnings.isEmpty, "\(feed.warnings)")
    }

    @Test func aFullItem() throws {
        let item = try #require(try Self.podcastFeed().items.first)
        #expect(item.id == "alicia-42")
        #expect(item.guid == "alicia-42")
        #expect(item.title == "Episode 42: The Answer")
        #expect(item.link == "https://alicia.example.com/42")
        #expect(item.published == 1_725_982_200)
        #expect(item.duration == 3723.5)
        #expect(item.enclosure == FeedEnclosure(url: "https://cdn.example.com/42.mp3", type: "audio/mpeg", length: 43_210_000))
        #expect(item.summary == "Plain summary of 42.")
        #expect(item.notesHTML == "<p>Show notes for <a href=\"https://example.com\">42</a>.</p>")
        #expect(item.imageURL == "https://alicia.example.com/42.jpg")
        #expect(item.episodeType == .full)
        #expect(item.season == 3)
        #expect(item.episode == 42)
        #expect(item.block)
        #expect(item.warnings.isEmpty, "\(item.warnings)")
    }

    @Test func podcastingTwoElementsOfAnItem() throws {
        let item = try #require(try Self.podcastFeed().items.first)
        #expect(item.chaptersURL == "https://alicia.example.com/42/chapters.json")
        #expect(item.chaptersType == "application/json+chapters")
        #expect(item.transcripts == [
            FeedTranscript(url: "https://alicia.example.com/42/transcript.srt", type: "application/x-subrip", language: "en"),
            FeedTranscript(url: "https://alicia.example.com/42/transcript.vtt", type: "text/vtt", language: "en", rel: "captions"),
            FeedTranscript(url: "https://alicia.example.com/42/transcript-es.vtt", type: "text/vtt", language: "es"),
            FeedTranscript(url: "https://alicia.example.com/42/transcript.json", type: "application/json"),
        ])
        #expect(item.persons == [
            FeedPerson(name: "Bob Guest", role: "guest", group: "cast", href: "https://example.org/bob"),
            FeedPerson(name: "Carol Default"),
        ])
        #expect(item.funding == [FeedFunding(url: "https://alicia.example.com/42/tip", text: "Tip this episode")])
        #expect(item.alternateEnclosures == [
            AlternateEnclosure(type: "audio/opus", length: 32_400_000, bitrate: 96_000, title: "Opus", language: "en",
                               sources: [AlternateEnclosure.Source(uri: "https://cdn.example.com/42.opus", contentType: "audio/opus")]),
        ])
    }

    @Test func aSparseItemFallsBack() throws {
        let item = try #require(try Self.podcastFeed().items.last)
        #expect(item.id == "https://alicia.example.com/trailer")
        #expect(item.link == "https://alicia.example.com/trailer")
        #expect(item.enclosure?.url == "https://alicia.example.com/media/trailer.mp3")
        #expect(item.enclosure?.length == 0)
        #expect(item.episodeType == .trailer)
        #expect(item.summary == "Only an iTunes summary.")
        #expect(item.notesHTML == "Only an <b>iTunes</b> summary.")
        #expect(item.season == 1)
        #expect(item.episode == 1.5)
        #expect(item.duration == nil)
        #expect(!item.block)
    }

    @Test func itemsKeepTheFeedsOrder() throws {
        let items = (1...20).map { "<item><guid>g\($0)</guid></item>" }.joined()
        #expect(try readFeed(rss(items)).items.map(\.id) == (1...20).map { "g\($0)" })
    }

    @Test func rssImageAndTTLAreFallbacks() throws {
        let feed = try readFeed(rss("", channel: "<title>t</title><ttl>30</ttl><image><url>/logo.png</url></image>"))
        #expect(feed.imageURL == "https://example.com/logo.png")
        #expect(feed.updateFrequency == 1800)
    }

    @Test func theSyndicationModuleIsAFallbackForTheFrequency() throws {
        let feed = try readFeed(rss("", channel: "<title>t</title><ttl>30</ttl><sy:updatePeriod>daily</sy:updatePeriod><sy:updateFrequency>2</sy:updateFrequency>",
                                    declarations: "xmlns:sy=\"http://purl.org/rss/1.0/modules/syndication/\""))
        #expect(feed.updateFrequency == 43_200)
    }

    @Test func fallbacksForDatesAuthorsAndMedia() throws {
        let xml = rss("""
            <item><guid>1</guid><dc:date>2024-05-06T07:08:09Z</dc:date>
            <media:group><media:content url="https://cdn.example.com/v.mp4" type="video/mp4" fileSize="77"/>
            <media:thumbnail url="https://cdn.example.com/t.jpg"/></media:group>
            <media:content url="https://cdn.example.com/image.jpg" medium="image"/></item>
            """, channel: "<title>t</title><dc:creator>DC Author</dc:creator>")
        let feed = try readFeed(xml)
        #expect(feed.author == "DC Author")
        let item = try #require(feed.items.first)
        #expect(item.published == 1_714_979_289)
        #expect(item.enclosure == FeedEnclosure(url: "https://cdn.example.com/v.mp4", type: "video/mp4", length: 77))
        #expect(item.imageURL == "https://cdn.example.com/t.jpg")
    }

    @Test func theFirstEnclosureWins() throws {
        let item = try readItem(rss("""
            <item><guid>1</guid><enclosure url="https://a.example.com/1.mp3" type="audio/mpeg"/>
            <enclosure url="https://a.example.com/2.mp3" type="audio/mpeg"/></item>
            """))
        #expect(item.enclosure?.url == "https://a.example.com/1.mp3")
    }

    @Test(arguments: [("12", Int64?.some(12)), ("-1", nil), ("", nil), ("1e6", nil), ("  34  ", 34)])
    func enclosureLengths(_ written: String, _ expected: Int64?) throws {
        let item = try readItem(rss("<item><guid>1</guid><enclosure url=\"https://a.example.com/1.mp3\" length=\"\(written)\"/></item>"))
        #expect(item.enclosure?.length == expected)
    }

    @Test func unescapedHTMLInADescriptionIsKeptAsNotes() throws {
        let item = try readItem(rss("<item><guid>1</guid><description><p>Hello <b>you</b> &amp; <a href=\"/x?a=1&amp;b=2\">them</a></p><br/>Bye</description></item>"))
        #expect(item.notesHTML == "<p>Hello <b>you</b> &amp; <a href=\"/x?a=1&amp;b=2\">them</a></p><br>Bye")
        #expect(item.summary == "Hello you & them Bye")
    }

    @Test func whiteSpaceInTitlesIsCollapsed() throws {
        let item = try readItem(rss("<item><guid>1</guid><title>\n   Two\t\tlines\n   here  </title></item>"))
        #expect(item.title == "Two lines here")
    }

    /// Items are read and freed while libxml2 parses, chunk by chunk: a feed of many chunks, with
    /// an item whose notes span several of them, reads the same as it is written.
    @Test func aFeedOfManyChunksReadsWhole() throws {
        let longNotes = String(repeating: "<p>Long notes &amp; more</p>", count: 8_000)
        var items = ""
        for index in 0..<400 {
            let notes = index == 200 ? longNotes : "<p>Notes \(index)</p>"
            items += """
                <item><title>Episode \(index) &amp; friends</title><guid>g\(index)</guid>
                <description><![CDATA[\(notes)]]></description><itunes:duration>\(index)</itunes:duration>
                <enclosure url="https://cdn.example.com/\(index).mp3" length="\(index)" type="audio/mpeg"/>
                <pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate></item>

                """
        }
        let xml = rss(items, channel: "<title>Many</title>" + String(repeating: "<category>c</category>", count: 5_000))
        #expect(xml.utf8.count > 6 * 64 * 1024)
        let feed = try readFeed(xml)
        #expect(feed.title == "Many")
        #expect(feed.items.count == 400)
        for (index, item) in feed.items.enumerated() {
            #expect(item.id == "g\(index)")
            #expect(item.title == "Episode \(index) & friends")
            #expect(item.duration == Double(index))
            #expect(item.enclosure == FeedEnclosure(url: "https://cdn.example.com/\(index).mp3", type: "audio/mpeg", length: Int64(index)))
            #expect(item.published == 1_704_067_200)
            #expect(item.notesHTML == (index == 200 ? longNotes : "<p>Notes \(index)</p>"))
        }
    }
}
