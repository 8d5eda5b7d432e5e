import Testing
import AliciaStore

@Suite struct LibraryStoreEpisodesTests {
    @Test func aRefreshAddsNewEpisodesFlaggedNewAndWritesOverKnownOnesKeepingFirstSeenAndNew() throws {
        let (scratch, store) = try ScratchDirectory.withStore()
        defer { scratch.remove() }
        let show = try store.upsertShow(url: "https://a.example/feed", metadata: ShowMetadata(title: "A"))
        let first = try store.upsertEpisodes([
            EpisodeInfo(guid: "1", title: "One", url: "https://a.example/1.mp3", published: 100, duration: 60),
            EpisodeInfo(guid: "2", title: "Two", published: 200),
        ], showID: show, at: 1000)
        #expect(first.inserted.count == 2 && first.updated == 0)
        try store.markNotNew([first.inserted[0]])
        let second = try store.upsertEpisodes([
            EpisodeInfo(guid: "1", title: "One (fixed)", url: "https://a.example/1.mp3", published: 100, duration: 61,
                        transcripts: #"[{"url":"https://a.example/1.vtt","type":"text/vtt","language":"en","rel":"captions"}]"#),
            EpisodeInfo(guid: "3", title: "Three", published: 300),
        ], showID: show, at: 2000)
        #expect(second.inserted.count == 1 && second.updated == 1)
        let one = try #require(try store.episode(first.inserted[0]))
        #expect(one.info.title == "One (fixed)" && one.info.duration == 61)
        #expect(one.info.transcripts?.contains("1.vtt") == true)
        #expect(one.firstSeen == 1000 && !one.isNew, "first_seen and is_new are kept over a refresh")
        #expect(one.info.positionKey == "https://a.example/1.mp3", "the position key defaults to the enclosure's URL")
        #expect(try store.episode(first.inserted[1])?.info.positionKey == "2", "…else to the guid")
        #expect(try store.episodes(.new).map(\.title) == ["Three", "Two"])
        let counts = try #require(try store.show(show))
        #expect(counts.episodeCount == 3 && counts.newCount == 2)
    }

    @Test func aSubscriptionsFirstRefreshCanAddEpisodesNotNew() throws {
        let (scratch, store) = try ScratchDirectory.withStore()
        defer { scratch.remove() }
        let show = try store.upsertShow(url: "https://a.example/feed")
        _ = try store.upsertEpisodes([EpisodeInfo(guid: "1", title: "Old")], showID: show, markNew: false)
        #expect(try store.episodes(.new).isEmpty)
    }

    @Test func theSameGuidInTwoShowsIsTwoEpisodes() throws {
        let (scratch, store) = try ScratchDirectory.withStore()
        defer { scratch.remove() }
        let a = try store.upsertShow(url: "https://a.example/feed")
        let b = try store.upsertShow(url: "https://b.example/feed")
        _ = try store.upsertEpisodes([EpisodeInfo(guid: "1", title: "A1")], showID: a)
        _ = try store.upsertEpisodes([EpisodeInfo(guid: "1", title: "B1")], showID: b)
        #expect(try store.episodes().count == 2)
        #expect(try store.episodes(.show(b)).map(\.title) == ["B1"])
    }

    @Test func listsAreNewestFirstWithUndatedLastAndCarryPositionPlayedAndDownload() throws {
        let (scratch, store) = try ScratchDirectory.withStore()
        defer { scratch.remove() }
        let show = try store.upsertShow(url: "https://a.example/feed", metadata: ShowMetadata(title: "Show A"))
        _ = try store.upsertEpisodes([
            EpisodeInfo(guid: "old", title: "Old", published: 100, positionKey: "S1E01"),
            EpisodeInfo(guid: "undated", title: "Undated"),
            EpisodeInfo(guid: "new", title: "New", published: 300, positionKey: "S1E03"),
            EpisodeInfo(guid: "mid", title: "Mid", published: 200, positionKey: "S1E02"),
        ], showID: show)
        try store.savePosition(PositionRecord(positionMS: 83_500, durationMS: 180_000, played: false, updatedMS: 5), for: "S1E02")
        try store.markPlayed("S1E01", durationMS: 60_000, at: 6)
        try store.recordDownload(DownloadRecord(key: "S1E03", url: "https://a.example/3.mp3", path: "/cache/S1E03.mp3", bytes: 10,
                                                completedMS: 7))
        let listed = try store.episodes()
        #expect(listed.map(\.title) == ["New", "Mid", "Old", "Undated"])
        #expect(listed.allSatisfy { $0.showTitle == "Show A" })
        #expect(listed[1].position?.positionMS == 83_500 && !listed[1].isPlayed)
        #expect(listed[2].isPlayed && listed[2].position?.positionMS == 0)
        #expect(listed[0].downloadPath == "/cache/S1E03.mp3" && listed[0].position == nil)
        #expect(try store.episodes(limit: 2).map(\.title) == ["New", "Mid"])
    }

    @Test func aPieceOfATitleFindsItsEpisodesWithWildcardsTakenLiterally() throws {
        let (scratch, store) = try ScratchDirectory.withStore()
        defer { scratch.remove() }
        let show = try store.upsertShow(url: "https://a.example/feed")
        _ = try store.upsertEpisodes([
            EpisodeInfo(guid: "1", title: "The Rust Episode", published: 1),
            EpisodeInfo(guid: "2", title: "100% rusty", published: 2),
            EpisodeInfo(guid: "3", title: "Swift_on_Linux", published: 3),
            EpisodeInfo(guid: "4", title: "Café olé", published: 4),
        ], showID: show)
        #expect(try store.episodes(titleContaining: "rust").map(\.title) == ["100% rusty", "The Rust Episode"])
        #expect(try store.episodes(titleContaining: "0%").map(\.title) == ["100% rusty"])
        #expect(try store.episodes(titleContaining: "t_o").map(\.title) == ["Swift_on_Linux"])
        #expect(try store.episodes(titleContaining: "tXo").isEmpty, "_ is a character, not a wildcard")
        #expect(try store.episodes(titleContaining: "é o").map(\.title) == ["Café olé"])
    }

    @Test func markingNotNewClearsOneShowOrAll() throws {
        let (scratch, store) = try ScratchDirectory.withStore()
        defer { scratch.remove() }
        let a = try store.upsertShow(url: "https://a.example/feed")
        let b = try store.upsertShow(url: "https://b.example/feed")
        _ = try store.upsertEpisodes([EpisodeInfo(guid: "1", title: "A1"), EpisodeInfo(guid: "2", title: "A2")], showID: a)
        _ = try store.upsertEpisodes([EpisodeInfo(guid: "1", title: "B1")], showID: b)
        try store.markAllNotNew(showID: a)
        #expect(try store.episodes(.new).map(\.title) == ["B1"])
        try store.markAllNotNew()
        #expect(try store.episodes(.new).isEmpty)
    }

    @Test func removingAShowRemovesItsEpisodesAndKeepsThePositions() throws {
        let (scratch, store) = try ScratchDirectory.withStore()
        defer { scratch.remove() }
        let show = try store.upsertShow(url: "https://a.example/feed")
        _ = try store.upsertEpisodes([EpisodeInfo(guid: "1", title: "A1", positionKey: "K1")], showID: show)
        try store.savePosition(PositionRecord(positionMS: 5, durationMS: nil, played: false, updatedMS: 1), for: "K1")
        #expect(try store.removeShow(show))
        #expect(try store.episodes().isEmpty && store.shows().isEmpty)
        #expect(try store.position(for: "K1")?.positionMS == 5)
        #expect(try store.removeShow(show) == false)
    }
}
