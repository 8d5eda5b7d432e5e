import Foundation
import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// Transcripts beside a local file: WebVTT, SubRip and Podcasting 2.0 JSON, and what is not one.
@Suite struct TranscriptTests {
    static func parse(_ text: String, _ form: Transcript.Form) throws(TranscriptError) -> [TranscriptCue] {
        try Transcript.parse(Array(text.utf8), as: form)
    }

    @Test func webVTTCuesWithVoicesSettingsTagsAndNotes() throws {
        let cues = try Self.parse("""
            \u{FEFF}WEBVTT - an episode
            Kind: captions

            NOTE a comment
            that runs on

            STYLE
            ::cue { color: yellow }

            intro
            00:00.500 --> 00:02.000 align:start position:10%
            <v Alicia>Hello &amp; <i>welcome</i>.</v>

            00:01:02.250 --> 00:01:04.000
            Two lines
            of text.\r

            1:00:00.000 --> 1:00:01.000
            <v.loud Sam Jones>Late <00:00:01.000>one.
            """, .webVTT)
        #expect(cues == [
            TranscriptCue(start: 0.5, end: 2, speaker: "Alicia", text: "Hello & welcome."),
            TranscriptCue(start: 62.25, end: 64, speaker: nil, text: "Two lines of text."),
            TranscriptCue(start: 3600, end: 3601, speaker: "Sam Jones", text: "Late one."),
        ])
        #expect(cues[0].line == "Alicia: Hello & welcome.")
    }

    @Test func subRipCuesInOrderOfTheirStart() throws {
        let cues = try Self.parse("""
            1
            00:00:03,000 --> 00:00:04,500
            Second.

            2
            00:00:01,000 --> 00:00:02,000
            <b>First</b>,
            in two lines.
            """, .subRip)
        #expect(cues == [
            TranscriptCue(start: 1, end: 2, text: "First, in two lines."),
            TranscriptCue(start: 3, end: 4.5, text: "Second."),
        ])
    }

    @Test func podcastingJSONSegments() throws {
        let cues = try Self.parse("""
            {"version": "1.0.0", "segments": [
              {"speaker": "Alicia", "startTime": 0.8, "endTime": 1.9, "body": "Hi"},
              {"startTime": 2, "body": "  "},
              {"startTime": 2.5, "endTime": 2, "body": "No end"}
            ]}
            """, .json)
        #expect(cues == [
            TranscriptCue(start: 0.8, end: 1.9, speaker: "Alicia", text: "Hi"),
            TranscriptCue(start: 2.5, end: nil, speaker: nil, text: "No end"),
        ])
    }

    @Test(arguments: [
        ("hello\n\n00:01.000 --> 00:02.000\nx", Transcript.Form.webVTT, "line 1: a WebVTT file begins with WEBVTT"),
        ("WEBVTT\n\n00:01.000 -> 00:02.000\nx", .webVTT, "line 3: '00:01.000 -> 00:02.000' is not a cue's timing (00:01.000 --> 00:04.000)"),
        ("WEBVTT\n\n00:01.000 --> soon\nx", .webVTT, "line 3: '00:01.000 --> soon' is not a cue's timing (00:01.000 --> 00:04.000)"),
        ("WEBVTT\n\n00:99.000 --> 01:00.000\nx", .webVTT, "line 3: '00:99.000 --> 01:00.000' is not a cue's timing (00:01.000 --> 00:04.000)"),
        ("1\n00:00:01.000 --> \nx", .subRip, "line 2: '00:00:01.000 --> ' is not a cue's timing (00:00:01,000 --> 00:00:04,000)"),
        ("{\"segments\": [", .json, "not JSON"),
        ("{\"chapters\": []}", .json, "no \"segments\" list"),
        ("{\"segments\": [{\"body\": \"x\"}]}", .json, "segment 1 has no startTime"),
        ("{\"segments\": [{\"startTime\": 1}]}", .json, "segment 1 has no body"),
        ("{\"segments\": [3]}", .json, "segment 1 is not an object"),
    ])
    func malformedInputIsAClearError(text: String, form: Transcript.Form, message: String) {
        #expect(throws: TranscriptError(message)) { try Self.parse(text, form) }
    }

    @Test func randomBytesNeverCrash() {
        var random = Xorshift64(seed: 27)
        for length in 0..<300 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            for form in [Transcript.Form.webVTT, .subRip, .json] { _ = try? Transcript.parse(bytes, as: form) }
            let text = Array("WEBVTT\n\n".utf8) + bytes.map { $0 % 4 == 0 ? UInt8(ascii: ":") : $0 % 5 == 0 ? 10 : $0 }
            _ = try? Transcript.parse(text, as: .webVTT)
        }
    }

    @Test func aVTTBesideALocalWAVRidesInItsFormat() throws {
        let directory = try TemporaryDirectory(prefix: "transcript")
        defer { directory.remove() }
        let path = directory.file("note.wav")
        try WAVFixture(seconds: 1).write(to: path)
        try directory.write(Array("WEBVTT\n\n00:00.200 --> 00:00.600\n<v Alicia>Hi.\n".utf8), as: "note.vtt")
        let read = try MediaTagsTests.open(WAVFixture(seconds: 1).bytes, location: path)
        #expect(read.metadata.transcript == [TranscriptCue(start: 0.2, end: 0.6, speaker: "Alicia", text: "Hi.")])
    }

    @Test func aBrokenTranscriptIsLeftOutAndTheNextFormTried() throws {
        let directory = try TemporaryDirectory(prefix: "transcript")
        defer { directory.remove() }
        let path = directory.file("note.wav")
        try directory.write(Array("not a transcript".utf8), as: "note.vtt")
        try directory.write(Array("1\n00:00:00,100 --> 00:00:00,400\nFrom SubRip\n".utf8), as: "note.srt")
        #expect(Transcript.cues(besideFile: path) == [TranscriptCue(start: 0.1, end: 0.4, text: "From SubRip")])
        #expect(Transcript.cues(besideFile: directory.file("other.wav")) == nil)
    }
}
