import AliciaJSON
import Testing
@testable import AliciaBackend

/// Listening evidence (`POST /api/episode_day`): the event as the wire has it, and what each answer
/// means for the outbox.
@Suite struct EpisodeDayTests {
    @Test func anEventIsTheWiresJSONAndReadsBack() throws {
        let id = try #require(UUIDv4("0d9f6c1e-2b3a-4c5d-8e7f-001122334455"))
        let event = EpisodeDayEvent(action: .progress, episodeID: "S11E04", positionMS: 61_500, playedMS: 15_000, title: "The Long Way Round",
                                    observedAt: 1_796_615_626, eventID: id)
        let json = String(decoding: try JSON.encode(event), as: UTF8.self)
        #expect(json == #"{"action":"progress","episode_id":"S11E04","event_id":"0d9f6c1e-2b3a-4c5d-8e7f-001122334455","#
            + #""observed_at":"2026-12-07T03:53:46Z","played_ms":15000,"position_ms":61500,"title":"The Long Way Round"}"#)
        #expect(try JSON.decode(EpisodeDayEvent.self, from: Array(json.utf8)) == event)
        let untitled = EpisodeDayEvent(action: .selected, episodeID: "x", positionMS: 0, playedMS: 0)
        #expect(!String(decoding: try JSON.encode(untitled), as: UTF8.self).contains("title"))
    }

    private func outcome(_ status: Int, _ body: String, failure: BackendError? = nil) -> EpisodeDayOutcome {
        EpisodeDayOutcome.of(.success(HTTPResponse(status: status, body: Array(body.utf8), failure: failure)), endpoint: "/api/episode_day")
    }

    @Test func answersBecomeOutboxDecisions() {
        #expect(outcome(200, #"{"ok":true}"#) == .accepted)
        #expect(outcome(200, #"{"ok":true,"duplicate":true}"#) == .accepted)
        #expect(outcome(200, #"{"ok":false,"error":"unknown episode","retryable":false}"#) == .dropped("unknown episode"))
        #expect(outcome(200, #"{"ok":false,"error":"busy","retryable":true}"#) == .keep("busy"))
        #expect(outcome(400, #"{"ok":false,"error":"bad action","retryable":false}"#) == .dropped("bad action"))
        #expect(outcome(404, "not here") == .dropped(BackendError.httpStatus(404, endpoint: "/api/episode_day").message))
        #expect(outcome(503, #"{"error":"restarting"}"#) == .keep("restarting"))
        #expect(outcome(500, "") == .keep(BackendError.httpStatus(500, endpoint: "/api/episode_day").message))
        #expect(outcome(401, "") == .keep(BackendError.httpStatus(401, endpoint: "/api/episode_day").message))
        #expect(outcome(429, #"{"error":"slow down"}"#) == .keep("slow down"))
        #expect(outcome(200, "<html>") == .keep(BackendError.badReply(endpoint: "/api/episode_day", detail: "no \"ok\" in the answer").message))
        let cut = BackendError.network(endpoint: "/api/episode_day", reason: "connection reset")
        #expect(outcome(200, "", failure: cut) == .keep(cut.message))
        #expect(EpisodeDayOutcome.of(.failure(.cannotConnect(host: "h:1", reason: "timed out")), endpoint: "/api/episode_day")
            == .keep(BackendError.cannotConnect(host: "h:1", reason: "timed out").message))
    }
}
