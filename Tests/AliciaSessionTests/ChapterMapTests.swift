import Testing
import AliciaAudio
@testable import AliciaSession

@Suite struct ChapterMapTests {
    static let chapters = [Chapter(title: "Cold open", start: 0, end: 4), Chapter(title: "The interview", start: 4, end: 9.5),
                           Chapter(title: "Listener mail", start: 9.5, end: 12)]
    static let late = [Chapter(title: "A", start: 2), Chapter(title: "B", start: 5)]

    @Test func theChapterOfAPosition() {
        #expect(ChapterMap.index(of: 0, in: Self.chapters) == 0)
        #expect(ChapterMap.index(of: 3.98, in: Self.chapters) == 0)
        // A seek that lands a rounding short of a start is in it.
        #expect(ChapterMap.index(of: 3.992, in: Self.chapters) == 1)
        #expect(ChapterMap.index(of: 9.5, in: Self.chapters) == 2)
        #expect(ChapterMap.index(of: 100, in: Self.chapters) == 2)
        #expect(ChapterMap.index(of: 1, in: Self.late) == -1)
        #expect(ChapterMap.index(of: 1, in: []) == nil)
    }

    @Test func stepsForwardAndBack() {
        #expect(ChapterMap.step(1, from: 0, in: Self.chapters, restart: 3) == 1)
        #expect(ChapterMap.step(2, from: 0, in: Self.chapters, restart: 3) == 2)
        #expect(ChapterMap.step(1, from: 10, in: Self.chapters, restart: 3) == nil)
        // Within 3 s of its start: the one before; later: its own start.
        #expect(ChapterMap.step(-1, from: 5, in: Self.chapters, restart: 3) == 0)
        #expect(ChapterMap.step(-1, from: 8, in: Self.chapters, restart: 3) == 1)
        #expect(ChapterMap.step(-1, from: 1, in: Self.chapters, restart: 3) == -1)
        #expect(ChapterMap.step(1, from: 1, in: Self.late, restart: 3) == 0)
    }

    @Test func endsAndDetails() throws {
        #expect(ChapterMap.end(of: 2, in: Self.chapters, duration: 14) == 12)
        #expect(ChapterMap.end(of: 0, in: Self.late, duration: 9) == 5)
        #expect(ChapterMap.end(of: 1, in: Self.late, duration: 9) == 9)
        let tags = ItemMetadata(tags: MediaTags(title: "Chaptered Episode", artist: "The Tuesday Show", coverArt: "/tmp/art dir/a.png"))
        let file = ItemDetails(QueueItem(location: try MediaLocation("/tmp/chap.mp3"), title: "chap.mp3"), metadata: tags)
        #expect(file.title == "Chaptered Episode" && file.mediaArtist == "The Tuesday Show" && file.mediaAlbum == nil)
        #expect(file.artURL == "file:///tmp/art%20dir/a.png")
        let episode = ItemDetails(QueueItem(location: try MediaLocation("/tmp/e.wav"), title: "Morning Light", label: "S1E01"), metadata: tags)
        #expect(episode.title == "Morning Light" && episode.mediaAlbum == "Alicia")
        let plain = ItemDetails(QueueItem(location: try MediaLocation("/tmp/p.wav"), title: "p.wav"), metadata: ItemMetadata())
        #expect(plain.title == "p.wav" && plain.mediaArtist == nil && plain.artURL == nil)
    }
}
