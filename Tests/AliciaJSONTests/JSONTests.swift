import FoundationEssentials
import Testing
@testable import AliciaJSON

/// A shape with every kind of member the API uses, nested.
private struct Sample: Codable, Equatable {
    struct Part: Codable, Equatable {
        var name: String
        var weight: Double
        var tags: [String]
    }

    enum Kind: String, Codable { case episode, note }

    var title: String
    var count: Int
    var big: Int64
    var small: UInt8
    var ratio: Float
    var flag: Bool
    var kind: Kind
    var missing: String?
    var present: Int?
    var parts: [Part]
    var table: [String: [Int]]
    var nothing: [Int?]
}

private let sample = Sample(
    title: "Ünïcode \"quoted\" \\ back/slash\ttab\nline 🎧",
    count: -42, big: 9_007_199_254_740_992, small: 255, ratio: 0.25, flag: true, kind: .note,
    missing: nil, present: 7,
    parts: [.init(name: "a", weight: 1.5, tags: []), .init(name: "b", weight: -0.001, tags: ["x", "y/z"])],
    table: ["one": [1], "none": []],
    nothing: [nil, 3, nil])

@Suite struct JSONRoundTripTests {
    @Test func ourOutputReadsBackInFoundationsDecoder() throws {
        let text = try JSON.encode(sample)
        #expect(try JSONDecoder().decode(Sample.self, from: Data(text)) == sample)
    }

    @Test func foundationsOutputReadsBackInOurDecoder() throws {
        let text = try JSONEncoder().encode(sample)
        #expect(try JSON.decode(Sample.self, from: Array(text)) == sample)
    }

    @Test func theIndentedLayoutIsTheSameDocument() throws {
        let indented = try JSON.encode(sample, layout: .indented)
        #expect(indented.contains(UInt8(ascii: "\n")))
        #expect(try JSON.decode(Sample.self, from: indented) == sample)
    }

    @Test func keysAreSortedNilsLeftOutAndSlashesKeptAsTheyAre() throws {
        struct Small: Encodable { var b = "x/y"; var a = 1; var c: Int? = nil; var d = [2.5] }
        #expect(String(decoding: try JSON.encode(Small()), as: UTF8.self) == #"{"a":1,"b":"x/y","d":[2.5]}"#)
    }

    @Test func aValueThatEncodesNothingIsAnEmptyObject() throws {
        struct Empty: Encodable {}
        #expect(String(decoding: try JSON.encode(Empty()), as: UTF8.self) == "{}")
        #expect(String(decoding: try JSON.encode([Int]()), as: UTF8.self) == "[]")
    }

    @Test func aKeyGivenTwiceKeepsItsFirstValue() throws {
        #expect(try JSON.decode([String: Int].self, from: #"{"a": 1, "a": 2}"#.utf8) == ["a": 1])
    }

    /// Regression: cJSON's own number printing wrote 2^53 as 9.00719925474099e+15.
    @Test(arguments: [9_007_199_254_740_992, 0.1 + 0.2, 1e-7, -1e300, 123_456_789.123_456_7])
    func numbersPrintExactly(number: Double) throws {
        #expect(try JSON.decode(Double.self, from: try JSON.encode(number)) == number)
        #expect(try JSONDecoder().decode(Double.self, from: Data(try JSON.encode(number))) == number)
    }

    @Test func integersPrintWithoutAFraction() throws {
        #expect(String(decoding: try JSON.encode([0, -7, 1_000_000_000_000]), as: UTF8.self) == "[0,-7,1000000000000]")
    }

    @Test func integersAreExactUpToTwoToTheFiftyThird() throws {
        #expect(try JSON.decode(Int.self, from: "9007199254740992".utf8) == 9_007_199_254_740_992)
        #expect(try JSON.decode(Int.self, from: "-3e2".utf8) == -300)
    }
}

@Suite struct JSONErrorTests {
    /// The error `JSON.decode` throws for `text`, or nil when it decodes.
    private func error<T: Decodable>(_ type: T.Type, _ text: String) -> DecodingError? {
        do {
            _ = try JSON.decode(type, from: text.utf8)
            return nil
        } catch {
            return error
        }
    }

    private func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }

    @Test(arguments: ["", "{", #"{"a": 1} x"#, "[1, 2", "nul", #"{"a": }"#, "\u{0}"])
    func textThatIsNotOneJSONDocumentIsCorrupt(text: String) {
        guard case .dataCorrupted(let context)? = error([String: Int].self, text) else {
            Issue.record("\(text.debugDescription) was not refused as corrupt")
            return
        }
        #expect(context.codingPath.isEmpty)
    }

    @Test func trailingWhitespaceIsFine() throws {
        #expect(try JSON.decode([Int].self, from: "[1]\n \t".utf8) == [1])
    }

    @Test func aMissingKeyIsNamedWithItsPath() {
        struct Item: Decodable { var title: String }
        guard case .keyNotFound(let key, let context)? = error([Item].self, #"[{"title": "a"}, {}]"#) else {
            Issue.record("no keyNotFound")
            return
        }
        #expect(key.stringValue == "title")
        #expect(path(context) == "[1]")
    }

    @Test func aValueOfTheWrongKindIsATypeMismatchAtItsPath() {
        struct Item: Decodable { var duration: Double }
        guard case .typeMismatch(let type, let context)? = error([Item].self, #"[{"duration": 1}, {"duration": "long"}]"#) else {
            Issue.record("no typeMismatch")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Double.self))
        #expect(path(context) == "[1].duration")
    }

    @Test func nullWhereAValueMustBeIsValueNotFound() {
        struct Item: Decodable { var title: String }
        guard case .valueNotFound(_, let context)? = error(Item.self, #"{"title": null}"#) else {
            Issue.record("no valueNotFound")
            return
        }
        #expect(path(context) == ".title")
    }

    @Test(arguments: ["1.5", "256", "-1", "1e300"])
    func aNumberThatDoesNotFitIsCorrupt(text: String) {
        guard case .dataCorrupted? = error(UInt8.self, text) else {
            Issue.record("\(text) fit in a UInt8")
            return
        }
    }

    @Test func anArrayTooShortSaysSo() {
        struct Pair: Decodable {
            var first: Int
            var second: Int
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                first = try container.decode(Int.self)
                second = try container.decode(Int.self)
            }
        }
        guard case .valueNotFound(_, let context)? = error(Pair.self, "[1]") else {
            Issue.record("a one-element array made a pair")
            return
        }
        #expect(path(context) == "[1]")
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func numbersJSONCannotHoldAreRefused(number: Double) {
        #expect(throws: EncodingError.self) { try JSON.encode(["x": number]) }
    }
}
