import Foundation
import Testing
import AliciaLocks
import AliciaTestSupport
@testable import AliciaAudio

/// MP3 through libmpg123 frame by frame, on files ffmpeg makes as publishers do.
@Suite struct Mpg123DecoderTests {
    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func open(_ bytes: [UInt8]) throws -> Mpg123Decoder {
        guard case .stream(let stream) = MP3Stream.probe(MemoryByteSource(bytes)) else {
            throw HarnessError("not an MP3 stream")
        }
        return try Mpg123Decoder(source: CountingSource(bytes), stream: stream)
    }

    /// Every sample from where the decoder stands, `limit` frames at most.
    static func decode(_ decoder: any AudioDecoder, limit: Int = .max) -> [Float] {
        let channels = decoder.format.channels, chunk = 2048
        var out: [Float] = []
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk * channels)
        defer { buffer.deallocate() }
        while out.count / channels < limit {
            let got = decoder.read(into: buffer, frames: min(chunk, limit - out.count / channels))
            out.append(contentsOf: UnsafeBufferPointer(start: buffer, count: got * channels))
            if got == 0 { break }
        }
        return out
    }

    /// Nil when equal (within `tolerance`), else where and how they differ (never the whole arrays).
    static func difference(_ a: [Float], _ b: [Float], tolerance: Float = 0) -> String? {
        guard a.count == b.count else { return "lengths \(a.count) and \(b.count)" }
        guard let index = zip(a, b).enumerated().first(where: { abs($0.element.0 - $0.element.1) > tolerance })?.offset else {
            return nil
        }
        let worst = zip(a, b).map { abs($0 - $1) }.max() ?? 0
        return "first difference at \(index) of \(a.count)/\(b.count): \(a[index]) vs \(b[index]); largest \(worst)"
    }

    @Test func aTwelveSecondCBRFileIsHeardForExactlyTheSamplesEncoded() async throws {
        let decoder = try await Self.open(Self.bytes(PodcastFixture.mp3(seconds: 12)))
        #expect(decoder.format.sampleRate == 22_050)
        #expect(decoder.format.channels == 1)
        #expect(decoder.format.frames == Int64(12 * 22_050))
        #expect(decoder.stream.constantBitrate)
        #expect(decoder.format.description == "MPEG-2 Layer III · 32 kb/s")
        #expect(Self.decode(decoder).count == 12 * 22_050)
        #expect(!decoder.isTruncated)
    }

    /// libsndfile decodes MP3 with libmpg123 in its own gapless mode: the same samples, trimmed
    /// the same, are an independent check of the delay and padding arithmetic.
    @Test(arguments: [PodcastFixture.Rate.constant(32), .variable(6)])
    func theSamplesAreLibsndfilesSamples(rate: PodcastFixture.Rate) async throws {
        let bytes = try await Self.bytes(PodcastFixture.mp3(seconds: 12, rate: rate))
        let ours = Self.decode(try Self.open(bytes))
        let theirs = Self.decode(try SndFile(source: MemoryByteSource(bytes)))
        #expect(Self.difference(ours, theirs) == nil)
    }

    /// The samples after a seek are a decode from the start's, frame for frame. Not to the bit:
    /// libmpg123 sums a little differently once its filter banks were filled from another frame
    /// (about a third of the samples differ, by at most 3e-8, 150 dB down): a tolerance of 1e-6.
    @Test(arguments: [0, 1, 575, 1_151, 55_555, 200_000, 12 * 22_050 - 100])
    func aCBRSeekLandsOnTheSamplesDecodingThroughReaches(frame: Int) async throws {
        let bytes = try await Self.bytes(PodcastFixture.mp3(seconds: 12))
        let whole = Self.decode(try Self.open(bytes))
        let decoder = try Self.open(bytes)
        #expect(decoder.seek(toFrame: Int64(frame)))
        let heard = Self.decode(decoder, limit: 4096)
        #expect(heard.count == min(4096, whole.count - frame))
        #expect(Self.difference(heard, Array(whole[frame..<(frame + heard.count)]), tolerance: 1e-6) == nil, "seek to \(frame)")
    }

    /// Regression: libsndfile found an MP3 position by decoding from byte 0 (380 Range requests
    /// and 25 MB for a resume at 1:45:00 of a 2-hour file).
    @Test func aSeekNinetyPercentIntoATwoHourCBRFileReadsAFewKiB() async throws {
        let bytes = try await Self.bytes(PodcastFixture.mp3(seconds: 7200))
        let source = CountingSource(bytes)
        guard case .stream(let stream) = MP3Stream.probe(source) else { throw HarnessError("not MP3") }
        let decoder = try Mpg123Decoder(source: source, stream: stream)
        let opening = source.bytesRead
        source.mark()
        #expect(opening < 32 * 1024, "\(opening) bytes read to open")
        #expect(decoder.format.frames.map { abs($0 - 7200 * 22_050) < 22_050 } == true, "\(decoder.format.frames ?? -1)")
        let target = Int64(0.9 * 7200 * 22_050)
        #expect(decoder.seek(toFrame: target))
        let second = Self.decode(decoder, limit: 22_050)
        #expect(second.count == 22_050)
        let read = source.bytesRead - opening
        // A second at 32 kb/s is 4 KB; the resync and the priming frames a few more.
        #expect(read < 24 * 1024, "\(read) bytes read for a seek and a second")
        #expect(source.lowestOffsetSinceMark > Int64(bytes.count) * 8 / 10)

        // The same samples as reaching them from 30 s earlier: the frame a seek names is the frame.
        let earlier = try Mpg123Decoder(source: CountingSource(bytes), stream: stream)
        #expect(earlier.seek(toFrame: target - 30 * 22_050))
        let through = Self.decode(earlier, limit: 31 * 22_050)
        #expect(Self.difference(Array(through.suffix(22_050)), second, tolerance: 1e-6) == nil)
    }

    /// Regression: 3 KB of garbage in the middle lost 29 frames, and with them the end was short of
    /// the header's length: the file was called truncated. The lost frames are silence now.
    @Test func damageInTheMiddleIsSilenceAndTheTimeAfterItStaysTheFiles() async throws {
        var bytes = try await Self.bytes(PodcastFixture.mp3(seconds: 12))
        let whole = Self.decode(try Self.open(bytes))
        var random = Xorshift64(seed: 5)
        for index in (bytes.count / 3)..<(bytes.count / 3 + 3000) { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
        let decoder = try Self.open(bytes)
        let heard = Self.decode(decoder)
        #expect(heard.count == whole.count)
        #expect(!decoder.isTruncated)
        // Past the damage (and a few frames to fill the reservoir again), the samples are the file's.
        let after = whole.count * 2 / 3
        #expect(Self.difference(Array(heard[after...]), Array(whole[after...]), tolerance: 1e-6) == nil)
    }

    @Test func aTruncatedFileSaysSoAndEndsWhereItsBytesDo() async throws {
        let bytes = try await Self.bytes(PodcastFixture.mp3(seconds: 12))
        let decoder = try Self.open(Array(bytes.prefix(bytes.count / 2)))
        let heard = Self.decode(decoder)
        #expect(heard.count > 5 * 22_050 && heard.count < 7 * 22_050)
        #expect(decoder.isTruncated)
    }
}

/// Bytes in memory that count what is read of them, and from where.
final class CountingSource: ByteSource, @unchecked Sendable {
    // @unchecked: the counters are behind their lock; the bytes never change.
    let bytes: [UInt8]
    private let counts = Locked<(read: Int, offsets: [Int64])>((0, []))

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func length() -> Int64? { Int64(bytes.count) }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> ByteRead {
        guard offset >= 0, offset < Int64(bytes.count) else { return .endOfFile }
        let n = min(buffer.count, bytes.count - Int(offset))
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: n) }
        counts.withLock {
            $0.read += n
            $0.offsets.append(offset)
        }
        return .bytes(n)
    }

    func interruptReader() {}
    func clearInterrupt() {}
    var failure: PlaybackError? { nil }

    var bytesRead: Int { counts.withLock { $0.read } }

    /// Forgets the offsets read so far (the counts stay).
    func mark() { counts.withLock { $0.offsets = [] } }

    /// The lowest offset read since `mark()`.
    var lowestOffsetSinceMark: Int64 { counts.withLock { $0.offsets.min() ?? Int64.max } }
}
