import AliciaFeeds
import Testing

/// URLs are resolved against the feed's URL and every `xml:base` around them; what the player
/// fetches is only ever http or https.
@Suite struct URLResolutionTests {
    @Test(arguments: [
        ("ep.mp3", "https://example.com/podcast/ep.mp3"),
        ("/media/ep.mp3", "https://example.com/media/ep.mp3"),
        ("../ep.mp3", "https://example.com/ep.mp3"),
        ("//cdn.example.net/ep.mp3", "https://cdn.example.net/ep.mp3"),
        ("?v=2", "https://example.com/podcast/feed.xml?v=2"),
        ("my episode.mp3", "https://example.com/podcast/my%20episode.mp3"),
        ("épisode.mp3", "https://example.com/podcast/%C3%A9pisode.mp3"),
        ("HTTPS://CDN.example.net/A.mp3", "HTTPS://CDN.example.net/A.mp3"),
    ])
    func againstTheFeedURL(_ written: String, _ expected: String) throws {
        let item = try readItem(rss("<item><guid>1</guid><enclosure url=\"\(written)\" type=\"audio/mpeg\"/></item>"),
                                url: "https://example.com/podcast/feed.xml")
        #expect(item.enclosure?.url == expected)
        #expect(item.warnings.isEmpty)
    }

    @Test func xmlBaseOnEveryAncestorApplies() throws {
        let xml = """
            <rss version="2.0" xml:base="https://one.example.com/a/" xmlns:podcast="https://podcastindex.org/namespace/1.0">
            <channel xml:base="b/"><title>t</title>
            <item xml:base="c/"><guid>1</guid><enclosure url="e.mp3"/>
            <podcast:chapters xml:base="/root/" url="ch.json"/>
            <podcast:transcript xml:base="https://other.example.org/x/" url="t.vtt" type="text/vtt"/></item>
            </channel></rss>
            """
        let item = try readItem(xml, url: "https://ignored.example.com/feed")
        #expect(item.enclosure?.url == "https://one.example.com/a/b/c/e.mp3")
        #expect(item.chaptersURL == "https://one.example.com/root/ch.json")
        #expect(item.transcripts.first?.url == "https://other.example.org/x/t.vtt")
    }

    @Test(arguments: ["file:///etc/passwd", "file:/etc/passwd", "ftp://example.com/e.mp3", "javascript:alert(1)", "data:audio/mpeg;base64,AAAA"])
    func aNonHTTPEnclosureIsRefusedWithAWarning(_ url: String) throws {
        let item = try readItem(rss("<item><guid>1</guid><enclosure url=\"\(url)\"/><podcast:chapters url=\"\(url)\"/><podcast:transcript url=\"\(url)\" type=\"text/vtt\"/></item>"),
                                url: "https://example.com/feed.xml")
        #expect(item.enclosure == nil)
        #expect(item.chaptersURL == nil)
        #expect(item.transcripts.isEmpty)
        #expect(item.warnings.count == 3)
        #expect(item.warnings.first?.hasPrefix("the enclosure URL") == true)
        #expect(item.warnings.first?.hasSuffix("is not http or https: left out") == true)
    }

    @Test func aFeedReadFromALocalFileGetsNoLocalPaths() throws {
        let item = try readItem(rss("<item><guid>1</guid><enclosure url=\"episode.mp3\"/></item>"), url: "/home/alicia/feeds/show.xml")
        #expect(item.enclosure == nil)
        #expect(item.warnings == ["the enclosure URL \"/home/alicia/feeds/episode.mp3\" is not http or https: left out"])
        let remote = try readItem(rss("<item><guid>1</guid><enclosure url=\"https://cdn.example.com/e.mp3\"/></item>"), url: "file:///tmp/show.xml")
        #expect(remote.enclosure?.url == "https://cdn.example.com/e.mp3")
    }

    @Test func aLinkThatIsNotHTTPIsDroppedQuietly() throws {
        let item = try readItem(rss("<item><guid>1</guid><link>javascript:alert(1)</link></item>"))
        #expect(item.link == nil)
        #expect(item.warnings.isEmpty)
    }
}
