import AliciaFeeds
import Testing

/// Dates as feeds write them.
@Suite struct FeedDateTests {
    /// 2024-01-05T09:00:00Z.
    static let nineUTC: Int64 = 1_704_445_200

    @Test(arguments: [
        "Fri, 05 Jan 2024 09:00:00 GMT",
        "Fri, 05 Jan 2024 09:00:00 UT",
        "Fri, 05 Jan 2024 09:00:00 UTC",
        "Fri, 05 Jan 2024 09:00:00 Z",
        "Fri, 05 Jan 2024 09:00:00 +0000",
        "Fri, 05 Jan 2024 10:00:00 +0100",
        "Fri, 05 Jan 2024 10:00:00 +01:00",
        "Fri, 05 Jan 2024 04:00:00 EST",
        "Fri, 05 Jan 2024 05:00:00 EDT",
        "Fri, 05 Jan 2024 03:00:00 CST",
        "Fri, 05 Jan 2024 04:00:00 CDT",
        "Fri, 05 Jan 2024 02:00:00 MST",
        "Fri, 05 Jan 2024 03:00:00 MDT",
        "Fri, 05 Jan 2024 01:00:00 PST",
        "Fri, 05 Jan 2024 02:00:00 PDT",
        "Fri, 05 Jan 2024 01:30:00 -0730",
        "Fri, 05 Jan 2024 08:00:00 A",
        "Fri, 05 Jan 2024 10:00:00 N",
        "Fri, 05 Jan 2024 21:00:00 Y",
        "Mon, 05 Jan 2024 09:00:00 GMT",
        "05 Jan 2024 09:00:00 GMT",
        "Friday, 5 January 2024 09:00:00 GMT",
        "fri, 5 jan 2024 9:00:00 gmt",
        "Fri, 05 Jan 24 09:00:00 GMT",
        "Fri, 05 Jan 2024 09:00 GMT",
        "Fri,05 Jan 2024 09:00:00 GMT",
        "Fri, 05-Jan-2024 09:00:00 GMT",
        "Jan 5, 2024 9:00:00 AM GMT",
        "Fri Jan  5 09:00:00 2024",
        "Fri, 05 Jan 2024 09:00:00.000 GMT",
        "Fri, 05 Jan 2024 11:00:00 GMT+0200",
        "Fri, 05 Jan 2024 09:00:00 +0000 (UTC)",
        "2024-01-05T09:00:00Z",
        "2024-01-05T09:00:00.123456Z",
        "2024-01-05T10:00:00+01:00",
        "2024-01-05T10:00:00+0100",
        "2024-01-05T04:00:00-05:00",
        "2024-01-05 09:00:00",
        "2024-01-05t09:00:00z",
        "2024-01-05T09:00Z",
        "20240105T090000Z",
        "  2024-01-05T09:00:00Z  ",
    ])
    func readsTheSameInstant(_ text: String) {
        #expect(FeedDate.parse(text) == Self.nineUTC, "\(text)")
    }

    @Test(arguments: [
        ("Sat, 07 Sept 2002 09:42:31 GMT", Int64(1_031_391_751)),
        ("Sat, 07 September 2002 09:42:31 GMT", 1_031_391_751),
        ("7 Sep 02 09:42 GMT", 1_031_391_720),
        ("Thu, 01 Jan 70 00:00:00 GMT", 0),
        ("Wed, 31 Dec 69 23:59:59 GMT", -1),
        ("2024-02-29", 1_709_164_800),
        ("2024-02-29T23:59:59-05:00", 1_709_269_199),
        ("1999-12-31T23:59:60Z", 946_684_799),
        ("Sun, 31 Dec 2023 00:00:00 GMT", 1_703_980_800),
        ("Thu, 29 Feb 2024 23:59:59 PM", nil),
        ("Fri, 05 Jan 2024 12:30:00 PM GMT", 1_704_457_800),
        ("Fri, 05 Jan 2024 12:30:00 AM GMT", 1_704_414_600),
    ])
    func readsKnownDates(_ text: String, _ expected: Int64?) {
        #expect(FeedDate.parse(text) == expected, "\(text)")
    }

    @Test(arguments: [
        "", "yesterday", "not a date at all", "2024-13-01", "2024-02-30", "2023-02-29", "Fri, 32 Jan 2024 00:00:00 GMT",
        "Fri, 05 Foo 2024 09:00:00 GMT", "Fri, 05 Jan 2024 25:00:00 GMT", "Fri, 05 Jan 2024 09:61:00 GMT", "2024-01-05T09:00:00+25:00",
        "1704445200", "05/01/2024", "2024-01-05T09", "Jan 2024", "99999-01-01", "Fri, 05 Jan 2024 09:00:00 GMT GMT +0100 -0100",
    ])
    func unreadableIsNil(_ text: String) {
        #expect(FeedDate.parse(text) == nil, "\(text)")
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (1_796_615_626, "2026-12-07T03:53:46Z"),
        (951_782_400, "2000-02-29T00:00:00Z"),
        (-1, "1969-12-31T23:59:59Z"),
        (253_402_300_799, "9999-12-31T23:59:59Z"),
    ])
    func formatsISO8601(_ seconds: Int64, _ text: String) {
        #expect(FeedDate.iso8601(seconds) == text)
        #expect(FeedDate.parse(text) == seconds)
    }

    /// The byte writer `episodes --json` uses gives the string writer's text, to the second.
    @Test(arguments: [Int64(0), 1_788_768_000, 1_788_771_661, 951_782_400, 4_102_444_799, -86_400])
    func writesISO8601AsBytesAsTheStringDoes(seconds: Int64) {
        var bytes: [UInt8] = []
        FeedDate.iso8601(seconds, appendingTo: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == FeedDate.iso8601(seconds))
    }

    @Test func formatsRFC822ForOPML() {
        #expect(FeedDate.rfc822(1_796_615_626) == "Mon, 07 Dec 2026 03:53:46 GMT")
        #expect(FeedDate.rfc822(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(FeedDate.parse(FeedDate.rfc822(1_709_269_199)) == 1_709_269_199)
    }

    @Test func isoDatesRoundTripAcrossFourCenturies() {
        var seconds: Int64 = -6_000_000_000
        while seconds < 7_000_000_000 {
            #expect(FeedDate.parse(FeedDate.iso8601(seconds)) == seconds)
            seconds += 86_399 * 7 + 13
        }
    }

    @Test func aFutureDateIsNotTrusted() throws {
        let now: Int64 = 1_704_445_200
        let xml = rss("""
            <item><guid>near</guid><pubDate>Fri, 05 Jan 2024 20:00:00 GMT</pubDate></item>
            <item><guid>far</guid><pubDate>Fri, 05 Jan 2024 09:00:00 GMT</pubDate><pubDate>ignored</pubDate></item>
            <item><guid>future</guid><pubDate>Sun, 07 Jan 2024 09:00:00 GMT</pubDate></item>
            <item><guid>bad</guid><pubDate>someday</pubDate><title>kept</title></item>
            """)
        let feed = try readFeed(xml, now: now)
        #expect(feed.items.map(\.published) == [now + 11 * 3600, now, nil, nil])
        #expect(feed.items[2].warnings == ["the pubDate 2024-01-07T09:00:00Z is in the future: not trusted"])
        #expect(feed.items[3].warnings == ["the pubDate \"someday\" is not a date that can be read"])
        #expect(feed.items.count == 4)
    }
}
