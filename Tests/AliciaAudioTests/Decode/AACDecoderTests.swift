import Foundation
import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// AAC in M4A: the engine's own sample table and faad2, on files ffmpeg makes the way publishers
/// do, checked against FFmpeg's decode of the same file (a decoder we did not write).
@Suite struct AACDecoderTests {
    static func open(_ bytes: [UInt8], metadata: Bool = false, art: CoverArtStore? = nil) throws -> DecoderOpener.Opened {
        try DecoderOpener.open(MemoryByteSource(bytes, chunk: 10_000),
                               metadata: metadata ? DecoderOpener.Metadata(coverArt: art) : nil)
    }

    static func open(_ path: String, metadata: Bool = false, art: CoverArtStore? = nil) throws -> DecoderOpener.Opened {
        try open(Mpg123DecoderTests.bytes(path), metadata: metadata, art: art)
    }

    @Test(arguments: [true, false])
    func anM4AIsHeardAsFFmpegDecodesIt(faststart: Bool) async throws {
        let path = try await PodcastFixture.m4a(seconds: 5, faststart: faststart)
        let opened = try Self.open(path)
        guard case .aac = opened.kind else {
            Issue.record("opened as \(opened.kind)")
            return
        }
        let format = opened.format
        #expect(format.sampleRate == 44_100 && format.channels == 2 && format.sampleType == .float32)
        #expect(format.frames == Int64(5 * 44_100))
        #expect(format.description == "MP4 · AAC")
        let heard = Mpg123DecoderTests.decode(opened.decoder)
        let reference = Mpg123DecoderTests.decode(try FFmpegDecoderTests.open(path))
        #expect(heard.count == 5 * 44_100 * 2)
        // Gapless as FFmpeg is (priming dropped, padding never heard), and the same sound: two
        // decoders of one standard differ in float rounding only.
        #expect(Mpg123DecoderTests.difference(heard, reference, tolerance: 1e-3) == nil)
    }

    @Test(arguments: [0, 1, 1_023, 1_024, 44_100, 100_000, 5 * 44_100 - 500])
    func aSeekLandsOnTheSamplesDecodingThroughReaches(frame: Int) async throws {
        let path = try await PodcastFixture.m4a(seconds: 5)
        let whole = Mpg123DecoderTests.decode(try Self.open(path).decoder)
        let decoder = try Self.open(path).decoder
        #expect(decoder.seek(toFrame: Int64(frame)))
        let heard = Mpg123DecoderTests.decode(decoder, limit: 4096)
        let expected = Array(whole[(frame * 2)..<min(whole.count, (frame + 4096) * 2)])
        #expect(Mpg123DecoderTests.difference(heard, expected, tolerance: 1e-4) == nil, "seek to \(frame)")
    }

    @Test(arguments: [true, false])
    func tagsCoverAndChaptersOfAnM4A(chapterList: Bool) async throws {
        let art = try TemporaryDirectory(prefix: "art")
        let path = try await PodcastFixture.m4a(seconds: 12, tags: PodcastFixture.Tags(), chapterList: chapterList)
        let opened = try Self.open(path, metadata: true, art: CoverArtStore(directory: art.file("art")))
        let tags = opened.metadata.tags
        MediaTagsTests.expectFixtureText(tags)
        let cover = try #require(tags.coverArt)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: cover))) == (try await PodcastFixture.coverBytes()))
        // Nero's list, or (without it) the chapter text track's samples, read from the file.
        #expect(opened.metadata.chapters.map(\.title) == ["Cold open", "The interview", "Listener mail"])
        #expect(opened.metadata.chapters.map(\.start) == [0, 4, 9.5])
    }

    @Test func aFileCutShortPlaysWhatItHoldsAndEnds() async throws {
        let bytes = try Mpg123DecoderTests.bytes(try await PodcastFixture.m4a(seconds: 5))
        let cut = Array(bytes.prefix(bytes.count * 2 / 3))
        let opened = try Self.open(cut)
        let heard = Mpg123DecoderTests.decode(opened.decoder)
        #expect(heard.count > 2 * 44_100 * 2 && heard.count < 5 * 44_100 * 2, "\(heard.count / 2) frames")
    }

    /// Every byte of the index changed in turn (three ways): the open fails with words or the
    /// decoder plays something and ends; nothing traps or hangs.
    @Test func aDamagedIndexNeverTraps() async throws {
        let bytes = try Mpg123DecoderTests.bytes(try await PodcastFixture.m4a(seconds: 1, tags: PodcastFixture.Tags()))
        let moov = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("moov".utf8) })
        let end = moov - 4 + Int(UInt32(bytes[moov - 4]) << 24 | UInt32(bytes[moov - 3]) << 16 | UInt32(bytes[moov - 2]) << 8 | UInt32(bytes[moov - 1]))
        var opened = 0
        for offset in stride(from: moov + 4, to: min(end, bytes.count), by: 3) {
            for value: UInt8 in [0x00, 0xFF, bytes[offset] ^ 0x80] {
                var damaged = bytes
                damaged[offset] = value
                guard let decoder = try? Self.open(damaged).decoder else { continue }
                opened += 1
                _ = Mpg123DecoderTests.decode(decoder, limit: 50_000)
                _ = decoder.seek(toFrame: 20_000)
                _ = Mpg123DecoderTests.decode(decoder, limit: 4_096)
            }
        }
        #expect(opened > 0)
    }
}
