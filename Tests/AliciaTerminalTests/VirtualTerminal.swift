@testable import AliciaTerminal

/// Just enough of a terminal to replay what `Screen` writes: cursor
/// addressing, erase in line and display, SGR (tracked, not drawn), cursor
/// show/hide, and text by display width. It records any write that would go
/// past the last column, which on a real terminal wraps or scrolls.
struct VirtualTerminal {
    let columns: Int
    let rows: Int
    /// Each cell holds the character that starts there, "" for the right half
    /// of a wide one, " " when blank.
    private(set) var cells: [[String]]
    private(set) var row = 0
    private(set) var column = 0
    private(set) var cursorVisible = true
    private(set) var overflows = 0
    private(set) var unknownSequences: [String] = []

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// The screen as text, one string per row, wide characters once.
    var lines: [String] {
        cells.map { $0.joined() }
    }

    mutating func apply(_ output: String) {
        var scalars = Array(output.unicodeScalars)[...]
        var text = String.UnicodeScalarView()
        func flushText() {
            for character in String(text) { put(character) }
            text = String.UnicodeScalarView()
        }
        while let scalar = scalars.popFirst() {
            guard scalar == "\u{1B}" else {
                text.append(scalar)
                continue
            }
            flushText()
            guard scalars.popFirst() == "[" else {
                unknownSequences.append("ESC")
                continue
            }
            var parameters = ""
            var final: Unicode.Scalar = "?"
            while let next = scalars.popFirst() {
                if (0x40...0x7E).contains(next.value) {
                    final = next
                    break
                }
                parameters.unicodeScalars.append(next)
            }
            perform(parameters: parameters, final: final)
        }
        flushText()
    }

    private mutating func perform(parameters: String, final: Unicode.Scalar) {
        switch (final, parameters) {
        case ("H", _):
            let numbers = parameters.split(separator: ";").map { Int($0) ?? 1 }
            row = (numbers.first ?? 1) - 1
            column = (numbers.count > 1 ? numbers[1] : 1) - 1
        case ("K", ""):
            if row < rows {
                for index in column..<columns { cells[row][index] = " " }
            }
        case ("J", "2"):
            cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        case ("m", _):
            break
        case ("h", "?25"):
            cursorVisible = true
        case ("l", "?25"):
            cursorVisible = false
        default:
            unknownSequences.append(parameters + String(final))
        }
    }

    private mutating func put(_ character: Character) {
        let width = DisplayWidth.of(character)
        guard width > 0 else { return }
        guard row < rows, column + width <= columns else {
            overflows += 1
            return
        }
        cells[row][column] = String(character)
        if width == 2 { cells[row][column + 1] = "" }
        column += width
    }
}
