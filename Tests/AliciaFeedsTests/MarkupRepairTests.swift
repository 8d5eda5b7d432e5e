import AliciaFeeds
import Testing

/// HTML's entities and bare ampersands, which XML does not allow, never cost a feed or an item;
/// the text reads as meant.
@Suite struct MarkupRepairTests {
    @Test(arguments: [
        ("Caf&eacute; &amp; cr&egrave;me", "Café & crème"),
        ("One&nbsp;two", "One two"),
        ("Wait&hellip; &mdash; what&rsquo;s &ldquo;this&rdquo;?", "Wait… — what’s “this”?"),
        ("Q&A", "Q&A"),
        ("Q & A", "Q & A"),
        ("AT&T's &copy; 2024 &trade;", "AT&T's © 2024 ™"),
        ("&Eacute;t&eacute;", "Été"),
        ("&euro;5 &pound;4 &yen;3", "€5 £4 ¥3"),
        ("&unknownentity; stays", "&unknownentity; stays"),
        ("&#233;&#xE9;&#XE9;", "ééé"),
        ("smart &#146;quote&#148; from a CMS", "smart ’quote” from a CMS"),
        ("&#0; &#xD800; &#1114112;x", "\u{FFFD} \u{FFFD} \u{FFFD}x"),
        ("&#; &#x; &# 1;", "&#; &#x; &# 1;"),
        ("ends with &", "ends with &"),
        ("&amp;eacute; is double-escaped", "é is double-escaped"),
        ("&lt;b&gt;bold&lt;/b&gt; &quot;q&quot; &apos;a&apos;", "bold \"q\" 'a'"),
    ])
    func entitiesAndAmpersandsInTextReadAsMeant(_ written: String, _ expected: String) throws {
        let feed = try readFeed(rss("<item><title>\(written)</title><guid>1</guid><description>\(written)</description></item>",
                                    channel: "<title>\(written)</title>"))
        #expect(feed.title == expected)
        let item = try #require(feed.items.first)
        #expect(item.title == expected)
        #expect(item.summary == expected)
    }

    @Test func noItemIsLostToAnEntity() throws {
        let items = (1...5).map { "<item><title>Episode \($0) &ndash; caf&eacute; &</title><guid>\($0)</guid></item>" }.joined()
        let feed = try readFeed(rss(items))
        #expect(feed.items.map(\.id) == ["1", "2", "3", "4", "5"])
        #expect(feed.items.first?.title == "Episode 1 – café &")
        #expect(!feed.warnings.contains { $0.contains("not well-formed") }, "\(feed.warnings)")
    }

    @Test func ampersandsInAttributeValuesAreKept() throws {
        let item = try readItem(rss("<item><guid>1</guid><enclosure url=\"https://cdn.example.com/e.mp3?a=1&b=2&amp;c=3\" type=\"audio/mpeg\"/></item>"))
        #expect(item.enclosure?.url == "https://cdn.example.com/e.mp3?a=1&b=2&c=3")
    }

    @Test func lessThanSignsThatStartNoTagAreText() throws {
        let feed = try readFeed(rss("<item><guid>1</guid><title>1 < 2 and 3 > 2, <3</title><link>https://e.example.com/?q=a<b</link></item>"))
        #expect(feed.items.first?.title == "1 < 2 and 3 > 2, <3")
        #expect(feed.warnings.contains("2 '<'(s) that start no tag were read as text"))
        let attribute = try readItem(rss("<item><guid>1</guid><enclosure url=\"https://e.example.com/a<b>.mp3\"/></item>"))
        #expect(attribute.enclosure?.url == "https://e.example.com/a%3Cb%3E.mp3")
    }

    @Test func aTagKeepsAtMost256Attributes() throws {
        let attributes = (0..<300).map { "a\($0)=\"\($0)\"" }.joined(separator: " ")
        let item = try readItem(rss("<item><guid>1</guid><enclosure \(attributes) url=\"https://e.example.com/late.mp3\"/><title>kept</title></item>"))
        #expect(item.title == "kept")
        #expect(item.enclosure == nil)
        let early = try readItem(rss("<item><guid>1</guid><enclosure url=\"https://e.example.com/early.mp3\" \(attributes)/><title>kept</title></item>"))
        #expect(early.enclosure?.url == "https://e.example.com/early.mp3")
        #expect(early.title == "kept")
    }

    @Test func cdataIsNeverTouched() throws {
        let item = try readItem(rss("<item><guid>1</guid><description><![CDATA[Fish &amp; chips &nbsp; & <b>more</b>]]></description></item>"))
        #expect(item.notesHTML == "Fish &amp; chips &nbsp; & <b>more</b>")
        #expect(item.summary == "Fish & chips & more")
    }

    @Test func entitiesTheDocumentDeclaresAreItsOwn() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [
              <!-- a comment with an <!ENTITY fake "no"> inside -->
              <!ENTITY show "The &quot;Declared&quot; Show">
              <!ENTITY nbsp "&#160;">
              <!ENTITY eacute "E-ACUTE">
            ]>
            <rss version="2.0"><channel><title>&show;</title>
            <item><title>caf&eacute;&nbsp;x</title><guid>1</guid></item></channel></rss>
            """
        let feed = try readFeed(xml)
        #expect(feed.title == "The \"Declared\" Show")
        #expect(feed.items.first?.title == "cafE-ACUTE x")
    }

    @Test func theNetscapeDoctypeDoesNotHideHTMLEntities() throws {
        let xml = """
            <?xml version="1.0" encoding="ISO-8859-1"?>
            <!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">
            <rss version="0.91"><channel><title>Old &amp; caf&eacute;</title><item><title>i</title><link>http://example.com/i</link></item></channel></rss>
            """
        let feed = try readFeed(xml)
        #expect(feed.title == "Old & café")
        #expect(feed.items.first?.id == "http://example.com/i")
    }

    @Test func commentsAndProcessingInstructionsAreKeptOutOfText() throws {
        let xml = rss("<item><!-- &bogus; --><?php echo '&'; ?><title>T<!-- hidden -->itle</title><guid>1</guid></item>")
        #expect(try readItem(xml).title == "Title")
    }
}
