#if canImport(Glibc)
import Glibc
#endif
import AliciaFeeds
import Testing

/// Documents made to hurt a reader: external entities, entity bombs, deep nesting. The memory a
/// read takes is measured in a child process of its own (`MeasuredRead`).
@Suite(.serialized) struct HostileInputTests {
    /// What an attack may cost: well under the budget of a refresh. Under a sanitizer (slower, and
    /// holding freed memory in quarantine) both scale by ALICIA_HANG_GUARD_SCALE, or 4.
    static let secondsAllowed = 2.0 * scale
    static let bytesAllowed = Int(64 * scale) << 20

    static let scale: Double = {
        if let text = getenv("ALICIA_HANG_GUARD_SCALE").map({ String(cString: $0) }), let value = Double(text), value >= 1 { return value }
        let sanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
            || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
        return sanitized ? 4 : 1
    }()

    /// Reads `xml`, checking that it took little time (a hang guard) and memory (measured by a
    /// read of its own in a child process: `MeasuredRead`); the result, whatever it is.
    static func readWithinBounds(_ xml: String, sourceLocation: SourceLocation = #_sourceLocation) -> Result<FeedDocument, FeedError> {
        let bytes = Array(xml.utf8)
        let start = monotonicSeconds()
        let result = FeedDocument.read(bytes, url: "https://example.com/feed.xml", now: testNow)
        let elapsed = monotonicSeconds() - start
        #expect(elapsed < secondsAllowed, "took \(elapsed) s", sourceLocation: sourceLocation)
        if let grown = MeasuredRead.peakGrowth(of: bytes, sourceLocation: sourceLocation) {
            #expect(grown < bytesAllowed, "peak memory grew by \(grown >> 20) MiB", sourceLocation: sourceLocation)
        }
        return result
    }

    @Test func anExternalEntityIsNeverRead() throws {
        let path = "/tmp/alicia-feeds-xxe-\(getpid()).txt"
        let marker = "ALICIA-SECRET-\(getpid())"
        let file = try #require(fopen(path, "w"))
        fputs(marker, file)
        fclose(file)
        defer { unlink(path) }
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [
              <!ENTITY secret SYSTEM "file://\(path)">
              <!ENTITY % remote SYSTEM "file://\(path)">
              %remote;
            ]>
            <rss version="2.0"><channel><title>before &secret; after</title>
            <item><title>&secret;</title><guid>1</guid><description>x&secret;y</description>
            <enclosure url="https://e.example.com/&secret;.mp3"/></item></channel></rss>
            """
        guard case .success(.feed(let feed)) = Self.readWithinBounds(xml) else {
            Issue.record("the feed was not read")
            return
        }
        let everything = "\(feed)"
        #expect(!everything.contains(marker))
        #expect(feed.title == "before after")
        #expect(feed.items.count == 1)
    }

    /// The classic billion laughs: ten levels of ten references, 10^9 "lol"s if expanded.
    static func billionLaughs(useIn body: String) -> String {
        var declarations = "<!ENTITY lol0 \"lol\">\n"
        for level in 1...9 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
        }
        return """
            <?xml version="1.0"?>
            <!DOCTYPE rss [
            \(declarations)]>
            <rss version="2.0"><channel><title>Laughs</title>\(body)</channel></rss>
            """
    }

    @Test(arguments: [
        "<item><title>&lol9;</title><guid>1</guid></item>",
        "<item><guid>1</guid><description>&lol9;&lol9;&lol9;</description></item>",
        "<item><guid>1</guid><description><p>&lol9;</p></description></item>",
        "<item><guid>1</guid><enclosure url=\"https://e.example.com/&lol9;\"/></item>",
        "<item><guid>1</guid><title>&lol5;</title></item>",
    ])
    func aBillionLaughsIsRefusedOrNeutralised(_ body: String) {
        let result = Self.readWithinBounds(Self.billionLaughs(useIn: body))
        if case .success(.feed(let feed)) = result {
            for item in feed.items {
                #expect(item.title.utf8.count <= 2 << 20)
                #expect(item.summary.utf8.count <= 2 << 20)
            }
        }
    }

    @Test func aQuadraticBlowupIsBounded() {
        let big = String(repeating: "A", count: 100_000)
        let references = String(repeating: "&big;", count: 20_000)
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY big "\(big)">]>
            <rss version="2.0"><channel><title>t</title><item><guid>1</guid><description>\(references)</description>
            <title>\(references)</title></item></channel></rss>
            """
        if case .success(.feed(let feed)) = Self.readWithinBounds(xml) {
            #expect(feed.items.first.map { $0.summary.utf8.count <= 4 << 20 } ?? true)
            #expect(feed.warnings.contains { $0.contains("entity expansion stopped") })
        }
    }

