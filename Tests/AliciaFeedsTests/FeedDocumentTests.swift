import AliciaFeeds
import Testing

/// The one entry point: what a document is, and the documents that are not feeds.
@Suite struct FeedDocumentTests {
    @Test func anRSSFeedIsAFeed() throws {
        let feed = try readFeed(rss("<item><title>One</title><guid>1</guid></item>"))
        #expect(feed.kind == .rss)
        #expect(feed.title == "Show")
        #expect(feed.items.map(\.id) == ["1"])
        #expect(feed.warnings.isEmpty)
    }

    @Test(arguments: [[UInt8](), Array("   \n\t ".utf8), [0, 0, 0]])
    func emptyDocumentsAreRefused(_ bytes: [UInt8]) {
        let result = FeedDocument.read(bytes, url: "https://example.com/feed.xml", now: testNow)
        #expect(result == .failure(FeedError(.empty, "the document is empty")))
    }

    @Test func aDocumentOverTheLimitIsRefusedUnread() {
        let bytes = Array(rss("<item><title>One</title></item>").utf8)
        guard case .failure(let error) = FeedDocument.read(bytes, url: "https://example.com/f", now: testNow, limit: 100) else {
            Issue.record("a document over the limit was read")
            return
        }
        #expect(error.reason == .tooLarge)
        #expect(error.message.contains("more than the 100 bytes"), "\(error.message)")
    }

    @Test func theDefaultLimitIs64MiB() {
        #expect(FeedDocument.defaultLimit == 64 << 20)
        let bytes = [UInt8](repeating: UInt8(ascii: " "), count: (64 << 20) + 1)
        guard case .failure(let error) = FeedDocument.read(bytes, url: "https://example.com/f", now: testNow) else {
            Issue.record("65 MiB were read")
            return
        }
        #expect(error == FeedError(.tooLarge, "the document is 64.1 MiB, more than the 64 MiB a feed may be"))
    }

    @Test(arguments: [
        ("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>", FeedError.Reason.notAFeed),
        ("<note><to>you</to></note>", .notAFeed),
        ("just some words, no markup at all", .unparsable),
        ("{\"version\": \"https://jsonfeed.org/version/1\"}", .unparsable),
    ])
    func documentsThatAreNotFeedsSaySo(_ text: String, _ reason: FeedError.Reason) {
        guard case .failure(let error) = FeedDocument.read(Array(text.utf8), url: "https://example.com/f", now: testNow) else {
            Issue.record("\(text) was read")
            return
        }
        #expect(error.reason == reason, "\(error.message)")
        #expect(!error.message.isEmpty && !error.message.contains("\n"))
    }

    /// Regression (fuzz target `feed`): a libxml2 message quoted in an error had a line break in it.
    @Test func errorMessagesAreOneLine() {
        #expect(FeedError(.unparsable, "line 1: Input is not proper UTF-8,\nBytes: 0xE9\t0x21\r").message
            == "line 1: Input is not proper UTF-8, Bytes: 0xE9 0x21 ")
    }

    @Test func theRootElementNamesWhatWasFound() {
        let result = FeedDocument.read(Array("<?xml version=\"1.0\"?><svg/>".utf8), url: "https://example.com/f", now: testNow)
        #expect(result == .failure(FeedError(.notAFeed, "not a feed: the document is XML whose root element is <svg>")))
    }

    @Test func anOPMLListIsOPML() throws {
        let opml = """
            <opml version="2.0"><head><title>x</title></head><body>
            <outline text="A" xmlUrl="https://a.example.com/feed"/></body></opml>
            """
        let document = try FeedDocument.read(Array(opml.utf8), url: "https://example.com/list.opml", now: testNow).get()
        #expect(document == .opml([OPMLOutline(title: "A", feedURL: "https://a.example.com/feed")]))
    }

    @Test func aTruncatedFeedKeepsWhatCameBeforeTheCut() throws {
        let whole = rss("<item><title>One</title><guid>1</guid></item><item><title>Two</title><guid>2</guid></item>")
        let marker = Array("<guid>2".utf8)
        let bytes = Array(whole.utf8)
        let cutAt = try #require((0..<bytes.count).first { bytes[$0...].starts(with: marker) })
        let cut = String(decoding: bytes[..<cutAt], as: UTF8.self)
        let feed = try readFeed(cut)
        #expect(feed.items.map(\.id).first == "1")
        #expect(feed.warnings.contains { $0.contains("not well-formed") })
    }

    @Test func garbageBeforeTheDeclarationIsLeftOut() throws {
        let feed = try readFeed("\n\n  Notice: Undefined index in feed.php on line 3\n" + rss("<item><guid>1</guid></item>"))
        #expect(feed.items.map(\.id) == ["1"])
    }

    @Test func aRootChannelWithoutRSSIsReadAsRSS() throws {
        let feed = try readFeed("<channel><title>Bare</title><item><guid>g</guid></item></channel>")
        #expect(feed.title == "Bare")
        #expect(feed.items.map(\.id) == ["g"])
    }

    @Test func readsOnSeveralThreadsAtOnceAgree() async throws {
        let bytes = try Fixture.bytes("podcast20.xml")
        let expected = FeedDocument.read(bytes, url: "https://alicia.example.com/feed.xml", now: testNow)
        #expect((try? expected.get()) != nil)
        await withTaskGroup(of: Result<FeedDocument, FeedError>.self) { group in
            for _ in 0..<16 {
                group.addTask { FeedDocument.read(bytes, url: "https://alicia.example.com/feed.xml", now: testNow) }
            }
            for await result in group { #expect(result == expected) }
        }
    }
}
