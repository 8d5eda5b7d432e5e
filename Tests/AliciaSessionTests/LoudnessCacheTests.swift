import Testing
import AliciaTestSupport
import AliciaAudio
@testable import AliciaSession

/// The per-episode loudness cache: what is stored is read back by the next session, and a resumed
/// item carries it, so matched loudness starts at the right level at once.
@Suite struct LoudnessCacheTests {
    @Test func storedFiguresAreReadBackAndGoWithTheItem() throws {
        let directory = try TemporaryDirectory(prefix: "loudness-cache")
        let cache = LoudnessCache(directory: directory.path)
        #expect(cache.store(LoudnessFigures(integrated: -21.234, peak: -3.456), for: "S01E01"))
        #expect(cache.store(LoudnessFigures(integrated: -30, peak: -.infinity), for: "/tmp/quiet.wav"))
        let again = LoudnessCache(directory: directory.path)
        #expect(again.figures(for: "S01E01") == LoudnessFigures(integrated: -21.23, peak: -3.46))
        #expect(again.figures(for: "/tmp/quiet.wav") == LoudnessFigures(integrated: -30, peak: -.infinity))
        #expect(again.figures(for: "S01E02") == nil)
    }

    @Test func aFileThatDoesNotParseIsStartedAfresh() throws {
        let directory = try TemporaryDirectory(prefix: "loudness-cache")
        try directory.write(Array("not json".utf8), as: "loudness.json")
        let cache = LoudnessCache(directory: directory.path)
        #expect(cache.figures(for: "x") == nil)
        #expect(cache.store(LoudnessFigures(integrated: -16, peak: -1), for: "x"))
        #expect(LoudnessCache(directory: directory.path).figures(for: "x") == LoudnessFigures(integrated: -16, peak: -1))
    }
}
