/// One line of the screen as runs of styled text.
///
/// Rendering makes it exactly as wide as asked (cut with `…` or padded by
/// display width) and makes the text safe to print: tabs and line breaks
/// become spaces and other control characters (ESC, C1 controls) become U+FFFD,
/// so text from the network can never move the cursor or inject a sequence.
public struct StyledLine: Hashable, Sendable, ExpressibleByStringLiteral {
    public struct Span: Hashable, Sendable {
        public var text: String
        public var style: Style

        public init(_ text: String, style: Style = .plain) {
            self.text = text
            self.style = style
        }
    }

    public var spans: [Span]
    /// The style of the blank cells that pad the line to full width: `.reverse`
    /// turns the line into a selection bar that spans the screen.
    public var fill: Style

    public init(_ spans: [Span] = [], fill: Style = .plain) {
        self.spans = spans
        self.fill = fill
    }

    public init(_ text: String, style: Style = .plain, fill: Style = .plain) {
        self.init([Span(text, style: style)], fill: fill)
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    public mutating func append(_ text: String, style: Style = .plain) {
        spans.append(Span(text, style: style))
    }

    /// `lhs` followed by the spans of `rhs`, keeping the fill of `lhs`.
    public static func + (lhs: StyledLine, rhs: StyledLine) -> StyledLine {
        StyledLine(lhs.spans + rhs.spans, fill: lhs.fill)
    }

    /// The text without styles, as it would be printed.
    public var text: String {
        spans.map { Self.sanitized($0.text) }.joined()
    }

    /// The columns the text takes before padding or cutting.
    public var width: Int {
        spans.reduce(0) { $0 + DisplayWidth.of(Self.sanitized($1.text)) }
    }

    /// The line as exactly `width` columns of text, with SGR sequences as far
    /// as `mode` allows, ending with the attributes reset.
    public func rendered(width: Int, mode: StyleMode) -> String {
        render(width: width, mode: mode, clearingPadding: false)
    }

    /// As `rendered(width:mode:)`, but padding that looks blank is replaced by
    /// erase-to-end-of-line (`ESC[K`), which also wipes what the previous frame
    /// left there. An empty line is just `ESC[K`.
    func renderedForScreen(width: Int, mode: StyleMode) -> String {
        render(width: width, mode: mode, clearingPadding: true)
    }

    private func render(width: Int, mode: StyleMode, clearingPadding: Bool) -> String {
        guard width > 0 else { return "" }
        let (pieces, padding) = layout(width: width)
        var output = ""
        var current = Style.plain
        func switchTo(_ style: Style) {
            let effective = style.effective(in: mode)
            guard effective != current else { return }
            output += effective.selectGraphicRendition
            current = effective
        }
        for piece in pieces where !piece.text.isEmpty {
            switchTo(piece.style)
            output += piece.text
        }
        if padding > 0 {
            if clearingPadding && fill.effective(in: mode).isInvisibleOnBlanks {
                // EL paints the current background: reset first so it clears to the default.
                switchTo(.plain)
                output += "\u{1B}[K"
            } else {
                switchTo(fill)
                output += String(repeating: " ", count: padding)
            }
        }
        if current != .plain { output += Style.plain.selectGraphicRendition }
        return output
    }

    /// The sanitised spans cut to `width` columns (the last one ending in `…`
    /// when anything was cut), and the columns of padding still needed.
    private func layout(width: Int) -> (pieces: [Span], padding: Int) {
        let clean = spans.map { Span(Self.sanitized($0.text), style: $0.style) }
        let total = clean.reduce(0) { $0 + DisplayWidth.of($1.text) }
        if total <= width { return (clean, width - total) }
        let budget = width - 1
        var used = 0
        var pieces: [Span] = []
        for span in clean {
            var kept = ""
            for character in span.text {
                let columns = DisplayWidth.of(character)
                if used + columns > budget {
                    pieces.append(Span(kept + "…", style: span.style))
                    return (pieces, width - used - 1)
                }
                kept.append(character)
                used += columns
            }
            pieces.append(Span(kept, style: span.style))
        }
        // Unreachable: the text is wider than `width`, so some character crosses the budget.
        return (pieces, max(0, width - used))
    }

    /// `text` with every control character replaced: tabs and line breaks by a
    /// space (CR LF by one), the rest by U+FFFD.
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { previousWasCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\n" where previousWasCarriageReturn:
                continue
            case "\t", "\n", "\r", "\u{0B}", "\u{0C}":
                result.append(" ")
            case _ where isControl(scalar):
                result.append("\u{FFFD}")
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
