/// Show notes and chat replies for a terminal: headings, emphasis and code marks turned into
/// `Marks` (nothing for plain text, SGR attributes on a terminal), bullets drawn, links shown as
/// `text (url)`.
public enum MarkdownText {
    /// What stands where a Markdown mark was: each pair opens and closes one kind of span.
    public struct Marks: Sendable, Equatable {
        public var bold: (on: String, off: String)
        public var italic: (on: String, off: String)
        public var code: (on: String, off: String)
        public var link: (on: String, off: String)
        /// Around a link's address after its text.
        public var address: (on: String, off: String)

        /// No marks at all: plain text, for a pipe or a file.
        public static let none = Marks(bold: ("", ""), italic: ("", ""), code: ("", ""), link: ("", ""), address: ("", ""))

        /// SGR attributes only (no colours, so `NO_COLOR` needs nothing else): bold, italic,
        /// reverse video for code, underlined link text, a dim address.
        public static let terminal = Marks(bold: ("\u{1B}[1m", "\u{1B}[22m"), italic: ("\u{1B}[3m", "\u{1B}[23m"),
                                           code: ("\u{1B}[7m", "\u{1B}[27m"), link: ("\u{1B}[4m", "\u{1B}[24m"),
                                           address: ("\u{1B}[2m", "\u{1B}[22m"))

        public static func == (left: Marks, right: Marks) -> Bool {
            [left.bold, left.italic, left.code, left.link, left.address].map { $0.on + "|" + $0.off }
                == [right.bold, right.italic, right.code, right.link, right.address].map { $0.on + "|" + $0.off }
        }
    }

    public static func plain(_ markdown: String) -> String {
        rendered(markdown, marks: .none)
    }

    /// The text with `marks` where its Markdown marks were; every span opened on a line is closed
    /// on it, so a line cut off (a reply still arriving) leaves no attribute on.
    public static func rendered(_ markdown: String, marks: Marks) -> String {
        var lines: [String] = []
        for raw in markdown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var line = String(raw)
            var heading = false
            let trimmed = line.trimmingSpaces()
            if trimmed.hasPrefix("#") {
                line = String(trimmed.drop { $0 == "#" }).trimmingSpaces()
                heading = true
            } else if trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ") || trimmed.hasPrefix("+ ") {
                let indent = String(line.prefix { $0 == " " })
                line = indent + "• " + String(trimmed.dropFirst(2))
            }
            let text = inline(line, marks)
            lines.append(heading && !text.isEmpty ? marks.bold.on + text + marks.bold.off : text)
        }
        return lines.joined(separator: "\n")
    }

    /// `[text](url)` → `text (url)`; `**`, `__`, `*`, `_` around words and backticks made marks.
    static func inline(_ line: String, _ marks: Marks = .none) -> String {
        var out = ""
        var rest = Substring(line)
        while let open = rest.firstIndex(of: "[") {
            out += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "]"),
                  rest.index(after: close) < rest.endIndex, rest[rest.index(after: close)] == "(",
                  let end = rest[close...].firstIndex(of: ")") else {
                out += "["
                rest = rest[afterOpen...]
                continue
            }
            let text = rest[afterOpen..<close]
            let url = rest[rest.index(close, offsetBy: 2)..<end]
            out += marks.link.on + text + marks.link.off + " " + marks.address.on + "(\(url))" + marks.address.off
            rest = rest[rest.index(after: end)...]
        }
        out += rest
        out = toggling(toggling(toggling(out, "`", marks.code), "**", marks.bold), "__", marks.bold)
        return singleEmphasis(out, marks.italic)
    }

    /// Each `mark` in turn opens and closes a span; one left open is closed at the end.
    static func toggling(_ text: String, _ mark: String, _ span: (on: String, off: String)) -> String {
        let pieces = text.split(separator: mark, omittingEmptySubsequences: false).map(String.init)
        guard pieces.count > 1 else { return text }
        var out = pieces[0]
        for (index, piece) in pieces.enumerated().dropFirst() {
            out += (index % 2 == 1 ? span.on : span.off) + piece
        }
        return pieces.count % 2 == 0 ? out + span.off : out
    }

    /// `*word*` and `_word_` → the word in `span` (a lone `*` or an `_` inside a word stays).
    static func singleEmphasis(_ text: String, _ span: (on: String, off: String)) -> String {
        var result = ""
        var open = false
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            if character == "*" || character == "_" {
                let before = index > 0 ? characters[index - 1] : " "
                let after = index + 1 < characters.count ? characters[index + 1] : " "
                let opens = (before.isWhitespace || before.isPunctuation) && !after.isWhitespace
                let closes = !before.isWhitespace && (after.isWhitespace || after.isPunctuation)
                if opens != closes {
                    // A mark that opens or closes is dropped; it starts or ends a span when that fits.
                    if opens != open { result += opens ? span.on : span.off }
                    open = opens
                    continue
                }
            }
            result.append(character)
        }
        return open ? result + span.off : result
    }
}
