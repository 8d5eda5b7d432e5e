import Testing
@testable import AliciaTerminal

@Suite struct StyledLineTests {
    static let esc = "\u{1B}"

    @Test(arguments: [
        (StyledLine("abc"), 5, "abc  "),
        (StyledLine("abcdef"), 4, "abc…"),
        (StyledLine("日本語"), 5, "日本…"),
        (StyledLine("日本語"), 4, "日… "),
        (StyledLine(""), 3, "   "),
        (StyledLine("abc"), 0, ""),
        (StyledLine([.init("ab", style: .bold), .init("cd", style: .foreground(.red))]), 3, "ab…"),
        (StyledLine("tab\there, line\r\nbreak"), 20, "tab here, line break"),
        (StyledLine("bell\u{07} esc\u{1B}[31m csi\u{9B}"), 20, "bell� esc�[31m csi� "),
    ])
    func rendersPlainTextToExactWidth(line: StyledLine, width: Int, expected: String) {
        #expect(line.rendered(width: width, mode: .plain) == expected)
    }

    @Test func rendersStylesAndColours() {
        let line = StyledLine([.init("ab", style: .bold), .init("cd", style: .foreground(.red))])
        #expect(line.rendered(width: 6, mode: .color) == "\(Self.esc)[0;1mab\(Self.esc)[0;31mcd\(Self.esc)[0m  ")
    }

    @Test func monochromeKeepsAttributesAndDropsColours() {
        let line = StyledLine([
            .init("ab", style: .bold), .init("cd", style: .foreground(.red)),
            .init("ef", style: Style([.reverse, .underline], foreground: .cyan)),
        ])
        #expect(line.rendered(width: 6, mode: .monochrome)
            == "\(Self.esc)[0;1mab\(Self.esc)[0mcd\(Self.esc)[0;4;7mef\(Self.esc)[0m")
    }

    @Test func plainModeWritesNoEscapeAtAll() {
        let line = StyledLine(
            [.init("ab", style: Style([.bold, .reverse], foreground: .green)), .init("cd", style: .dim)],
            fill: .reverse
        )
        #expect(line.rendered(width: 8, mode: .plain) == "abcd    ")
    }

    @Test func aReverseFillMakesASelectionBar() {
        let line = StyledLine("track", style: .reverse, fill: .reverse)
        #expect(line.rendered(width: 8, mode: .color) == "\(Self.esc)[0;7mtrack   \(Self.esc)[0m")
        #expect(line.rendered(width: 8, mode: .monochrome) == "\(Self.esc)[0;7mtrack   \(Self.esc)[0m")
    }

    @Test func adjacentSpansInOneStyleShareOneSequence() {
        let line = StyledLine([.init("ab", style: .foreground(.cyan)), .init("cd", style: .foreground(.cyan))])
        #expect(line.rendered(width: 4, mode: .color) == "\(Self.esc)[0;36mabcd\(Self.esc)[0m")
    }

    @Test func theEllipsisTakesTheStyleOfTheCutSpan() {
        let line = StyledLine([.init("ab", style: .bold), .init("cdef", style: .foreground(.red))])
        #expect(line.rendered(width: 4, mode: .color) == "\(Self.esc)[0;1mab\(Self.esc)[0;31mc…\(Self.esc)[0m")
    }

    @Test(arguments: Style.Color.allCases)
    func everyColourHasItsCode(color: Style.Color) {
        let codes: [Style.Color: String] = [.red: "31", .green: "32", .yellow: "33", .magenta: "35", .cyan: "36", .gray: "90"]
        let rendered = StyledLine("x", style: .foreground(color)).rendered(width: 1, mode: .color)
        #expect(rendered == "\(Self.esc)[0;\(codes[color] ?? "?")mx\(Self.esc)[0m")
    }

    @Test func attributesCombine() {
        let style = Style.bold.with(.dim).with(.underline).with(.reverse).with(foreground: .yellow)
        #expect(StyledLine("x", style: style).rendered(width: 1, mode: .color) == "\(Self.esc)[0;1;2;4;7;33mx\(Self.esc)[0m")
    }

    @Test func screenRenderingClearsBlankPadding() {
        #expect(StyledLine("ab").renderedForScreen(width: 5, mode: .color) == "ab\(Self.esc)[K")
        #expect(StyledLine().renderedForScreen(width: 5, mode: .color) == "\(Self.esc)[K")
        #expect(StyledLine("abcde").renderedForScreen(width: 5, mode: .color) == "abcde")
        #expect(StyledLine("ab", style: .bold).renderedForScreen(width: 4, mode: .color)
            == "\(Self.esc)[0;1mab\(Self.esc)[0m\(Self.esc)[K")
        // A visible fill is written out, since EL would not draw it.
        #expect(StyledLine("ab", fill: .reverse).renderedForScreen(width: 4, mode: .color)
            == "ab\(Self.esc)[0;7m  \(Self.esc)[0m")
        #expect(StyledLine("ab", fill: .reverse).renderedForScreen(width: 4, mode: .plain) == "ab\(Self.esc)[K")
    }

    @Test func textAndWidthSeeWhatIsPrinted() {
        let line = StyledLine("a\tb", style: .bold) + StyledLine("日\u{1B}")
        #expect(line.text == "a b日\u{FFFD}")
        #expect(line.width == 6)
    }

    /// Whatever the text, mode and width, the printed columns are exactly the
    /// width asked for and every style is reset at the end.
    @Test(arguments: [StyleMode.color, .monochrome, .plain])
    func renderedWidthIsAlwaysExact(mode: StyleMode) {
        let pieces = ["", "a", "hello", "日本語", "😀👨‍👩‍👧", "e\u{301}", "tab\t", "\u{1B}[2J", "ｈｉ"]
        let styles: [Style] = [.plain, .bold, .reverse, .foreground(.magenta), Style([.dim, .underline], foreground: .gray)]
        var random = TestRandom(seed: 7)
        for _ in 0..<300 {
            let spans = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                StyledLine.Span(pieces.randomElement(using: &random) ?? "", style: styles.randomElement(using: &random) ?? .plain)
            }
            let line = StyledLine(spans, fill: styles.randomElement(using: &random) ?? .plain)
            let width = Int.random(in: 0...20, using: &random)
            let rendered = line.rendered(width: width, mode: mode)
            let visible = Self.withoutSGR(rendered)
            #expect(DisplayWidth.of(visible) == width, "\(line) at \(width)")
            #expect(!visible.contains("\u{1B}"))
            if mode == .plain { #expect(!rendered.contains("\u{1B}")) }
            // The last SGR written is a reset, so the next line starts plain.
            let lastSequence = rendered.split(separator: "\u{1B}", omittingEmptySubsequences: false).dropFirst().last
            #expect(lastSequence.map { $0.hasPrefix("[0m") } ?? true, "\(line) at \(width)")
        }
    }

    /// `text` without its SGR sequences (`ESC [ … m`).
    static func withoutSGR(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var inSequence = false
        for scalar in text.unicodeScalars {
            if inSequence {
                if scalar == "m" { inSequence = false }
            } else if scalar == "\u{1B}" {
                inSequence = true
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
