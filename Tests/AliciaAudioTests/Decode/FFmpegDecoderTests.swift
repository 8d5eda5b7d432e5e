import Foundation
import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// FFmpeg behind the decoder seam, on files ffmpeg makes: what the player opens with it (ADTS,
/// other codecs in MP4), tried here on AAC in M4A, opened with FFmpeg directly (the opener gives
/// an M4A's AAC track to faad2: `AACDecoderTests`, which takes FFmpeg's decode as its reference).
@Suite struct FFmpegDecoderTests {
    /// The file opened with FFmpeg, as the opener does for what it gives FFmpeg.
    static func open(_ path: String) throws -> FFmpegDecoder {
        let bytes = try Mpg123DecoderTests.bytes(path)
        return try FFmpegDecoder(source: MemoryByteSource(bytes, chunk: 10_000), sniff: ContainerSniff(Array(bytes.prefix(12))))
    }

    @Test(arguments: [true, false])
    func anM4AIsHeardForExactlyTheSamplesEncoded(faststart: Bool) async throws {
        let decoder = try await Self.open(PodcastFixture.m4a(seconds: 5, faststart: faststart))
        let format = decoder.format
        #expect(format.sampleRate == 44_100 && format.channels == 2 && format.sampleType == .float32)
        #expect(format.frames == Int64(5 * 44_100))
        #expect(format.description == "MP4 · AAC")
        let samples = Mpg123DecoderTests.decode(decoder)
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
        let whole = Mpg123DecoderTests.decode(try Self.open(path))
        let decoder = try Self.open(path)
        #expect(decoder.seek(toFrame: Int64(frame)))
        let heard = Mpg123DecoderTests.decode(decoder, limit: 4096)
        let expected = Array(whole[(frame * 2)..<min(whole.count, (frame + 4096) * 2)])
        #expect(Mpg123DecoderTests.difference(heard, expected, tolerance: 1e-4) == nil, "seek to \(frame)")
    }

    @Test func tagsCoverAndChaptersOfAnM4A() async throws {
        let decoder = try await Self.open(PodcastFixture.m4a(seconds: 12, tags: PodcastFixture.Tags()))
        #expect(decoder.tags.title == "Chaptered Episode")
        #expect(decoder.tags.artist == "The Tuesday Show")
        #expect(decoder.picture?.data == (try await PodcastFixture.coverBytes()))
        #expect(decoder.chapters.map(\.title) == ["Cold open", "The interview", "Listener mail"])
        #expect(decoder.chapters.map(\.start) == [0, 4, 9.5])
    }

    @Test func anADTSStreamOpensWithFFmpegThroughTheOpener() async throws {
        let directory = try TemporaryDirectory(prefix: "adts")
        let path = directory.file("tone.aac")
        try PodcastFixture.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=2", "-ac", "2",
                                   "-c:a", "aac", "-b:a", "96k", path])
        let opened = try DecoderOpener.open(MemoryByteSource(try Mpg123DecoderTests.bytes(path), chunk: 10_000))
        #expect(opened.kind == .ffmpeg)
        #expect(opened.format.description == "ADTS · AAC")
        let samples = Mpg123DecoderTests.decode(opened.decoder)
        #expect(samples.count >= 2 * 44_100 * 2, "\(samples.count / 2) frames")
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
