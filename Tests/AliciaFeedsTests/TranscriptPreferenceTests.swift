import AliciaFeeds
import Testing

/// Which transcript a listener gets: their language, then the feed's, then any; WebVTT before
/// SRT before JSON before the rest.
@Suite struct TranscriptPreferenceTests {
    static let transcripts = [
        FeedTranscript(url: "https://t.example.com/de.html", type: "text/html", language: "de"),
        FeedTranscript(url: "https://t.example.com/en.json", type: "application/json", language: "en"),
        FeedTranscript(url: "https://t.example.com/en.srt", type: "application/x-subrip", language: "en-US"),
        FeedTranscript(url: "https://t.example.com/fr.vtt", type: "text/vtt", language: "fr"),
        FeedTranscript(url: "https://t.example.com/plain.txt", type: "text/plain"),
        FeedTranscript(url: "https://t.example.com/de.srt", type: "application/srt", language: "de"),
    ]

    @Test(arguments: [
        ("en", "es", "https://t.example.com/en.srt"),
        ("en-GB", nil, "https://t.example.com/en.srt"),
        ("FR", "en", "https://t.example.com/fr.vtt"),
        ("de", "en", "https://t.example.com/de.srt"),
        ("ja", "de", "https://t.example.com/de.srt"),
        ("ja", "es", "https://t.example.com/es-untagged"),
        (nil, nil, "https://t.example.com/fr.vtt"),
    ] as [(String?, String?, String)])
    func preferred(_ language: String?, _ feedLanguage: String?, _ expected: String) {
        var transcripts = Self.transcripts
        if feedLanguage == "es" { transcripts.append(FeedTranscript(url: "https://t.example.com/es-untagged", type: "text/vtt")) }
        #expect(transcripts.preferred(language: language, feedLanguage: feedLanguage)?.url == expected)
    }

    @Test func aTranscriptWithoutALanguageIsInTheFeeds() {
        let transcripts = [
            FeedTranscript(url: "https://t.example.com/other.vtt", type: "text/vtt", language: "it"),
            FeedTranscript(url: "https://t.example.com/untagged.srt", type: "application/x-subrip"),
        ]
        #expect(transcripts.preferred(language: "en", feedLanguage: "en-us")?.url == "https://t.example.com/untagged.srt")
    }

    @Test func theFormatComesFromTheTypeElseTheExtension() {
        #expect(FeedTranscript(url: "https://x/a", type: "text/vtt; charset=utf-8").format == .webVTT)
        #expect(FeedTranscript(url: "https://x/a.VTT?sig=1", type: "").format == .webVTT)
        #expect(FeedTranscript(url: "https://x/a.srt", type: "application/octet-stream").format == .subRip)
        #expect(FeedTranscript(url: "https://x/a", type: "application/json").format == .json)
        #expect(FeedTranscript(url: "https://x/a.html", type: "text/html").format == .other)
    }

    @Test func noTranscriptsNoChoice() {
        #expect([FeedTranscript]().preferred(language: "en") == nil)
    }

    @Test func equalInBothTheFeedsOrderDecides() {
        let transcripts = [FeedTranscript(url: "https://x/1.vtt", type: "text/vtt"), FeedTranscript(url: "https://x/2.vtt", type: "text/vtt")]
        #expect(transcripts.preferred(language: nil)?.url == "https://x/1.vtt")
    }
}
