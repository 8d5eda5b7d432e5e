import Testing
@testable import AliciaAudio

/// A synthesis's own text as its transcript: one cue a chunk, the words shared out by time.
@Suite struct SpokenTranscriptTests {
    @Test("every word once, in order, one cue a chunk at its start; even chunks share the words evenly")
    func evenChunks() throws {
        let cues = try #require(SpokenTranscript.cues(text: "one two three four five six", chunkSeconds: [2, 2, 2], speaker: "Alicia"))
        #expect(cues.map(\.start) == [0, 2, 4])
        #expect(cues.map(\.end) == [2, 4, 6])
        #expect(cues.map(\.text) == ["one two", "three four", "five six"])
        #expect(cues.allSatisfy { $0.speaker == "Alicia" })
    }

    @Test("a long chunk takes more of the words; a chunk with no word whole is left out")
    func unevenChunks() throws {
        let cues = try #require(SpokenTranscript.cues(text: "aa bb cc dd", chunkSeconds: [3, 1]))
        #expect(cues.map(\.text).joined(separator: " ") == "aa bb cc dd")
        #expect(cues.first?.text == "aa bb cc")
        let sparse = try #require(SpokenTranscript.cues(text: "word", chunkSeconds: [1, 1, 1]))
        #expect(sparse.count == 1 && sparse[0].start == 1)
    }

    @Test("no cues without the text or every length (a piece still being voiced)")
    func unknown() {
        #expect(SpokenTranscript.cues(text: "", chunkSeconds: [1]) == nil)
        #expect(SpokenTranscript.cues(text: "hello", chunkSeconds: []) == nil)
        #expect(SpokenTranscript.cues(text: "hello", chunkSeconds: [1, 0]) == nil)
    }
}
