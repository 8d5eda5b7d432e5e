import AliciaAudio
import AliciaJSON
import Testing
@testable import AliciaControl

/// The wire format: mpv's requests, replies and events, one JSON object a line.
@Suite struct IPCProtocolTests {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func aRequestCarriesItsIDAndCommand() throws {
        let request = try IPCRequest.parse(Array(#"{"command": ["seek", 30, "relative"], "request_id": 7}"#.utf8)).get()
        #expect(request.id == 7 && !request.isAsync && request.name == "seek")
        #expect(Array(request.arguments) == [.number(30), .string("relative")])
        let plain = try IPCRequest.parse(Array(#"{"command": ["get_property", "pause"], "async": true}"#.utf8)).get()
        #expect(plain.id == 0 && plain.isAsync)
    }

    @Test(arguments: [
        "[1, 2]", #"{"command": "seek"}"#, #"{"command": []}"#, #"{"command": [1]}"#,
        #"{"command": ["x"], "request_id": "a"}"#, #"{"command": ["x"], "request_id": 1.5}"#, #"{"command": ["x"], "async": 1}"#,
    ])
    func whatIsNotARequestIsAnInvalidParameter(_ line: String) {
        guard case .failure(let bad) = IPCRequest.parse(Array(line.utf8)) else {
            Issue.record("\(line) was taken for a request")
            return
        }
        #expect(bad.failure.error == .invalidParameter)
    }

    /// mpv's text command lines (`cycle pause`, umpv's `raw loadfile "F" append`): words, each a
    /// string argument, the display prefixes dropped; no reply unless they fail.
    @Test func aLineThatIsNotJSONIsATextCommand() throws {
        let cycle = try IPCRequest.parse(Array("cycle pause".utf8)).get()
        #expect(cycle.isText && cycle.command == [.string("cycle"), .string("pause")])
        let load = try IPCRequest.parse(Array(#"raw loadfile "/tmp/a b.wav" append"#.utf8)).get()
        #expect(load.command == [.string("loadfile"), .string("/tmp/a b.wav"), .string("append")])
        let comment = try IPCRequest.parse(Array("# nothing".utf8)).get()
        #expect(comment.command.isEmpty)
        guard case .failure(let bad) = IPCRequest.parse(Array(#"seek "10"#.utf8)) else {
            Issue.record("an unclosed quote was taken")
            return
        }
        #expect(bad.failure.error == .invalidParameter)
    }

    @Test func aBadRequestKeepsTheIDItCarried() {
        guard case .failure(let bad) = IPCRequest.parse(Array(#"{"command": "x", "request_id": 12}"#.utf8)) else {
            Issue.record("taken for a request")
            return
        }
        #expect(bad.id == 12)
    }

    @Test func repliesAndEventsAreOneLineEach() {
        #expect(text(IPCRequest.reply(id: 7, .success(.number(83.42)))) == #"{"request_id":7,"error":"success","data":83.42}"# + "\n")
        #expect(text(IPCRequest.reply(id: 0, .success(nil))) == #"{"request_id":0,"error":"success","data":null}"# + "\n")
        #expect(text(IPCRequest.reply(id: 3, .failure(IPCFailure(.propertyUnavailable)))) == #"{"request_id":3,"error":"property unavailable"}"# + "\n")
        #expect(text(IPCRequest.event("seek")) == #"{"event":"seek"}"# + "\n")
    }

    @Test func argumentsAreReadAsMpvReadsThem() {
        #expect(JSONValue.string("30").numberValue == 30)
        #expect(JSONValue.string(" -2.5 ").numberValue == -2.5)
        #expect(JSONValue.string("x").numberValue == nil)
        #expect(JSONValue.string("yes").flagValue == true && JSONValue.string("no").flagValue == false)
        #expect(JSONValue.number(1).flagValue == nil)
        #expect(JSONValue.number(3).stringValue == "3")
    }

    /// Regression: `["playlist-play-index", 1e300]` (and quit, observe ids, playlist-move) trapped
    /// converting the number to Int.
    @Test func integersBeyondWhatADoubleHoldsExactlyAreNoIndex() {
        #expect(JSONValue.number(3.7).integerValue == 3)
        #expect(JSONValue.string("-2").integerValue == -2)
        #expect(JSONValue.number(1e300).integerValue == nil)
        #expect(JSONValue.number(-9.3e18).integerValue == nil)
        #expect(JSONValue.string("x").integerValue == nil)
    }
}

/// The players' events as mpv's: the sequences a client sees.
@Suite struct EventTranslatorTests {
    let one = QueueEntryID(rawValue: 1)
    let two = QueueEntryID(rawValue: 2)
    let three = QueueEntryID(rawValue: 3)
    let format = AudioFormat(sampleRate: 48_000, channels: 2, sampleType: .int16, frames: 48_000)

    func names(_ events: [EventTranslator.Event]) -> [String] {
        events.map { event in
            let fields = event.fields.map { "\($0.key)=\($0.value)" }
            return ([event.name] + fields).joined(separator: " ")
        }
    }

    @Test func aQueuePlayedThroughSaysStartLoadedAndEndForEachItem() {
        var translator = EventTranslator()
        var said: [EventTranslator.Event] = []
        said += translator.translate(PlayerEvent(entry: one, kind: .entryStarted))
        said += translator.translate(PlayerEvent(entry: one, kind: .formatKnown(format)))
        // The next item opens ahead of the join, before it is heard.
        said += translator.translate(PlayerEvent(entry: two, kind: .formatKnown(format)))
        said += translator.translate(PlayerEvent(entry: one, kind: .ended(truncated: false)))
        said += translator.translate(PlayerEvent(entry: two, kind: .entryStarted))
        said += translator.translate(PlayerEvent(entry: two, kind: .ended(truncated: false)))
        said += translator.translate(PlayerEvent(entry: nil, kind: .queueEnded))
        #expect(names(said) == [
            "start-file playlist_entry_id=number(1.0)", "file-loaded", "playback-restart",
            "end-file reason=string(\"eof\") playlist_entry_id=number(1.0)",
            "start-file playlist_entry_id=number(2.0)", "file-loaded", "playback-restart",
            "end-file reason=string(\"eof\") playlist_entry_id=number(2.0)", "idle",
        ])
    }

    @Test func aJumpEndsTheItemWithStopAndAFailureWithError() {
        var translator = EventTranslator()
        _ = translator.translate(PlayerEvent(entry: one, kind: .entryStarted))
        let jumped = translator.translate(PlayerEvent(entry: two, kind: .entryStarted))
        #expect(names(jumped) == ["end-file reason=string(\"stop\") playlist_entry_id=number(1.0)", "start-file playlist_entry_id=number(2.0)"])
        let failed = translator.translate(PlayerEvent(entry: three, kind: .failed(.badLocation("x"))))
        #expect(failed.map(\.name) == ["end-file", "start-file", "end-file"])
        #expect(failed.last?.fields.contains { $0.key == "reason" && $0.value == .string("error") } == true)
        #expect(failed.last?.fields.contains { $0.key == "file_error" } == true)
        let seek = translator.translate(PlayerEvent(entry: three, kind: .seeked(toFrame: 10)))
        #expect(seek.map(\.name) == ["seek", "playback-restart"])
    }

    @Test func quittingEndsTheItemHeardWithQuit() {
        var translator = EventTranslator()
        #expect(translator.quit().isEmpty)
        _ = translator.translate(PlayerEvent(entry: one, kind: .entryStarted))
        #expect(names(translator.quit()) == ["end-file reason=string(\"quit\") playlist_entry_id=number(1.0)"])
    }

    @Test func voiceNotesSayStartAndEnd() {
        var translator = EventTranslator()
        var queue = PlayQueue()
        let note = queue.append(QueueItem(location: try! MediaLocation("/tmp/note.wav"), title: "Voice note · note.wav"))
        let started = translator.translateVoice(PlayerEvent(entry: note, kind: .entryStarted), queue: queue)
        #expect(names(started) == ["voice-start title=string(\"Voice note · note.wav\")"])
        let ended = translator.translateVoice(PlayerEvent(entry: note, kind: .ended(truncated: false)), queue: queue)
        #expect(names(ended) == ["voice-end title=string(\"Voice note · note.wav\") reason=string(\"eof\")"])
    }
}
