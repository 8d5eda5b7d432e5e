import AliciaFeeds
import Testing

/// Which charset a feed is read in: the byte order mark, else the XML declaration, else the HTTP
/// Content-Type, else UTF-8, lossily.
@Suite struct CharsetTests {
    /// A feed whose title is `title` (ASCII) followed by `extra` raw bytes, after `declaration`.
    static func feedBytes(declaration: String, title: [UInt8], bom: [UInt8] = []) -> [UInt8] {
        bom + Array("\(declaration)<rss version=\"2.0\"><channel><title>".utf8) + title
            + Array("</title><item><title>".utf8) + title + Array("</title><guid>1</guid></item></channel></rss>".utf8)
    }

    /// "Café – “quoted” …" in windows-1252.
    static let windows1252Title: [UInt8] = [0x43, 0x61, 0x66, 0xE9, 0x20, 0x96, 0x20, 0x93, 0x71, 0x75, 0x6F, 0x74, 0x65, 0x64, 0x94, 0x20, 0x85]
    static let windows1252Text = "Café – “quoted” …"

    @Test(arguments: ["ISO-8859-1", "iso-8859-1", "latin1", "windows-1252", "cp1252", "US-ASCII"])
    func aDeclaredLatinCharsetIsReadAsWindows1252(_ label: String) throws {
        let bytes = Self.feedBytes(declaration: "<?xml version=\"1.0\" encoding=\"\(label)\"?>", title: Self.windows1252Title)
        let feed = try readFeed(bytes: bytes)
        #expect(feed.title == Self.windows1252Text)
        #expect(feed.items.first?.title == Self.windows1252Text)
        #expect(feed.warnings.isEmpty, "\(feed.warnings)")
    }

    @Test func theContentTypeCharsetCountsWhenTheDocumentSaysNothing() throws {
        let bytes = Self.feedBytes(declaration: "", title: Self.windows1252Title)
        #expect(try readFeed(bytes: bytes, contentType: "application/rss+xml; charset=\"ISO-8859-1\"").title == Self.windows1252Text)
    }

    @Test func theDeclarationWinsOverTheContentType() throws {
        let bytes = Self.feedBytes(declaration: "<?xml version='1.0' encoding='windows-1252'?>", title: Self.windows1252Title)
        #expect(try readFeed(bytes: bytes, contentType: "text/xml; charset=utf-8").title == Self.windows1252Text)
    }

    @Test func aByteOrderMarkWinsOverEverything() throws {
        let bytes = Self.feedBytes(declaration: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>", title: Array("Café".utf8), bom: [0xEF, 0xBB, 0xBF])
        #expect(try readFeed(bytes: bytes, contentType: "text/xml; charset=koi8-r").title == "Café")
    }

    @Test(arguments: [true, false])
    func utf16WithAByteOrderMarkIsRead(_ bigEndian: Bool) throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss><channel><title>Ünïcödé 𝄞</title></channel></rss>"
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in text.utf16 {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        #expect(try readFeed(bytes: bytes).title == "Ünïcödé 𝄞")
    }

    @Test func utf16WithoutAMarkIsRecognisedByItsFirstCharacters() throws {
        let text = "<?xml version=\"1.0\"?><rss><channel><title>ok ü</title></channel></rss>"
        let bytes = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(try readFeed(bytes: bytes).title == "ok ü")
    }

    @Test func aUTF16LabelOnEightBitBytesIsReadAsUTF8() throws {
        let bytes = Self.feedBytes(declaration: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>", title: Array("Café".utf8))
        #expect(try readFeed(bytes: bytes).title == "Café")
    }

    @Test func otherCharsetsGoThroughIconv() throws {
        // "Привет" in KOI8-R.
        let koi8: [UInt8] = [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4]
        let bytes = Self.feedBytes(declaration: "<?xml version=\"1.0\" encoding=\"KOI8-R\"?>", title: koi8)
        #expect(try readFeed(bytes: bytes).title == "Привет")
        // "€" in ISO-8859-15.
        let latin9 = Self.feedBytes(declaration: "<?xml version=\"1.0\" encoding=\"ISO-8859-15\"?>", title: [0xA4, 0x31])
        #expect(try readFeed(bytes: latin9).title == "€1")
    }

    /// Regression (fuzz target `feed`): iconv's -1 was converted through UInt and trapped.
    @Test func bytesIconvCannotConvertBecomeReplacementCharacters() throws {
        let bytes = Self.feedBytes(declaration: "<?xml version=\"1.0\" encoding=\"UTF-7\"?>", title: Array("Caf".utf8) + [0xC3, 0xA9, 0x00, 0x9D])
        let feed = try readFeed(bytes: bytes)
        #expect(feed.title.hasPrefix("Caf\u{FFFD}"))
        #expect(feed.items.count == 1)
        let shifted = Self.feedBytes(declaration: "<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?>",
                                     title: [0x1B, 0x24, 0x42, 0x24, 0x33, 0x24, 0x73, 0x1B, 0x28, 0x42])
        #expect(try readFeed(bytes: shifted).title == "こん")
    }

    @Test func anUnknownCharsetIsReadAsUTF8WithAWarning() throws {
        let bytes = Self.feedBytes(declaration: "<?xml version=\"1.0\" encoding=\"x-no-such-charset\"?>", title: Array("Café".utf8))
        let feed = try readFeed(bytes: bytes)
        #expect(feed.title == "Café")
        #expect(feed.warnings.contains("the charset \"x-no-such-charset\" is not known: read as UTF-8"))
    }

    @Test func undeclaredLatin1IsReadAsLossyUTF8NeverRefused() throws {
        let bytes = Self.feedBytes(declaration: "", title: Array("Caf".utf8) + [0xE9, 0x21])
        let feed = try readFeed(bytes: bytes)
        #expect(feed.title == "Caf\u{FFFD}!")
        #expect(feed.items.count == 1)
        #expect(feed.warnings.contains { $0.contains("not UTF-8") })
    }

    @Test(arguments: [
        ([UInt8]([0xC3]), "\u{FFFD}"),
        ([0xE2, 0x82], "\u{FFFD}"),
        ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ([0xF4, 0x90, 0x80, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
        ([0xC0, 0xAF], "\u{FFFD}\u{FFFD}"),
        ([0xEF, 0xBF, 0xBF], "\u{FFFD}"),
        ([0xF0, 0x9F, 0x8E, 0xA7], "🎧"),
    ])
    func brokenUTF8BecomesReplacementCharacters(_ bytes: [UInt8], _ expected: String) throws {
        let feed = try readFeed(bytes: Self.feedBytes(declaration: "", title: Array("a".utf8) + bytes + Array("b".utf8)))
        #expect(feed.title == "a\(expected)b")
    }

    @Test func controlCharactersBecomeSpaces() throws {
        let feed = try readFeed(bytes: Self.feedBytes(declaration: "", title: Array("Tab\u{0B}Form\u{0C}Nul".utf8) + [0x00, 0x41]))
        #expect(feed.title == "Tab Form Nul A")
        #expect(feed.warnings.contains { $0.contains("control character") })
    }
}
