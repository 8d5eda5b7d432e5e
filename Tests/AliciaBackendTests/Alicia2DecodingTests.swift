import AliciaJSON
import Testing
@testable import AliciaBackend

/// Alicia 2.0's replies from fixtures: every optional field may be missing, unknown ones are ignored.
@Suite struct Alicia2DecodingTests {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try BackendClient.decode(type, from: Array(json.utf8), endpoint: "/fixture")
    }

    static let briefing = #"""
        {"id": "mb-2026-09-01", "day": "2026-09-01", "title": "Tuesday", "text": "Good morning.", "status": "ready",
         "audio_url": "/api/morning_briefing/audio/mb-2026-09-01.m4a", "duration": 182.5, "playlist_id": "p9", "error": null,
         "sources": [{"id": 3, "title": "Notes", "path": "notes/today.md", "excerpt": "…"}, {"title": "no id"}],
         "speech": {"spoken_text": "Good morning.", "timing_status": "pending",
                    "chunks": [{"url": "/api/speech/a.m4a", "duration": 182.5, "text": "Good morning.",
                                "cues": [{"start": 0.1, "end": 0.5, "text": "Good", "start_char": 0, "end_char": 4}]}]},
         "mood": "bright"}
        """#

    @Test func aReadyBriefingIsPlayable() throws {
        let briefing = try decode(MorningBriefing.self, Self.briefing)
        #expect(briefing.status == .ready && briefing.isPlayable)
        #expect(briefing.id == "mb-2026-09-01" && briefing.playlistID == "p9" && briefing.error == nil)
        #expect(briefing.sources.map(\.id) == ["3", nil] && briefing.sources[0].id?.isNumber == true)
        let speech = try #require(briefing.speech)
        #expect(speech.state == .ready, "a reading without a status that has chunks is ready")
        #expect(speech.timingStatus == "pending" && speech.chunks[0].cues == [SpeechCue(start: 0.1, end: 0.5, text: "Good", startChar: 0, endChar: 4)])
    }

    @Test(arguments: [
        #"{"status": "preparing", "day": "2026-09-01"}"#,
        #"{"status": "unavailable", "error": "no briefing on Sundays"}"#,
        #"{"id": "x", "status": "ready", "audio_url": "/a.m4a", "duration": 0}"#,
        #"{"id": "x", "status": "ready", "duration": 10}"#,
        #"{"id": "", "status": "ready", "audio_url": "/a.m4a", "duration": 10}"#,
        #"{"id": "x", "status": "ready", "audio_url": "ftp://h/a.m4a", "duration": 10}"#,
        #"{"id": "x", "status": "done", "audio_url": "/a.m4a", "duration": 10}"#,
        "{}",
    ])
    func otherBriefingsAreNot(json: String) throws {
        #expect(try !decode(MorningBriefing.self, json).isPlayable)
    }

    @Test func briefingStatusesAreNamed() throws {
        #expect(try decode(MorningBriefing.self, #"{"status": "preparing"}"#).status == .preparing)
        #expect(try decode(MorningBriefing.self, #"{"status": "unavailable", "error": "none"}"#).error == "none")
        #expect(try decode(MorningBriefing.self, #"{"status": "soon"}"#).status == .other("soon"))
        #expect(try decode(MorningBriefing.self, #"{"id": 5, "status": "ready", "audio_url": "http://h/a.m4a?token=x", "duration": 3}"#).isPlayable)
    }

    @Test func synthesesWithAndWithoutTheirReading() throws {
        let json = #"""
            [{"title": "On Lanterns", "date": "2026-08-30", "excerpt": "Small lights.", "body": "Lanterns are small lights.",
              "speech": {"status": "ready", "duration": 9.5, "chunks": [{"url": "/api/speech/l0.m4a", "duration": 9.5}]}},
             {"title": "Paper Boats", "body": "Further than they look.", "tags": ["x"]},
             {"body": "untitled"}]
            """#
        let pieces = try decode([Synthesis].self, json)
        #expect(pieces.map(\.title) == ["On Lanterns", "Paper Boats", "Untitled"])
        #expect(pieces.map(\.hasReading) == [true, false, false])
    }

    @Test func reflectionsAndHistory() throws {
        let reflections = try decode([Reflection].self, #"""
            [{"id": "r1", "kind": "morning", "date": "2026-09-01", "text": "A slow start.", "speech": {"status": "rendering", "chunks": [], "duration": 0}},
             {"id": 7, "kind": "evening", "text": "Enough for today."}]
            """#)
        #expect(reflections.map(\.kind) == ["morning", "evening"] && reflections[0].speech?.state == .rendering && reflections[1].speech == nil)
        let history = try decode([String: [HistoryMessage]].self, #"""
            {"messages": [{"id": 1, "ts": 1756710000.5, "role": "user", "content": "hi", "source": "ios"},
                          {"id": "m-2", "ts": "2026-09-01T07:00:00Z", "role": "assistant", "content": "hello", "reply_id": "9f1c", "extra": 1}]}
            """#)["messages"] ?? []
        #expect(history.map(\.content) == ["hi", "hello"])
        #expect(history[0].timestamp == "1756710000.5" && history[1].timestamp == "2026-09-01T07:00:00Z")
        #expect(history[0].replyID == nil && history[1].replyID == "9f1c" && history[0].id == 1)
    }

    @Test func speechStatusInBothForms() throws {
        let old = try decode(SpeechStatus.self, #"{"status": "streaming", "chunks": [{"url": "/api/audio/c0.wav", "duration": 2.5}], "duration": 2.5}"#)
        #expect(old.state == .streaming && old.chunks == [PlaylistItem.Chunk(url: "/api/audio/c0.wav", duration: 2.5)] && old.spokenText == nil)
        let new = try decode(SpeechStatus.self, #"""
            {"status": "ready", "timing_status": "pending", "speech_backend": "kokoro", "spoken_text": "Title.\n\nBody.",
             "chunks": [{"url": "/api/speech/x.m4a", "duration": 1.25, "text": "Title.", "timing_status": "ready",
                         "cues": [{"start": 0, "end": 0.4, "text": "Title.", "start_char": 0, "end_char": 6}]}], "duration": 1.25}
            """#)
        #expect(new.state == .ready && new.timingStatus == "pending" && new.speechBackend == "kokoro" && new.spokenText == "Title.\n\nBody.")
        #expect(new.chunks[0].text == "Title." && new.chunks[0].timingStatus == "ready" && new.chunks[0].cues.count == 1)
        #expect(try decode(SpeechStatus.self, #"{"status": "failed"}"#).state == .failed)
        #expect(try decode(SpeechStatus.self, #"{"status": "queued"}"#).state == .other("queued"))
    }

    @Test func theSpeakTextIsTheAppsCacheKey() {
        #expect(BackendClient.speechText(title: "On Lanterns", body: "Small lights.") == "On Lanterns.\n\nSmall lights.")
        #expect(BackendClient.speechText(title: nil, body: "Small lights.") == "Small lights.")
        #expect(BackendClient.speechText(title: "  ", body: "Small lights.") == "Small lights.")
    }

    @Test func thePollingPolicyIsTheApps() {
        let policy = SpeechPollPolicy.app
        #expect((1...20).allSatisfy { policy.interval(afterAsks: $0) == .milliseconds(1500) })
        #expect([21, 22, 100].allSatisfy { policy.interval(afterAsks: $0) == .seconds(4) })
    }

    @Test func theEpisodeDayFrameKeepsTheLatestPlayback() throws {
        let frame = try decode(EpisodeDayFrame.self, #"""
            {"day": "2026-09-01", "latest_playback": {"episode_id": "S11E04", "observed_at": "2026-09-01T07:30:00Z", "position_ms": 5},
             "episodes": [], "summary": {"minutes": 31}}
            """#)
        #expect(frame.latestPlayback?.episodeID == "S11E04" && frame.latestPlayback?.observedSeconds == 1_788_247_800)
        #expect(try decode(EpisodeDayFrame.self, #"{"day": "2026-09-01"}"#).latestPlayback == nil)
        #expect(try decode(EpisodeDayFrame.self, #"{"latest_playback": null}"#).latestPlayback == nil)
    }
}