    @Test(arguments: [300, 5_000, 200_000])
    func deepNestingNeitherCrashesNorHangs(_ depth: Int) {
        let open = String(repeating: "<div>", count: depth)
        let close = String(repeating: "</div>", count: depth)
        let xml = rss("<item><guid>1</guid><title>deep</title><description>\(open)words\(close)</description></item>")
        let result = Self.readWithinBounds(xml)
        if case .success(.feed(let feed)) = result { #expect(feed.items.count <= 1) }
    }

    @Test func deeplyNestedOutlinesNeitherCrashNorHang() {
        let depth = 100_000
        let xml = "<opml version=\"2.0\"><body>" + String(repeating: "<outline text=\"c\">", count: depth)
            + "<outline text=\"deep\" xmlUrl=\"https://deep.example.com/feed\"/>" + String(repeating: "</outline>", count: depth) + "</body></opml>"
        _ = Self.readWithinBounds(xml)
    }

    @Test func manyAttributesAndLongNamesAreBounded() {
        let attributes = (0..<20_000).map { "a\($0)=\"\($0)\"" }.joined(separator: " ")
        let name = String(repeating: "n", count: 100_000)
        let xml = rss("<item \(attributes)><guid>1</guid><title>&\(name);</title><\(name)>x</\(name)></item>")
        guard case .success(.feed(let feed)) = Self.readWithinBounds(xml) else { return }
        #expect(feed.items.first?.title == "&\(name);")
    }

    /// Each scan for complete items goes on where the last stopped: a channel of many other
    /// elements, over many chunks, is one pass, not one per chunk.
    @Test func aChannelOfManyOtherElementsIsOnePass() {
        let filler = String(repeating: "<x/>", count: 200_000)
        let xml = rss("<item><guid>1</guid></item>\(filler)<item><guid>2</guid></item>\(filler)<item><guid>3</guid></item>")
        guard case .success(.feed(let feed)) = Self.readWithinBounds(xml) else {
            Issue.record("the feed was not read")
            return
        }
        #expect(feed.items.map(\.id) == ["1", "2", "3"])
    }

    @Test func anElementWithManyAttributesInNotesIsBounded() {
        let attributes = (0..<50_000).map { "a\($0)=\"v\"" }.joined(separator: " ")
        let xml = rss("<item><guid>1</guid><description><p \(attributes)>text</p></description></item>")
        guard case .success(.feed(let feed)) = Self.readWithinBounds(xml) else {
            Issue.record("the feed was not read")
            return
        }
        #expect(feed.items.first?.summary == "text")
    }

    @Test func anEntityLoopIsRefusedOrNeutralised() {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY a "&b;"><!ENTITY b "&a;">]>
            <rss version="2.0"><channel><title>&a;</title><item><guid>1</guid></item></channel></rss>
            """
        _ = Self.readWithinBounds(xml)
    }

    /// Regression (fuzz target `feed`, heap overflow under AddressSanitizer): an entry freed while
    /// it was still its parent's last child left libxml2 appending text through a stale length.
    @Test func strayTextAfterTheLastEntryIsSafe() throws {
        let bytes = try Fixture.contents(of: Fixture.directory.replacing("AliciaFeedsTests/Fixtures", with: "Fuzz/feed")
            + "/regression-last-child-unlinked.xml")
        guard case .success(.feed(let feed)) = FeedDocument.read(bytes, url: "https://example.com/f", now: testNow) else {
            Issue.record("the feed was not read")
            return
        }
        #expect(feed.kind == .atom)
    }
}
