import AliciaJSON
import Testing
@testable import AliciaBackend

/// Ids as opaque text (Alicia 2.0): a string or a number in, the same kind out.
@Suite struct OpaqueIDTests {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSON.decode(type, from: Array(json.utf8))
    }

    private func encode(_ value: some Encodable) throws -> String {
        String(decoding: try JSON.encode(value), as: UTF8.self)
    }

    @Test(arguments: [("\"pm-77\"", "pm-77", false), ("77", "77", true), ("77.0", "77", true), ("-3", "-3", true), ("1.5", "1.5", true),
                      ("\"77\"", "77", false)])
    func decodesAStringOrANumber(json: String, text: String, isNumber: Bool) throws {
        let id = try decode(OpaqueID.self, json)
        #expect(id.text == text && id.isNumber == isNumber)
    }

    @Test func encodesBackAsItCame() throws {
        #expect(try encode(decode([OpaqueID].self, #"[77,"pm-77","78"]"#)) == #"[77,"pm-77","78"]"#)
        #expect(try encode(OpaqueID(101)) == "101")
        #expect(OpaqueID(77) == OpaqueID("77"), "the same text names the same message")
        #expect(OpaqueID(77).integer == 77 && OpaqueID("77").integer == nil)
    }

    @Test(arguments: ["true", "null", "{}", "[1]"])
    func anythingElseIsNotAnID(json: String) {
        #expect(throws: DecodingError.self) { try decode(OpaqueID.self, json) }
    }

    @Test func proactiveMessagesDecodeInBothDialects() throws {
        let old = #"[{"id": 318, "date": "2025-06-12T07:41:00Z", "text": "Good morning!", "kind": "greeting", "archetype": "companion"}]"#
        let new = #"[{"id": "pm-77", "date": "2026-09-01T08:00:00Z", "text": "How did it go?", "is_ask": true, "priority": 3, "links": [1]},"#
            + #" {"id": "pm-76", "text": "Just a thought."}]"#
        let v1 = try decode([ProactiveMessage].self, old)
        #expect(v1 == [ProactiveMessage(id: 318, date: "2025-06-12T07:41:00Z", text: "Good morning!", kind: "greeting", archetype: "companion")])
        #expect(v1[0].id.isNumber && !v1[0].isAsk)
        let v2 = try decode([ProactiveMessage].self, new)
        #expect(v2.map(\.id) == ["pm-77", "pm-76"] && v2.map(\.isAsk) == [true, false])
        #expect(v2[1].date == "" && v2[1].kind == nil)
    }
}

@Suite struct UUIDv4Tests {
    @Test func randomBytesBecomeAVersion4UUID() {
        let uuid = UUIDv4(randomBytes: Array(repeating: 0xFF, count: 16))
        #expect(uuid.text == "ffffffff-ffff-4fff-bfff-ffffffffffff")
        #expect(UUIDv4(randomBytes: Array(0..<16)).text == "00010203-0405-4607-8809-0a0b0c0d0e0f")
    }

    @Test func newOnesAreWellFormedAndDiffer() {
        let many = (0..<64).map { _ in UUIDv4() }
        #expect(Set(many).count == 64)
        for uuid in many {
            let characters = Array(uuid.text)
            #expect(characters.count == 36 && characters[14] == "4" && "89ab".contains(characters[19]), "\(uuid)")
            #expect(UUIDv4(uuid.text) == uuid)
        }
    }

    @Test(arguments: ["", "not-a-uuid", "ffffffff-ffff-4fff-bfff-fffffffffff", "ffffffff-ffff-4fff-bfff-fffffffffffg", "ffffffffxffff-4fff-bfff-ffffffffffff"])
    func badTextIsNotAUUID(text: String) {
        #expect(UUIDv4(text) == nil)
    }
}

@Suite struct ISO8601UTCTests {
    @Test func formatsWithGmtime() {
        #expect(ISO8601UTC.format(0) == "1970-01-01T00:00:00Z")
        #expect(ISO8601UTC.format(1_796_615_626) == "2026-12-07T03:53:46Z")
        #expect(ISO8601UTC.day(1_796_615_626) == "2026-12-07")
        #expect(ISO8601UTC.now() > 1_700_000_000)
    }

    @Test(arguments: [("2026-12-07T03:53:46Z", 1_796_615_626.0), ("2026-12-07T03:53:46.250Z", 1_796_615_626.25),
                      ("2026-12-07T05:53:46+02:00", 1_796_615_626.0), ("2026-12-07 03:53:46", 1_796_615_626.0),
                      ("2026-12-06T22:53:46-0500", 1_796_615_626.0)])
    func parses(text: String, seconds: Double) {
        #expect(ISO8601UTC.parse(text) == seconds)
    }

    @Test(arguments: ["", "2026-12-07", "2026-13-07T03:53:46Z", "2026-12-07T03:53:46Q", "2026-12-07T03:53:46+2", "2026-12-07T03:53:46.Z"])
    func refusesTheRest(text: String) {
        #expect(ISO8601UTC.parse(text) == nil)
    }
}
