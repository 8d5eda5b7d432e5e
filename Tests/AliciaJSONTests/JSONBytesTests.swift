import Testing
@testable import AliciaJSON

/// JSON written byte by byte: what `episodes --json` writes, read back by the parser.
@Suite struct JSONBytesTests {
    @Test func membersEscapesAndNumbersReadBack() throws {
        var out = JSONBytes()
        out.beginObject()
        out.member("s", string: "a \"quote\", a \\ back\\slash,\n a tab\t and \u{1} and é")
        out.member("none", string: nil)
        out.member("i", integer: -42)
        out.member("min", integer: .min)
        out.member("big", integer: 9_007_199_254_740_993)
        out.member("n", number: 2.5)
        out.member("whole", number: 3)
        out.member("nan", number: .nan)
        out.member("t", bool: true)
        out.endObject()
        let text = String(decoding: out.bytes, as: UTF8.self)
        #expect(text.hasPrefix("{\"s\": \"a \\\"quote\\\", a \\\\ back\\\\slash,\\n a tab\\t and \\u0001 and é\", \"none\": null, \"i\": -42, "))
        #expect(text.contains("\"min\": -9223372036854775808, \"big\": 9007199254740993, \"n\": 2.5, \"whole\": 3, \"nan\": null, \"t\": true}"))
        let parsed = try #require(JSONValue(parsing: out.bytes))
        #expect(parsed["s"] == .string("a \"quote\", a \\ back\\slash,\n a tab\t and \u{1} and é"))
        #expect(parsed["i"] == .number(-42) && parsed["whole"] == .number(3) && parsed["t"] == .bool(true) && parsed["none"] == .null)
    }

    @Test func flushHandsOnTheTextAndStartsAgain() {
        var out = JSONBytes()
        out.raw("[1")
        var chunks: [String] = []
        out.flush { chunks.append($0) }
        out.raw("]")
        out.flush { chunks.append($0) }
        #expect(chunks == ["[1", "]"])
    }
}
