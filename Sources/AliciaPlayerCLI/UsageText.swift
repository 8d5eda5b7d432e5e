import AliciaTerminal
import AliciaLocks
import AliciaLibrary
import AliciaHost

/// Usage texts as printed: wrapped to 80 columns, so `--help` fits a standard terminal however
/// long the lines written in `CommandUsage` and `Invocation.usage` are. Blocks that fit are left
/// exactly as written; one with a line too long is reflowed in its own shape:
/// - a synopsis line (`Usage: …`, `       alicia-player …`) wraps between bracketed groups, under
///   the first argument;
/// - an option or command entry (`  --start T   begin at …`, with continuation lines indented to
///   its description) rewraps its description under itself;
/// - a paragraph of unindented prose rewraps as one;
/// - any other line wraps with its own indent plus two.
enum UsageText {
    static let width = 80

    /// The usage of `command` (nil: the whole program's), wrapped.
    static func rendered(_ command: String?) -> String {
        wrapped(command.flatMap(CommandUsage.text(for:)) ?? Invocation.usage)
    }

    static func wrapped(_ text: String, width: Int = width) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var out: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.isEmpty {
                out.append(line)
                index += 1
            } else if isSynopsis(line) {
                out += fits(line, width) ? [line] : fill(groups(line), indent: "", hanging: synopsisIndent(line), width: width)
                index += 1
            } else if indent(of: line) == 0 {
                var paragraph = [line]
                index += 1
                while index < lines.count, !lines[index].isEmpty, indent(of: lines[index]) == 0, !isSynopsis(lines[index]) {
                    paragraph.append(lines[index])
                    index += 1
                }
                out += paragraph.allSatisfy({ fits($0, width) })
                    ? paragraph : fill(words(paragraph.joined(separator: " ")), indent: "", hanging: "", width: width)
            } else if let column = descriptionColumn(line) {
                var block = [line]
                index += 1
                while index < lines.count, indent(of: lines[index]) == column, descriptionColumn(lines[index]) == nil {
                    block.append(lines[index])
                    index += 1
                }
                if block.allSatisfy({ fits($0, width) }) {
                    out += block
                } else {
                    let first = String(line.prefix(column))
                    let description = ([String(line.dropFirst(column))] + block.dropFirst().map { String($0.dropFirst(column)) })
                        .joined(separator: " ")
                    let hanging = String(repeating: " ", count: column)
                    let filled = fill(words(description), indent: "", hanging: hanging, width: width, firstWidth: width - column)
                    out.append(first + filled[0])
                    out += filled.dropFirst()
                }
            } else {
                let own = String(repeating: " ", count: indent(of: line))
                out += fits(line, width) ? [line] : fill(words(line), indent: own, hanging: own + "  ", width: width)
                index += 1
            }
        }
        return out.joined(separator: "\n")
    }

    private static func fits(_ line: String, _ width: Int) -> Bool { DisplayWidth.of(line) <= width }

    private static func indent(of line: String) -> Int { line.prefix { $0 == " " }.count }

    private static func isSynopsis(_ line: String) -> Bool {
        line.hasPrefix("Usage: ") || (line.hasPrefix("       alicia-player") && indent(of: line) == 7)
    }

    /// Continuation lines of a synopsis start at the options' description column.
    private static func synopsisIndent(_ line: String) -> String {
        String(repeating: " ", count: 25)
    }

    /// The column where an entry's description starts: after its name and two or more spaces.
    private static func descriptionColumn(_ line: String) -> Int? {
        let characters = Array(line)
        var position = indent(of: line)
        guard position > 0, position < characters.count else { return nil }
        while position < characters.count {
            if characters[position] == " " {
                var end = position
                while end < characters.count, characters[end] == " " { end += 1 }
                if end - position >= 2, end < characters.count { return end }
                position = end
            } else {
                position += 1
            }
        }
        return nil
    }

    private static func words(_ text: String) -> [String] {
        text.split(separator: " ").map(String.init)
    }

    /// Words, keeping `[…]` groups whole (`[--start T]`).
    private static func groups(_ line: String) -> [String] {
        var result: [String] = []
        var depth = 0
        for word in line.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            if depth > 0, let last = result.popLast() {
                result.append(last + " " + word)
            } else {
                result.append(word)
            }
            depth += word.filter { $0 == "[" }.count - word.filter { $0 == "]" }.count
            depth = max(0, depth)
        }
        // The synopsis keeps its own leading spaces on the first line.
        if line.hasPrefix(" "), !result.isEmpty { result[0] = String(repeating: " ", count: indent(of: line)) + result[0] }
        return result
    }

    /// Greedy fill: as many words a line as fit.
    private static func fill(_ words: [String], indent: String, hanging: String, width: Int, firstWidth: Int? = nil) -> [String] {
        var lines: [String] = []
        var current = ""
        var limit = firstWidth ?? width
        var prefix = indent
        for word in words {
            if current.isEmpty {
                current = prefix + word
            } else if DisplayWidth.of(current) + 1 + DisplayWidth.of(word) <= limit {
                current += " " + word
            } else {
                lines.append(current)
                limit = width
                prefix = hanging
                current = prefix + word
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}
