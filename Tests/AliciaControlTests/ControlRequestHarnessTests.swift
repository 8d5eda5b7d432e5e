import Testing
@testable import AliciaControl

/// The harness the `control-json` fuzz target drives: requests answered in order, a queue that
/// fills with entries that never play, and an empty queue again after `reset`.
@Suite struct ControlRequestHarnessTests {
    private func reply(_ harness: ControlRequestHarness, _ line: String) -> String {
        String(decoding: harness.handle(Array(line.utf8)) ?? [], as: UTF8.self)
    }

    @Test func loadfileQueuesAnEntryAndResetEmptiesTheQueue() {
        let harness = ControlRequestHarness()
        #expect(reply(harness, #"{"command":["loadfile","S11E04","append"],"request_id":1}"#).contains(#""error":"success""#))
        #expect(reply(harness, #"{"command":["get_property","playlist-count"],"request_id":2}"#)
            == #"{"request_id":2,"error":"success","data":1}"# + "\n")
        #expect(reply(harness, #"{"command":["playlist-play-index",1e300],"request_id":3}"#).contains("invalid parameter"))
        harness.reset()
        #expect(reply(harness, #"{"command":["get_property","playlist-count"],"request_id":4}"#)
            == #"{"request_id":4,"error":"success","data":0}"# + "\n")
        #expect(reply(harness, "garbage") == #"{"request_id":0,"error":"invalid parameter","message":"unknown command 'garbage'"}"# + "\n")
    }
}
