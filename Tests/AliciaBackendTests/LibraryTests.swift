import AliciaJSON
import FoundationEssentials
import Testing
@testable import AliciaBackend

@Suite struct EpisodeDecodingTests {
    @Test func theContractsExampleDecodes() throws {
        let json = """
            [{"title": "The Long Way Round", "mood": "Reflective · slow", "duration": 1834.5,
              "symbol": "waveform", "fileName": "/api/audio/s11e04.wav",
              "season": 11, "episode": 4, "label": "S11E04", "series": "Alicia",
              "collection": "S11", "collectionTitle": "Season 11"}]
            """
        let episodes = try JSON.decode([Episode].self, from: json.utf8)
        #expect(episodes == [Episode(title: "The Long Way Round", mood: "Reflective · slow", duration: 1834.5,
                                     fileName: "/api/audio/s11e04.wav", season: 11, episode: 4, label: "S11E04",
                                     series: "Alicia", collection: "S11", collectionTitle: "Season 11")])
    }

    @Test func missingOptionalFieldsTakeTheContractsDefaults() throws {
        let json = #"[{"title": "Draft", "mood": "", "duration": 0, "symbol": "mic"}, {"title": "Two", "mood": "m", "duration": 1, "symbol": "s", "season": 3}]"#
        let episodes = try JSON.decode([Episode].self, from: json.utf8)
        #expect(episodes[0].collection == "S0")
        #expect(episodes[0].collectionTitle == "Season 0")
        #expect(!episodes[0].hasAudio)
        #expect(episodes[1].collection == "S3")
        #expect(episodes[1].collectionTitle == "Season 3")
    }

    @Test func aMissingTitleIsDescribed() {
        let json = #"[{"mood": "", "duration": 0, "symbol": "mic"}]"#
        do {
            _ = try JSON.decode([Episode].self, from: json.utf8)
            Issue.record("decoded without a title")
        } catch {
            #expect(BackendClient.describe(error) == "\"title\" is missing at [0]")
        }
    }
}

@Suite struct LibraryTests {
    static let episodes = [
        Episode(title: "Morning Light", fileName: "/a/1.wav", season: 1, episode: 1, label: "S1E01", collection: "S1", collectionTitle: "Season 1"),
        Episode(title: "Slow Tide", fileName: "/a/n1.wav", label: "NIGHTS-1", collection: "NIGHTS", collectionTitle: "Nights"),
        Episode(title: "The Long Way Round", fileName: "/a/2.wav", season: 1, episode: 2, label: "S1E02", collection: "S1", collectionTitle: "Season 1"),
        Episode(title: "The Long Night", label: "NIGHTS-2", collection: "NIGHTS", collectionTitle: "Nights"),
    ]

    @Test func groupsByCollectionInTheBackendsOrder() {
        let library = Library(Self.episodes)
        #expect(library.shelves.map(\.title) == ["Season 1", "Nights"])
        #expect(library.entries.map(\.episode.label) == ["S1E01", "S1E02", "NIGHTS-1", "NIGHTS-2"])
        #expect(library.entries.map(\.index) == [1, 2, 3, 4])
    }

    @Test(arguments: [("s1e02", "S1E02"), ("S1E01", "S1E01"), ("3", "NIGHTS-1"), ("tide", "NIGHTS-1"), ("long way", "S1E02"), ("nights-2", "NIGHTS-2")])
    func resolves(reference: String, label: String) {
        guard case .found(let entry) = Library(Self.episodes).resolve(reference) else {
            Issue.record("\(reference) did not resolve")
            return
        }
        #expect(entry.episode.label == label)
    }

    @Test func anAmbiguousPieceListsTheCandidates() {
        guard case .ambiguous(let candidates) = Library(Self.episodes).resolve("the long") else {
            Issue.record("not ambiguous")
            return
        }
        #expect(candidates.map(\.episode.label) == ["S1E02", "NIGHTS-2"])
    }

    @Test func anUnknownReferenceIsNotFound() {
        guard case .notFound(let suggestions) = Library(Self.episodes).resolve("zebra") else {
            Issue.record("found something")
            return
        }
        #expect(suggestions.count == 4)
        #expect(Library([]).resolve("x") == .notFound(suggestions: []))
    }

    /// Read back by Foundation's parser: the output is JSON to any reader, not just to cJSON.
    @Test func jsonForScriptsHasNoTokenAndEveryField() throws {
        let text = Library(Self.episodes).json()
        let decoded = try JSONDecoder().decode([[String: JSONValue]].self, from: Data(text.utf8))
        #expect(decoded.count == 4)
        #expect(decoded[0]["label"] == .string("S1E01"))
        #expect(decoded[0]["hasAudio"] == .bool(true))
        #expect(decoded[3]["hasAudio"] == .bool(false))
        #expect(decoded[2]["index"] == .number(3))
    }
}

/// Enough of JSON to look at the output of `json()`.
enum JSONValue: Decodable, Equatable {
    case string(String), number(Double), bool(Bool), null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else { self = .string(try container.decode(String.self)) }
    }
}

@Suite struct MarkdownTextTests {
    @Test func rendersShowNotesAsPlainText() {
        let markdown = "# Morning Light\n\nA **warm** start with `chords`.\n\n- one [link](http://x)\n  * nested\n"
        #expect(MarkdownText.plain(markdown) == "Morning Light\n\nA warm start with chords.\n\n• one link (http://x)\n  • nested\n")
    }

    @Test(arguments: [("*Morning Light* is ready.", "Morning Light is ready."), ("snake_case and 2 * 3", "snake_case and 2 * 3"),
                      ("_soft_, then loud", "soft, then loud")])
    func stripsSingleEmphasisOnly(text: String, expected: String) {
        #expect(MarkdownText.plain(text) == expected)
    }

    @Test("on a terminal: bold, italic, code and links as attributes, every span closed on its line")
    func rendersWithTerminalAttributes() {
        let marks = MarkdownText.Marks.terminal
        let styled = MarkdownText.rendered("# Hi\nA **warm** *soft* `code` [link](http://x)\n- **open", marks: marks)
        let lines = styled.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "\u{1B}[1mHi\u{1B}[22m")
        #expect(lines[1] == "A \u{1B}[1mwarm\u{1B}[22m \u{1B}[3msoft\u{1B}[23m \u{1B}[7mcode\u{1B}[27m \u{1B}[4mlink\u{1B}[24m \u{1B}[2m(http://x)\u{1B}[22m")
        // A reply cut off inside a span: the attribute is off again at the line's end.
        #expect(lines[2] == "• \u{1B}[1mopen\u{1B}[22m")
        #expect(!styled.contains("**") && !styled.contains("`"))
        #expect(MarkdownText.rendered("snake_case and 2 * 3", marks: marks) == "snake_case and 2 * 3")
    }
}
