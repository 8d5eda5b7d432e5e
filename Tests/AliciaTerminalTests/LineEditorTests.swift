import Testing
@testable import AliciaTerminal

/// An editor's starting state, the keys pressed and what must result.
struct EditingCase: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var cursor: Int?
    var keys: [Key]
    var expectedText: String
    var expectedCursor: Int

    var testDescription: String { name }
}

@Suite struct LineEditorTests {
    static func typing(_ text: String) -> [Key] {
        text.unicodeScalars.map { .character(Character($0)) }
    }

    static let cases: [EditingCase] = [
        EditingCase(name: "typing", text: "", keys: typing("hello"), expectedText: "hello", expectedCursor: 5),
        EditingCase(name: "typing é and emoji", text: "", keys: typing("é😀"), expectedText: "é😀", expectedCursor: 2),
        EditingCase(name: "ZWJ sequence typed scalar by scalar is one character", text: "a", keys: typing("👨‍👩‍👧"),
                    expectedText: "a👨‍👩‍👧", expectedCursor: 2),
        EditingCase(name: "combining mark joins the letter before", text: "", keys: typing("e\u{301}x"),
                    expectedText: "e\u{301}x", expectedCursor: 2),
        EditingCase(name: "insert in the middle", text: "hd", cursor: 1, keys: typing("ello worl"),
                    expectedText: "hello world", expectedCursor: 10),
        EditingCase(name: "backspace", text: "abc", keys: [.backspace], expectedText: "ab", expectedCursor: 2),
        EditingCase(name: "backspace removes a whole emoji", text: "a👨‍👩‍👧", keys: [.backspace], expectedText: "a", expectedCursor: 1),
        EditingCase(name: "backspace at the start", text: "abc", cursor: 0, keys: [.backspace], expectedText: "abc", expectedCursor: 0),
        EditingCase(name: "delete", text: "abc", cursor: 1, keys: [.delete], expectedText: "ac", expectedCursor: 1),
        EditingCase(name: "delete at the end", text: "abc", keys: [.delete], expectedText: "abc", expectedCursor: 3),
        EditingCase(name: "left and right stop at the ends", text: "ab", keys: [.left, .left, .left, .right],
                    expectedText: "ab", expectedCursor: 1),
        EditingCase(name: "right stops at the end", text: "ab", keys: [.right], expectedText: "ab", expectedCursor: 2),
        EditingCase(name: "home and end", text: "abc", keys: [.home], expectedText: "abc", expectedCursor: 0),
        EditingCase(name: "end", text: "abc", cursor: 1, keys: [.end], expectedText: "abc", expectedCursor: 3),
        EditingCase(name: "ctrl-a and ctrl-e", text: "abc", keys: [.control("a"), .character(">"), .control("e"), .character("<")],
                    expectedText: ">abc<", expectedCursor: 5),
        EditingCase(name: "ctrl-b and ctrl-f", text: "abc", keys: [.control("b"), .control("b"), .control("f")],
                    expectedText: "abc", expectedCursor: 2),
        EditingCase(name: "ctrl-u at the end clears", text: "hello world", keys: [.control("u")], expectedText: "", expectedCursor: 0),
        EditingCase(name: "ctrl-u in the middle keeps the rest", text: "hello world", cursor: 6, keys: [.control("u")],
                    expectedText: "world", expectedCursor: 0),
        EditingCase(name: "ctrl-k", text: "hello world", cursor: 5, keys: [.control("k")], expectedText: "hello", expectedCursor: 5),
        EditingCase(name: "ctrl-w deletes the last word", text: "hello big world", keys: [.control("w")],
                    expectedText: "hello big ", expectedCursor: 10),
        EditingCase(name: "ctrl-w takes trailing spaces with the word", text: "hello world  ", keys: [.control("w")],
                    expectedText: "hello ", expectedCursor: 6),
        EditingCase(name: "ctrl-w twice", text: "one two three", keys: [.control("w"), .control("w")],
                    expectedText: "one ", expectedCursor: 4),
        EditingCase(name: "ctrl-w in the middle of a word", text: "hello world", cursor: 8, keys: [.control("w")],
                    expectedText: "hello rld", expectedCursor: 6),
        EditingCase(name: "ctrl-w at the start", text: "abc", cursor: 0, keys: [.control("w")], expectedText: "abc", expectedCursor: 0),
        EditingCase(name: "ctrl-w keeps punctuation in the word", text: "see http://x.y/z", keys: [.control("w")],
                    expectedText: "see ", expectedCursor: 4),
        EditingCase(name: "paste", text: "ab", cursor: 1, keys: [.paste("XY")], expectedText: "aXYb", expectedCursor: 3),
        EditingCase(name: "paste keeps one line", text: "", keys: [.paste("one\ntwo\r\nthree\tfour\u{1B}[A")],
                    expectedText: "one two three four[A", expectedCursor: 20),
        EditingCase(name: "keys the editor leaves alone", text: "ab", keys: [.enter, .escape, .up, .down, .tab, .control("d")],
                    expectedText: "ab", expectedCursor: 2),
    ]

