import Foundation
import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// Tags, cover art and chapters as `DecoderOpener` reads them at a first open.
@Suite struct MediaTagsTests {
    /// What an item is about when it is loaded from `location`: the decoder's reading of the file
    /// and what lies beside it (`ItemMetadata.gathered`).
    struct Read {
        var opened: DecoderOpener.Opened
        var metadata: ItemMetadata
    }

    static func open(_ bytes: [UInt8], location: String = "http://example.invalid/episode",
                     art: CoverArtStore? = nil) throws -> Read {
        let opened = try DecoderOpener.open(MemoryByteSource(bytes), metadata: DecoderOpener.Metadata(coverArt: art))
        let item = QueueItem(location: try MediaLocation(location), title: "item")
        return Read(opened: opened, metadata: ItemMetadata.gathered(fromFile: opened.metadata, item: item))
    }

    /// The text tags `PodcastFixture.Tags()` writes, as read back from any container.
    static func expectFixtureText(_ tags: MediaTags, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(tags.title == "Chaptered Episode", sourceLocation: sourceLocation)
        #expect(tags.artist == "The Tuesday Show", sourceLocation: sourceLocation)
        #expect(tags.album == "Season 3", sourceLocation: sourceLocation)
        #expect(tags.year == "2024", sourceLocation: sourceLocation)
        #expect(tags.comment == "Notes for the episode", sourceLocation: sourceLocation)
    }

    @Test func anMP3sID3TagsCoverAndChaptersAreRead() async throws {
        let art = try TemporaryDirectory(prefix: "art")
        let bytes = try await Mpg123DecoderTests.bytes(PodcastFixture.mp3(seconds: 12, tags: PodcastFixture.Tags()))
        let opened = try Self.open(bytes, art: CoverArtStore(directory: art.file("cache/art")))
        let tags = opened.metadata.tags
        Self.expectFixtureText(tags)
        let cover = try #require(tags.coverArt)
        #expect(cover.hasPrefix(art.file("cache/art/")) && cover.hasSuffix(".png"))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: cover))) == (try await PodcastFixture.coverBytes()))
        #expect(opened.metadata.chapters == [
            Chapter(title: "Cold open", start: 0, end: 4),
            Chapter(title: "The interview", start: 4, end: 9.5),
            Chapter(title: "Listener mail", start: 9.5, end: 12),
        ])
        // Opened again: the same file, not a second one.
        #expect(try Self.open(bytes, art: CoverArtStore(directory: art.file("cache/art"))).metadata.tags.coverArt == cover)
        #expect(try FileManager.default.contentsOfDirectory(atPath: art.file("cache/art")).count == 1)
        // A reopen after an interrupted read does not read them again.
        #expect(try DecoderOpener.open(MemoryByteSource(bytes), as: opened.opened.kind).metadata == ItemMetadata())
    }

    /// Regression: a 0-byte file said "Format not recognised."
    @Test func anEmptyFileSaysSo() {
        #expect(throws: DecoderFailure.unreadable("the file is empty")) { try Self.open([]) }
    }

    @Test func aWAVsCuePointsAreChaptersNamedByTheirLabels() throws {
        let wav = WAVFixture(seconds: 3, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 4)
        let bytes = PodcastFixture.withCuePoints(wav.bytes, cues: [(0, "Welcome"), (72_000, "Main part"), (120_000, "Goodbye")])
        let opened = try Self.open(bytes)
        #expect(opened.metadata.chapters == [
            Chapter(title: "Welcome", start: 0), Chapter(title: "Main part", start: 1.5), Chapter(title: "Goodbye", start: 2.5),
        ])
        // The audio is untouched by the chunks after it.
        #expect(opened.opened.format.frames == Int64(wav.frameCount))
    }

    @Test func aChaptersFileBesideALocalFileWinsAndHidesWhatIsNotInTheTableOfContents() async throws {
        let directory = try TemporaryDirectory(prefix: "chapters")
        let mp3 = try await Mpg123DecoderTests.bytes(PodcastFixture.mp3(seconds: 12, tags: PodcastFixture.Tags()))
        let path = try directory.write(mp3, as: "episode.mp3")
        try directory.write(Array("""
            {"version": "1.2.0", "chapters": [
              {"startTime": 0, "title": "Intro"},
              {"startTime": 2.5, "title": "Sponsor", "toc": false},
              {"startTime": 5, "title": "Interview", "endTime": 10},
              {"title": "no start"}
            ]}
            """.utf8), as: "episode.chapters.json")
        let opened = try Self.open(mp3, location: path)
        #expect(opened.metadata.chapters == [Chapter(title: "Intro", start: 0), Chapter(title: "Interview", start: 5, end: 10)])
    }

    @Test func id3v23TextInUTF16WithAByteOrderMark() {
        // TIT2 in UTF-16 LE with a BOM, TPE1 in ISO-8859-1, in an ID3v2.3 tag.
        let title: [UInt8] = [1, 0xFF, 0xFE] + Array("Épisode".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + [0, 0]
        let artist: [UInt8] = [0] + Array("Caf".utf8) + [0xE9]
        func frame(_ id: String, _ data: [UInt8]) -> [UInt8] {
            Array(id.utf8) + [0, 0, UInt8(data.count >> 8), UInt8(data.count & 0xFF), 0, 0] + data
        }
        let body = frame("TIT2", title) + frame("TPE1", artist)
        let tag: [UInt8] = Array("ID3".utf8) + [3, 0, 0, 0, 0, UInt8(body.count >> 7), UInt8(body.count & 0x7F)] + body
        let parsed = ID3v2Tag(tag)
        #expect(parsed?.tags.title == "Épisode")
        #expect(parsed?.tags.artist == "Café")
    }

    @Test(arguments: [[UInt8](), [0x49, 0x44, 0x33, 4, 0, 0, 0x7F, 0x7F, 0x7F, 0x7F], Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 20] + [UInt8](repeating: 0xFF, count: 20)])
    func malformedTagsAreSkippedNotTrusted(bytes: [UInt8]) {
        _ = ID3v2Tag(bytes)
    }
}
