import AliciaFeeds
import Testing

/// Atom 1.0 (and 0.3's names), and RSS 1.0 / RDF.
@Suite struct AtomTests {
    static let atom = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xml:lang="fr"
              xml:base="https://atom.example.com/podcast/">
          <title type="text">Atom &amp; Eve &lt;3</title>
          <subtitle type="html">&lt;p&gt;The &lt;em&gt;first&lt;/em&gt; show&lt;/p&gt;</subtitle>
          <link rel="self" href="feed.atom"/>
          <link href="index.html"/>
          <id>urn:uuid:60a76c80-d399-11d9-b91C-0003939e0af6</id>
          <updated>2024-03-01T12:00:00Z</updated>
          <author><name>Eve Example</name></author>
          <logo>logo.png</logo>
          <entry>
            <title type="html">Entry &lt;b&gt;one&lt;/b&gt;</title>
            <link rel="alternate" type="text/html" href="one.html"/>
            <link rel="enclosure" type="audio/mpeg" length="1337" href="media/one.mp3"/>
            <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
            <published>2024-02-29T23:59:59.123-05:00</published>
            <updated>2024-03-01T10:00:00Z</updated>
            <summary>Plain &lt;not a tag&gt; summary</summary>
            <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Notes with <a href="https://example.com/">a link</a> &amp; more</p></div></content>
            <itunes:duration>45:00</itunes:duration>
          </entry>
          <entry xml:base="https://other.example.net/two/">
            <title>Entry two</title>
            <link rel="enclosure" href="two.m4a" type="audio/mp4"/>
            <id>  urn:two  </id>
            <updated>2024-03-01T11:00:00+01:00</updated>
            <content type="html">&lt;p&gt;HTML &amp;amp; notes&lt;/p&gt;</content>
          </entry>
        </feed>
        """

    @Test func theFeed() throws {
        let feed = try readFeed(Self.atom, url: "https://atom.example.com/feed.atom")
        #expect(feed.kind == .atom)
        #expect(feed.title == "Atom & Eve <3")
        #expect(feed.description == "The first show")
        #expect(feed.link == "https://atom.example.com/podcast/index.html")
        #expect(feed.author == "Eve Example")
        #expect(feed.imageURL == "https://atom.example.com/podcast/logo.png")
        #expect(feed.language == "fr")
        #expect(feed.items.count == 2)
    }

    @Test func anEntry() throws {
        let entry = try #require(try readFeed(Self.atom).items.first)
        #expect(entry.id == "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a")
        #expect(entry.title == "Entry one")
        #expect(entry.link == "https://atom.example.com/podcast/one.html")
        #expect(entry.enclosure == FeedEnclosure(url: "https://atom.example.com/podcast/media/one.mp3", type: "audio/mpeg", length: 1337))
        #expect(entry.published == 1_709_269_199)
        #expect(entry.summary == "Plain <not a tag> summary")
        #expect(entry.notesHTML == "<p>Notes with <a href=\"https://example.com/\">a link</a> &amp; more</p>")
        #expect(entry.duration == 2700)
    }

    @Test func anEntryWithItsOwnBaseAndOnlyAnUpdatedDate() throws {
        let entry = try #require(try readFeed(Self.atom).items.last)
        #expect(entry.id == "urn:two")
        #expect(entry.enclosure?.url == "https://other.example.net/two/two.m4a")
        #expect(entry.published == 1_709_287_200)
        #expect(entry.summary == "HTML & notes")
        #expect(entry.notesHTML == "<p>HTML &amp; notes</p>")
    }

    @Test func atom03NamesAreRead() throws {
        let xml = """
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>Old Atom</title><tagline>Tag</tagline>
            <entry><title>e</title><id>tag:x,2004:1</id><issued>2004-01-02T03:04:05Z</issued>
            <content type="text/html" mode="escaped">&lt;b&gt;bold&lt;/b&gt;</content></entry></feed>
            """
        let feed = try readFeed(xml)
        #expect(feed.kind == .atom)
        #expect(feed.description == "Tag")
        #expect(feed.items.first?.published == 1_073_012_645)
        #expect(feed.items.first?.summary == "bold")
    }

    static let rdf = """
        <?xml version="1.0"?>
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                 xmlns:dc="http://purl.org/dc/elements/1.1/">
          <channel rdf:about="https://rdf.example.com/">
            <title>RDF Show</title><link>https://rdf.example.com/</link><description>One point oh</description>
            <image rdf:resource="https://rdf.example.com/logo.gif"/>
            <items><rdf:Seq><rdf:li resource="https://rdf.example.com/1"/></rdf:Seq></items>
          </channel>
          <image rdf:about="https://rdf.example.com/logo.gif"><url>https://rdf.example.com/logo.gif</url></image>
          <item rdf:about="https://rdf.example.com/1">
            <title>First</title><link>https://rdf.example.com/1</link><dc:date>2003-12-13T18:30:02Z</dc:date>
            <dc:creator>Someone</dc:creator>
          </item>
          <item><title>No about, no link</title></item>
        </rdf:RDF>
        """

    @Test func rss1() throws {
        let feed = try readFeed(Self.rdf)
        #expect(feed.kind == .rdf)
        #expect(feed.title == "RDF Show")
        #expect(feed.description == "One point oh")
        #expect(feed.imageURL == "https://rdf.example.com/logo.gif")
        #expect(feed.items.map(\.id) == ["https://rdf.example.com/1", "title:No about, no link"])
        #expect(feed.items.first?.guid == "https://rdf.example.com/1")
        #expect(feed.items.first?.published == 1_071_340_202)
    }
}