    @Test(arguments: cases)
    func edits(_ example: EditingCase) {
        var editor = LineEditor(text: example.text, cursor: example.cursor)
        for key in example.keys { _ = editor.handle(key) }
        #expect(editor.text == example.expectedText)
        #expect(editor.cursor == example.expectedCursor)
    }

    @Test(arguments: [
        (Key.enter, false), (.escape, false), (.up, false), (.pageDown, false), (.tab, false), (.control("c"), false),
        (.control("d"), false), (.alt("x"), false), (.character("x"), true), (.backspace, true), (.control("w"), true),
        (.paste("x"), true), (.home, true),
    ])
    func reportsWhichKeysItHandles(key: Key, handled: Bool) {
        var editor = LineEditor(text: "abc")
        #expect(editor.handle(key) == handled)
    }

    @Test func initClampsTheCursorAndCleansTheText() {
        #expect(LineEditor(text: "abc", cursor: 99).cursor == 3)
        #expect(LineEditor(text: "abc", cursor: -4).cursor == 0)
        #expect(LineEditor(text: "a\nb").text == "a b")
        var editor = LineEditor(text: "abc")
        editor.clear()
        #expect(editor.isEmpty && editor.cursor == 0)
    }

    @Test(arguments: [
        ("hello", 5, 10, "hello", 5),
        ("hello", 0, 10, "hello", 0),
        ("hello", 5, 6, "hello", 5),
        // The cursor past the end needs a cell of its own.
        ("hello", 5, 5, "…llo", 4),
        ("hello", 4, 5, "hello", 4),
        ("hello world", 11, 8, "… world", 7),
        ("hello world", 0, 8, "hello w…", 0),
        ("hello world", 5, 8, "hello w…", 5),
        ("hello world", 8, 8, "…lo wor…", 6),
        ("日本語テキスト", 7, 8, "…キスト", 7),
        ("日本語テキスト", 0, 8, "日本語…", 0),
        ("日本語テキスト", 3, 8, "…本語テ…", 5),
        // Narrow fields drop the marks.
        ("hello", 5, 3, "lo", 2),
        ("hello", 2, 1, "l", 0),
        ("日本", 1, 1, "", 0),
        ("abc", 1, 0, "", 0),
    ])
    func showsAWindowAroundTheCursor(text: String, cursor: Int, width: Int, expected: String, column: Int) {
        let visible = LineEditor(text: text, cursor: cursor).visible(width: width)
        #expect(visible.text == expected)
        #expect(visible.cursorColumn == column)
    }

    /// For every text, cursor and width: the window fits, the cursor column is
    /// inside it, the character under the cursor is shown at that column, and
    /// the text just before the cursor is shown just before it.
    @Test(arguments: ["", "a", "hello world", "日本語のテキスト", "a😀b👨‍👩‍👧c", "e\u{301}e\u{301}e\u{301}", "ｈｅｌｌｏ ｗｏｒｌｄ"])
    func theWindowAlwaysHoldsTheCursor(text: String) {
        let characters = Array(text)
        for cursor in 0...characters.count {
            for width in 1...20 {
                let editor = LineEditor(text: text, cursor: cursor)
                let visible = editor.visible(width: width)
                let label = "cursor \(cursor) width \(width): \(visible)"
                #expect(DisplayWidth.of(visible.text) <= width, "\(label)")
                #expect(visible.cursorColumn >= 0 && visible.cursorColumn < width, "\(label)")
                if visible.text.isEmpty { continue }
                let shown = Array(visible.text)
                var column = 0
                var index = 0
                while index < shown.count && column < visible.cursorColumn {
                    column += DisplayWidth.of(shown[index])
                    index += 1
                }
                #expect(column == visible.cursorColumn, "\(label)")
                if cursor < characters.count {
                    #expect(index < shown.count && shown[index] == characters[cursor], "\(label)")
                    #expect(visible.cursorColumn + DisplayWidth.of(characters[cursor]) <= width, "\(label)")
                }
                if cursor > 0 && index > 0 && shown[index - 1] != "…" {
                    #expect(shown[index - 1] == characters[cursor - 1], "\(label)")
                }
            }
        }
    }
}
