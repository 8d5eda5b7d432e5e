import Foundation
import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// AAC in M4A through FFmpeg behind the decoder seam, on files ffmpeg makes.
@Suite struct FFmpegDecoderTests {
    static func open(_ path: String, metadata: Bool = false, art: CoverArtStore? = nil) throws -> DecoderOpener.Opened {
        let bytes = try Mpg123DecoderTests.bytes(path)
        return try DecoderOpener.open(MemoryByteSource(bytes, chunk: 10_000),
                                      metadata: metadata ? DecoderOpener.Metadata(location: MediaLocation("http://example.invalid/a.m4a"), coverArt: art) : nil)
    }

    @Test(arguments: [true, false])
    func anM4AIsHeardForExactlyTheSamplesEncoded(faststart: Bool) async throws {
        let opened = try await Self.open(PodcastFixture.m4a(seconds: 5, faststart: faststart))
        #expect(opened.kind == .ffmpeg)
        let format = opened.format
        #expect(format.sampleRate == 44_100 && format.channels == 2 && format.sampleType == .float32)
        #expect(format.frames == Int64(5 * 44_100))
        #expect(format.description == "MP4 · AAC")
        let samples = Mpg123DecoderTests.decode(opened.decoder)
        #expect(samples.count == 5 * 44_100 * 2)
        // Gapless: the encoder's priming is gone, so the tone is there from the first frames (its
        // first sample is sin(0) = 0, the next ones rise), and it is there to the last ones.
        let peakStart = samples.prefix(200).map(abs).max() ?? 0
        let peakEnd = samples.suffix(200).map(abs).max() ?? 0
        #expect(peakStart > 0.05 && peakEnd > 0.05, "start \(peakStart), end \(peakEnd)")
    }

    @Test(arguments: [0, 1, 1_023, 44_100, 100_000, 5 * 44_100 - 500])
    func aSeekLandsOnTheSamplesDecodingThroughReaches(frame: Int) async throws {
        let path = try await PodcastFixture.m4a(seconds: 5)
        let whole = Mpg123DecoderTests.decode(try Self.open(path).decoder)
        let decoder = try Self.open(path).decoder
        #expect(decoder.seek(toFrame: Int64(frame)))
        let heard = Mpg123DecoderTests.decode(decoder, limit: 4096)
        let expected = Array(whole[(frame * 2)..<min(whole.count, (frame + 4096) * 2)])
        #expect(Mpg123DecoderTests.difference(heard, expected, tolerance: 1e-4) == nil, "seek to \(frame)")
    }

    @Test func tagsCoverAndChaptersOfAnM4A() async throws {
        let art = try TemporaryDirectory(prefix: "art")
        let opened = try await Self.open(PodcastFixture.m4a(seconds: 12, tags: PodcastFixture.Tags()), metadata: true,
                                   art: CoverArtStore(directory: art.file("art")))
        let tags = opened.format.tags
        #expect(tags.title == "Chaptered Episode")
        #expect(tags.artist == "The Tuesday Show")
        #expect(tags.album == "Season 3")
        #expect(tags.year == "2024")
        #expect(tags.comment == "Notes for the episode")
        let cover = try #require(tags.coverArt)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: cover))) == (try await PodcastFixture.coverBytes()))
        #expect(opened.format.chapters.map(\.title) == ["Cold open", "The interview", "Listener mail"])
        #expect(opened.format.chapters.map(\.start) == [0, 4, 9.5])
    }

    @Test func garbageThatLooksLikeAnMP4SaysWhatIsNotSupported() throws {
        let bytes: [UInt8] = [0, 0, 0, 0x18] + Array("ftypM4A ".utf8) + [UInt8](repeating: 0x55, count: 2000)
        #expect {
            try DecoderOpener.open(MemoryByteSource(bytes))
        } throws: { error in
            guard case DecoderFailure.unreadable(let reason) = error else { return false }
            return reason.hasPrefix("AAC inside MP4 is not supported")
        }
    }
}
