import Testing
@testable import AliciaTerminal

@Suite struct ScreenTests {
    static let esc = "\u{1B}"
    static let clear = "\u{1B}[0m\u{1B}[H\u{1B}[2J"
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"

    static let frame: [StyledLine] = ["title", "", "row three", StyledLine("status", style: .reverse, fill: .reverse)]

    @Test func theFirstFrameClearsAndDrawsEveryNonBlankRow() {
        var screen = Screen(styleMode: .color)
        let output = screen.render(Self.frame, columns: 10, rows: 4)
        #expect(output == Self.hideCursor + Self.clear
            + "\(Self.esc)[1;1Htitle\(Self.esc)[K"
            + "\(Self.esc)[3;1Hrow three\(Self.esc)[K"
            + "\(Self.esc)[4;1H\(Self.esc)[0;7mstatus    \(Self.esc)[0m")
    }

    @Test func anUnchangedFrameWritesNothing() {
        var screen = Screen(styleMode: .color)
        _ = screen.render(Self.frame, columns: 10, rows: 4)
        #expect(screen.render(Self.frame, columns: 10, rows: 4) == "")
        #expect(screen.render(Self.frame, columns: 10, rows: 4) == "")
    }

    @Test func oneChangedRowWritesOnlyThatRow() {
        var screen = Screen(styleMode: .color)
        _ = screen.render(Self.frame, columns: 10, rows: 4)
        var next = Self.frame
        next[2] = "row 3"
        #expect(screen.render(next, columns: 10, rows: 4) == "\(Self.esc)[3;1Hrow 3\(Self.esc)[K")
    }

    @Test func aStyleChangeAloneRedrawsTheRow() {
        var screen = Screen(styleMode: .color)
        _ = screen.render(["a", "b"], columns: 4, rows: 2)
        #expect(screen.render(["a", StyledLine("b", style: .bold)], columns: 4, rows: 2)
            == "\(Self.esc)[2;1H\(Self.esc)[0;1mb\(Self.esc)[0m\(Self.esc)[K")
    }

    @Test func aRowThatEmptiesIsErased() {
        var screen = Screen(styleMode: .color)
        _ = screen.render(["a", "b"], columns: 4, rows: 2)
        #expect(screen.render(["a"], columns: 4, rows: 2) == "\(Self.esc)[2;1H\(Self.esc)[K")
    }

    @Test(arguments: [(10, 5), (12, 4), (8, 4)])
    func aResizeRedrawsEverything(columns: Int, rows: Int) {
        var screen = Screen(styleMode: .color)
        _ = screen.render(Self.frame, columns: 10, rows: 4)
        let output = screen.render(Self.frame, columns: columns, rows: rows)
        #expect(output.hasPrefix(Self.hideCursor + Self.clear))
        for row in [1, 3, 4] { #expect(output.contains("\(Self.esc)[\(row);1H")) }
    }

    @Test func invalidateRedrawsEverything() {
        var screen = Screen(styleMode: .color)
        let first = screen.render(Self.frame, columns: 10, rows: 4)
        screen.invalidate()
        #expect(screen.render(Self.frame, columns: 10, rows: 4) == first)
    }

    @Test func linesBeyondTheScreenAreDropped() {
        var screen = Screen(styleMode: .plain)
        let output = screen.render(["one", "two", "three"], columns: 5, rows: 2)
        #expect(!output.contains("three"))
        #expect(!output.contains("\(Self.esc)[3;1H"))
    }

    @Test func anEmptyScreenWritesNothingAndForgets() {
        var screen = Screen(styleMode: .color)
        _ = screen.render(Self.frame, columns: 10, rows: 4)
        #expect(screen.render(Self.frame, columns: 0, rows: 4) == "")
        #expect(screen.render(Self.frame, columns: 10, rows: 4).hasPrefix(Self.hideCursor + Self.clear))
    }

    @Test func theCursorIsShownWhereAsked() {
        var screen = Screen(styleMode: .color)
        let first = screen.render(["> hi"], columns: 6, rows: 2, cursor: (row: 0, column: 4))
        #expect(first.hasSuffix("\(Self.esc)[1;5H" + Self.showCursor))
        // Nothing changed: nothing written.
        #expect(screen.render(["> hi"], columns: 6, rows: 2, cursor: (row: 0, column: 4)) == "")
        // Only the cursor moved.
        #expect(screen.render(["> hi"], columns: 6, rows: 2, cursor: (row: 0, column: 2)) == "\(Self.esc)[1;3H")
        // A row changed: the cursor hides while it is drawn, then comes back.
        #expect(screen.render(["> hiya"], columns: 6, rows: 2, cursor: (row: 0, column: 6))
            == Self.hideCursor + "\(Self.esc)[1;1H> hiya" + "\(Self.esc)[1;6H" + Self.showCursor)
        // No cursor asked for: hidden.
        #expect(screen.render(["> hiya"], columns: 6, rows: 2) == Self.hideCursor)
        #expect(screen.render(["> hiya"], columns: 6, rows: 2) == "")
    }

    /// Replaying the diffs of random frames on a virtual terminal always gives
    /// the last frame, nothing ever goes past the last column, and no sequence
    /// other than the expected few is written.
    @Test(arguments: 0..<10)
    func diffsReplayToTheLastFrame(seed: Int) {
        var random = TestRandom(seed: UInt64(seed))
        let texts = ["", "a", "hello world", "日本語のテキスト", "😀 👨‍👩‍👧 🇫🇷", "e\u{301}", "ｆｕｌｌ", "x\ty", String(repeating: "-", count: 40)]
        let styles: [Style] = [.plain, .bold, .reverse, .foreground(.cyan)]
        var screen = Screen(styleMode: .color)
        var columns = 20
        var rows = 5
        var terminal = VirtualTerminal(columns: columns, rows: rows)
        for step in 0..<60 {
            if Int.random(in: 0..<10, using: &random) == 0 {
                columns = Int.random(in: 1...30, using: &random)
                rows = Int.random(in: 1...8, using: &random)
                terminal = VirtualTerminal(columns: columns, rows: rows)
            }
            let lines = (0..<Int.random(in: 0...rows + 1, using: &random)).map { _ in
                StyledLine(
                    texts.randomElement(using: &random) ?? "", style: styles.randomElement(using: &random) ?? .plain,
                    fill: styles.randomElement(using: &random) ?? .plain
                )
            }
            terminal.apply(screen.render(lines, columns: columns, rows: rows))
            let expected = (0..<rows).map { row in
                row < lines.count ? StyledLineTests.withoutSGR(lines[row].rendered(width: columns, mode: .plain)) : String(repeating: " ", count: columns)
            }
            #expect(terminal.lines == expected, "step \(step)")
            #expect(terminal.overflows == 0, "step \(step)")
            #expect(terminal.unknownSequences == [], "step \(step)")
            #expect(!terminal.cursorVisible)
        }
    }
}
