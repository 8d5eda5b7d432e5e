import Testing
import AliciaStore

@Suite struct LibraryStorePerformanceTests {
    /// 50,000 episodes of 100 shows, a fifth of them with a position, 1,000 downloaded: the whole
    /// list, newest first with positions and downloads, within 0.2 s in a release build (the
    /// figure is printed; a debug build, unoptimized, gets 2 s).
    @Test func fiftyThousandEpisodesAreListedWithinTheBound() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = try LibraryStore(path: scratch.file("library.db"))
        var positions: [String: PositionRecord] = [:]
        for show in 0..<100 {
            let id = try store.upsertShow(url: "https://show\(show).example/feed", metadata: ShowMetadata(title: "Show \(show)"))
            let episodes = (0..<500).map { index in
                EpisodeInfo(guid: "urn:\(show):\(index)", title: "Show \(show), episode \(index): a title of ordinary length",
                            url: "https://cdn.example/\(show)/\(index).mp3", mime: "audio/mpeg", bytes: 40_000_000,
                            published: 1_600_000_000 + Int64(index * 100 + show) * 3600, duration: 3600,
                            summary: String(repeating: "summary ", count: 40), notesHTML: String(repeating: "<p>notes</p>", count: 80),
                            imageURL: "https://cdn.example/\(show).jpg")
            }
            _ = try store.upsertEpisodes(episodes, showID: id, markNew: show % 10 == 0)
            for index in stride(from: 0, to: 500, by: 5) {
                positions["https://cdn.example/\(show)/\(index).mp3"] = PositionRecord(positionMS: 60_000, durationMS: 3_600_000,
                                                                                     played: index % 10 == 0, updatedMS: 1)
            }
            for index in 0..<10 {
                try store.recordDownload(DownloadRecord(key: "https://cdn.example/\(show)/\(index).mp3", url: nil,
                                                        path: "/cache/\(show)-\(index).mp3", bytes: 1, completedMS: 1))
            }
        }
        try store.savePositions(positions)

        var best = Duration.seconds(1000)
        var listed: [EpisodeListing] = []
        for _ in 0..<3 {
            let clock = ContinuousClock()
            let started = clock.now
            listed = try store.episodes()
            best = min(best, clock.now - started)
        }
        print("AliciaStore: 50,000 episodes listed in \(best) (best of 3)")
        #expect(listed.count == 50_000)
        #expect(listed.filter { $0.position != nil }.count == 10_000 && listed.filter(\.isPlayed).count == 5_000)
        #expect(listed.filter { $0.downloadPath != nil }.count == 1_000)
        #expect(zip(listed, listed.dropFirst()).allSatisfy { ($0.published ?? 0) >= ($1.published ?? 0) })
        #if DEBUG
        #expect(best <= .seconds(2))
        #else
        #expect(best <= .milliseconds(200))
        #endif
        #expect(try store.episodes(.new).count == 5_000)
        #expect(try store.episodes(.show(1), limit: 20).count == 20)
    }
}
