import Testing
import AliciaStore

@Suite struct LibraryStoreShowsTests {
    @Test func upsertingAShowByURLReturnsOneIdAndWritesMetadataOnlyWhenGiven() throws {
        let (scratch, store) = try ScratchDirectory.withStore()
        defer { scratch.remove() }
        let id = try store.upsertShow(url: "https://a.example/feed", at: 50)
        #expect(try store.upsertShow(url: "https://a.example/feed") == id)
        let metadata = ShowMetadata(title: "Alpha", link: "https://a.example", imageURL: "https://a.example/a.jpg", description: "About",
                                    author: "Ann", language: "en", updateFrequency: 3600, newFeedURL: nil)
        #expect(try store.upsertShow(url: "https://a.example/feed", metadata: metadata) == id)
        #expect(try store.upsertShow(url: "https://a.example/feed") == id)
        let show = try #require(try store.show(id))
        #expect(show.metadata == metadata && show.addedAt == 50 && show.lastChecked == nil && show.lastError == nil)
    }

    @Test func showsAreListedByTitleWithTheirCounts() throws {
        let (scratch, store) = try ScratchDirectory.withStore()
        defer { scratch.remove() }
        let b = try store.upsertShow(url: "https://b.example/feed", metadata: ShowMetadata(title: "beta"))
        let a = try store.upsertShow(url: "https://a.example/feed", metadata: ShowMetadata(title: "Alpha"))
        _ = try store.upsertEpisodes([EpisodeInfo(guid: "1", title: "1"), EpisodeInfo(guid: "2", title: "2")], showID: b)
        _ = try store.upsertEpisodes([EpisodeInfo(guid: "1", title: "1")], showID: a, markNew: false)
        let shows = try store.shows()
        #expect(shows.map(\.metadata.title) == ["Alpha", "beta"])
        #expect(shows.map(\.episodeCount) == [1, 2] && shows.map(\.newCount) == [0, 2])
    }

    @Test func aRefreshKeepsValidatorsAndTheLastError() throws {
        let (scratch, store) = try ScratchDirectory.withStore()
        defer { scratch.remove() }
        let id = try store.upsertShow(url: "https://a.example/feed")
        try store.setValidators(showID: id, etag: "\"abc\"", lastModified: "Tue, 01 Jul 2025 10:00:00 GMT")
        try store.recordRefresh(showID: id, error: "HTTP 500", at: 70)
        var show = try #require(try store.show(id))
        #expect(show.etag == "\"abc\"" && show.lastModified == "Tue, 01 Jul 2025 10:00:00 GMT")
        #expect(show.lastChecked == 70 && show.lastError == "HTTP 500")
        try store.recordRefresh(showID: id, error: nil, at: 80)
        show = try #require(try store.show(id))
        #expect(show.lastChecked == 80 && show.lastError == nil && show.etag == "\"abc\"")
    }

    @Test func aMovedShowIsFoundByItsOldURLAndForgetsTheOldValidators() throws {
        let (scratch, store) = try ScratchDirectory.withStore()
        defer { scratch.remove() }
        let id = try store.upsertShow(url: "http://old.example/feed", metadata: ShowMetadata(title: "T", newFeedURL: "https://new.example/feed"))
        try store.setValidators(showID: id, etag: "e", lastModified: nil)
        try store.moveShow(id, to: "https://new.example/feed")
        let show = try #require(try store.show(id))
        #expect(show.url == "https://new.example/feed" && show.etag == nil && show.metadata.newFeedURL == nil)
        #expect(try store.upsertShow(url: "http://old.example/feed") == id, "subscribing by the old URL finds the moved show")
        #expect(try store.showID(forURL: "https://new.example/feed") == id)
        try store.moveShow(id, to: "http://old.example/feed")
        #expect(try store.show(id)?.url == "http://old.example/feed", "moving back")
        #expect(try store.showID(forURL: "https://new.example/feed") == id)
        #expect(try store.shows().count == 1)
    }

    @Test func movingOntoAnotherShowsURLFailsAndChangesNothing() throws {
        let (scratch, store) = try ScratchDirectory.withStore()
        defer { scratch.remove() }
        let a = try store.upsertShow(url: "https://a.example/feed")
        _ = try store.upsertShow(url: "https://b.example/feed")
        #expect(throws: LibraryError.self) { try store.moveShow(a, to: "https://b.example/feed") }
        #expect(try store.show(a)?.url == "https://a.example/feed")
        #expect(try store.showID(forURL: "https://a.example/feed") == a)
    }

    @Test func smallStateIsKeptByKeyAndRemovedByNil() throws {
        let (directory, store) = try ScratchDirectory.withStore()
        defer { directory.remove() }
        try store.setValue("#EXTM3U\n", forKey: LibraryStore.continueListeningKey)
        try store.setValue("volume = 80\n", forKey: LibraryStore.listenerStateKey)
        try store.setValue("#EXTM3U\n#ALICIA-CURRENT:1\n", forKey: LibraryStore.continueListeningKey)
        let again = try LibraryStore(path: directory.file("library.db"))
        #expect(try again.value(forKey: LibraryStore.continueListeningKey) == "#EXTM3U\n#ALICIA-CURRENT:1\n")
        try again.setValue(nil, forKey: LibraryStore.listenerStateKey)
        #expect(try store.value(forKey: LibraryStore.listenerStateKey) == nil)
    }

    @Test func theDownloadIndexKeepsWhatTheCacheKnows() throws {
        let (scratch, store) = try ScratchDirectory.withStore()
        defer { scratch.remove() }
        try store.recordDownload(DownloadRecord(key: "S1E02", url: nil, path: "/c/S1E02.wav", bytes: 20, completedMS: 2000))
        try store.recordDownload(DownloadRecord(key: "S1E01", url: "/api/audio/1.wav", path: "/c/S1E01.wav", bytes: 10, completedMS: 1000,
                                                title: "One"))
        #expect(try store.downloads().map(\.key) == ["S1E01", "S1E02"], "oldest first")
        #expect(try store.setPinned(true, downloadKey: "S1E01"))
        #expect(try store.download(for: "S1E01")?.pinned == true)
        #expect(try store.removeDownload(for: "S1E02"))
        #expect(try store.download(for: "S1E02") == nil && store.removeDownload(for: "S1E02") == false)
    }
}
