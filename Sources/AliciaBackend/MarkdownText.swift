/// Show notes as plain text for a terminal: headings, emphasis and code marks
/// dropped, bullets drawn, links shown as `text (url)`.
public enum MarkdownText {
    public static func plain(_ markdown: String) -> String {
        var lines: [String] = []
        for raw in markdown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var line = String(raw)
            let trimmed = line.trimmingSpaces()
            if trimmed.hasPrefix("#") {
                line = String(trimmed.drop { $0 == "#" }).trimmingSpaces()
            } else if trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ") || trimmed.hasPrefix("+ ") {
                let indent = String(line.prefix { $0 == " " })
                line = indent + "• " + String(trimmed.dropFirst(2))
            }
            lines.append(inline(line))
        }
        return lines.joined(separator: "\n")
    }

    /// `[text](url)` → `text (url)`; `**`, `__`, `*`, `_` around words and backticks removed.
    static func inline(_ line: String) -> String {
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
            out += "\(text) (\(url))"
            rest = rest[rest.index(after: end)...]
        }
        out += rest
        for mark in ["**", "__", "`"] { out = out.replacing(mark, with: "") }
        return stripSingleEmphasis(out)
    }

    /// `*word*` and `_word_` → `word` (a lone `*` or an `_` inside a word stays).
    static func stripSingleEmphasis(_ text: String) -> String {
        var result = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            if character == "*" || character == "_" {
                let before = index > 0 ? characters[index - 1] : " "
                let after = index + 1 < characters.count ? characters[index + 1] : " "
                let opens = (before.isWhitespace || before.isPunctuation) && !after.isWhitespace
                let closes = !before.isWhitespace && (after.isWhitespace || after.isPunctuation)
                if opens != closes { continue }
            }
            result.append(character)
        }
        return result
    }
}
