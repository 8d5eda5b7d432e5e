import AliciaFeeds
import Testing

/// What identifies an item across refreshes: GUID, else link, else enclosure URL, else title.
@Suite struct ItemIdentityTests {
    @Test(arguments: [
        ("<guid>  guid-1\n</guid><link>https://e.example.com/l</link><enclosure url=\"https://e.example.com/e.mp3\"/>", "guid-1"),
        ("<guid></guid><link> https://e.example.com/l </link><enclosure url=\"https://e.example.com/e.mp3\"/>", "https://e.example.com/l"),
        ("<link>/relative/l</link>", "https://example.com/relative/l"),
        ("<enclosure url=\" https://e.example.com/e.mp3 \"/><title>T</title>", "https://e.example.com/e.mp3"),
        ("<title> Only  a title </title>", "title:Only a title"),
    ])
    func identity(_ elements: String, _ expected: String) throws {
        #expect(try readItem(rss("<item>\(elements)</item>")).id == expected)
    }

    @Test func anItemWithNothingToIdentifyItIsLeftOutWithAWarning() throws {
        let feed = try readFeed(rss("<item><description>anonymous</description></item><item><guid>kept</guid></item>"))
        #expect(feed.items.map(\.id) == ["kept"])
        #expect(feed.warnings.contains("an item with no guid, link, enclosure or title was left out"))
    }

    @Test func theSameFeedReadTwiceGivesTheSameIdentities() throws {
        let xml = rss("<item><title>A</title></item><item><link>https://e.example.com/b</link></item><item><guid>c</guid></item>")
        let first = try readFeed(xml, now: testNow)
        let second = try readFeed(xml, now: testNow + 3600)
        #expect(first.items.map(\.id) == second.items.map(\.id))
        #expect(first == second)
    }

    @Test func aPermalinkGUIDIsTheLinkOfAnItemWithout() throws {
        let item = try readItem(rss("<item><guid>https://e.example.com/p</guid></item>"))
        #expect(item.link == "https://e.example.com/p")
        let notPermalink = try readItem(rss("<item><guid isPermaLink=\"false\">https://e.example.com/p</guid></item>"))
        #expect(notPermalink.link == nil)
        let notAURL = try readItem(rss("<item><guid>episode-7</guid></item>"))
        #expect(notAURL.link == nil)
    }

    @Test func duplicateIdentitiesAreKeptAndSaid() throws {
        let feed = try readFeed(rss("<item><guid>same</guid><title>1</title></item><item><guid>same</guid><title>2</title></item>"))
        #expect(feed.items.map(\.title) == ["1", "2"])
        #expect(feed.warnings.contains("1 item(s) have the identity of an earlier item"))
    }
}
