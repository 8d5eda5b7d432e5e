import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// The RIFF headers libsndfile 1.2.0 parses forever (RIFFHeaderCheck), built by hand: refused
/// before libsndfile sees them, while every ordinary header (and odd but finite ones) passes.
@Suite struct RIFFHeaderCheckTests {
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// RIFF, WAVE and a 16-byte fmt chunk of 8 kHz mono 16-bit: what every case below starts with.
    private static let head: [UInt8] = Array("RIFF".utf8) + Self.le32(0) + Array("WAVEfmt ".utf8) + Self.le32(16)
        + [1, 0, 1, 0] + Self.le32(8000) + Self.le32(16000) + [2, 0, 16, 0]

    private static func problem(_ bytes: [UInt8]) -> String? {
        RIFFHeaderCheck.problem(fileLength: Int64(bytes.count)) { offset, count in
            offset >= 0 && offset + Int64(count) <= Int64(bytes.count) ? Array(bytes[Int(offset)..<Int(offset) + count]) : nil
        }
    }

    /// The fuzzer's input (Tests/Fuzz/audio-header/list-negative-jump) as a rule: a LIST entry of
    /// 0xFFFFFFF0 bytes is a jump of 16 bytes back, onto the same entry again.
    @Test func aListEntryOfMinusSixteenIsRefused() throws {
        let list = Array("INFO".utf8) + Array("ISxx".utf8) + Self.le32(0) + [UInt8](repeating: 0xFF, count: 4) + Self.le32(0xFFFF_FFF0)
        let bytes = Self.head + Array("LIST".utf8) + Self.le32(UInt32(list.count)) + list + Array("data".utf8) + Self.le32(4) + [0, 0, 0, 0]
        let found = try #require(Self.problem(bytes))
        #expect(found.contains("LIST"), "\(found)")
        #expect(throws: SndfileError.self) { try SndFile(source: MemoryByteSource(bytes)) }
    }

    /// Tests/Fuzz/audio-header/list-negative-jump, byte for byte (before the check, the player spun
    /// on it at full CPU and could not be stopped).
    private static let fuzzerInput: [UInt8] = [
        0x52, 0x49, 0x46, 0x46, 0xB0, 0x00, 0x00, 0x00, 0x57, 0x41, 0x56, 0x45, 0x66, 0x6D, 0x74, 0x20,
        0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x40, 0x1F, 0x00, 0x00, 0x80, 0x3E, 0x00, 0x00,
        0x02, 0x00, 0x10, 0x00, 0x4C, 0x49, 0x53, 0x54, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0, 0xFF, 0xFF, 0xFF, 0x49, 0x4E, 0x46, 0x4F,
        0x11, 0x33, 0x5B,
    ]

    @Test func theFuzzersInputIsRefused() throws {
        let bytes = Self.fuzzerInput
        #expect(Self.problem(bytes) != nil)
        let error = try #require(throws: SndfileError.self) { try SndFile(source: MemoryByteSource(bytes)) }
        #expect(error.code == SndfileError.malformedFile)
    }

    /// An unknown file length (a server that named none) takes away wav.c's own stop at a chunk longer
    /// than the file: a JUNK chunk of 0xFFFFFFF0 bytes would then loop too.
    @Test func aHugeChunkIsRefusedOnlyWhereTheLengthIsUnknown() {
        let bytes = Self.head + Array("JUNK".utf8) + Self.le32(0xFFFF_FFF0) + [UInt8](repeating: 0, count: 32)
        #expect(Self.problem(bytes) == nil)
        let endless = RIFFHeaderCheck.problem(fileLength: Int64(Int32.max) * 1024) { offset, count in
            offset + Int64(count) <= Int64(bytes.count) ? Array(bytes[Int(offset)..<Int(offset) + count]) : nil
        }
        #expect(endless != nil)
    }

    @Test func ordinaryFilesPass() {
        let files = [
            WAVFixture(frames: 4800, format: .pcm16, seed: 1).bytes,
            WAVFixture(frames: 4800, format: .pcm24, seed: 2).withTrailingChunk().bytes,
            WAVFixture(frames: 4800, format: .float32, seed: 3).truncated(keepingFraction: 0.5).bytes,
        ]
        for bytes in files { #expect(Self.problem(bytes) == nil) }
    }

    /// Odd but finite: an INFO list with text entries, a LIST longer than the file, an entry whose
    /// size runs past the list (libsndfile skips to the list's end), an entry of 0xFFFFFFFF (padded to 0).
    @Test func oddButFiniteListsPass() {
        let text = Array("INFO".utf8) + Array("INAM".utf8) + Self.le32(5) + Array("Hello".utf8) + [0]
        let lists: [[UInt8]] = [
            Array("LIST".utf8) + Self.le32(UInt32(text.count)) + text,
            Array("LIST".utf8) + Self.le32(0xFFFF_FFFF) + text,
            Array("LIST".utf8) + Self.le32(20) + Array("INFO".utf8) + Array("ABCD".utf8) + Self.le32(1000) + [0, 0, 0, 0, 0, 0, 0, 0],
            Array("LIST".utf8) + Self.le32(20) + Array("INFO".utf8) + Array("ABCD".utf8) + Self.le32(0xFFFF_FFFF) + [0, 0, 0, 0, 0, 0, 0, 0],
        ]
        for list in lists {
            #expect(Self.problem(Self.head + list + Array("data".utf8) + Self.le32(2) + [0, 0]) == nil, "\(list)")
        }
    }

    @Test func notRIFFIsNotLookedAt() {
        #expect(Self.problem(Array("fLaC".utf8) + [UInt8](repeating: 0xFF, count: 64)) == nil)
        #expect(Self.problem([]) == nil)
    }
}
