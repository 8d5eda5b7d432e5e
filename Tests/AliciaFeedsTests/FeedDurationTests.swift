@testable import AliciaFeeds
import Testing

/// `itunes:duration` and `podcast:updateFrequency`.
@Suite struct FeedDurationTests {
    @Test(arguments: [
        ("3600", Double?.some(3600)),
        ("3600.5", 3600.5),
        (" 59 ", 59),
        ("0", 0),
        ("1:05", 65),
        ("01:05", 65),
        ("90:00", 5400),
        ("1:02:03", 3723),
        ("01:02:03", 3723),
        ("1:02:03.25", 3723.25),
        ("00:45:00.000", 2700),
        ("10:00:00", 36000),
        ("1:2:3", 3723),
        ("", nil),
        ("-5", nil),
        ("1:-2", nil),
        ("1:02:03:04", nil),
        ("45 min", nil),
        ("1h30m", nil),
        ("1.5:00", nil),
        ("inf", nil),
        ("nan", nil),
        ("1e3", nil),
        (":30", nil),
        ("1::30", nil),
        ("1.2.3", nil),
        ("99999999999999999999999999999999999", nil),
    ])
    func durations(_ text: String, _ expected: Double?) {
        #expect(FeedDuration.seconds(text) == expected, "\(text)")
    }

    @Test func anUnreadableDurationIsAWarningOnTheItem() throws {
        let item = try readItem(rss("<item><guid>1</guid><itunes:duration>about an hour</itunes:duration></item>"))
        #expect(item.duration == nil)
        #expect(item.warnings == ["the duration \"about an hour\" cannot be read"])
    }

    @Test(arguments: [
        ("FREQ=DAILY", Int64?.some(86_400)),
        ("FREQ=WEEKLY", 604_800),
        ("freq=weekly;interval=2", 1_209_600),
        ("FREQ=WEEKLY;BYDAY=MO,WE,FR", 201_600),
        ("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", 120_960),
        ("FREQ=MONTHLY", 2_629_746),
        ("FREQ=YEARLY;COUNT=10", 31_556_952),
        ("FREQ=HOURLY;INTERVAL=6", 21_600),
        ("INTERVAL=2", nil),
        ("FREQ=FORTNIGHTLY", nil),
        ("", nil),
    ])
    func rrules(_ rrule: String, _ expected: Int64?) {
        #expect(UpdateFrequency.seconds(rrule: rrule) == expected, "\(rrule)")
    }

    @Test(arguments: [("Daily", Int64?.some(86_400)), ("  weekly ", 604_800), ("Bi-weekly", 1_209_600), ("Monthly", 2_629_746), ("Whenever", nil)])
    func frequencyWords(_ text: String, _ expected: Int64?) {
        #expect(UpdateFrequency.seconds(text: text) == expected)
    }

    @Test func theRRuleWinsOverTheTextAndTheTextOverTTL() throws {
        let both = try readFeed(rss("", channel: "<title>t</title><ttl>5</ttl><podcast:updateFrequency rrule=\"FREQ=DAILY\">Weekly</podcast:updateFrequency>"))
        #expect(both.updateFrequency == 86_400)
        let text = try readFeed(rss("", channel: "<title>t</title><ttl>5</ttl><podcast:updateFrequency>Weekly</podcast:updateFrequency>"))
        #expect(text.updateFrequency == 604_800)
        let unreadable = try readFeed(rss("", channel: "<title>t</title><ttl>5</ttl><podcast:updateFrequency>When we can</podcast:updateFrequency>"))
        #expect(unreadable.updateFrequency == 300)
    }
}
