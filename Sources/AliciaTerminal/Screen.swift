/// The diff renderer: remembers the last frame and turns each new frame into
/// the bytes that bring the terminal from one to the other.
///
/// Rows are compared as rendered text and only changed rows are written, each
/// as `ESC[row;1H` and the row, with `ESC[K` instead of trailing blanks. The
/// first frame, a size change and `invalidate()` clear the screen and draw
/// everything. Every row is exactly `columns` wide, so nothing is ever written
/// past the last column of the last row and the screen never scrolls (the
/// terminal is left in its pending-wrap state there, and `Terminal` turns
/// autowrap off as a second guard).
///
/// Call `invalidate()` whenever something else has touched the screen: after
/// `Terminal.enterFullScreen()` or `resume()`, or after writing to it directly.
public struct Screen: Sendable {
    private struct Position: Hashable, Sendable {
        var row: Int
        var column: Int
    }

    private struct Frame: Sendable {
        var columns: Int
        var rows: Int
        var lines: [String]
        /// Where the cursor was left visible, or nil when it is hidden.
        var cursor: Position?
    }

    public var styleMode: StyleMode
    private var previous: Frame?

    public init(styleMode: StyleMode = Terminal.styleMode) {
        self.styleMode = styleMode
    }

    /// Forgets the last frame: the next render clears and redraws everything.
    public mutating func invalidate() {
        previous = nil
    }

    /// The bytes that turn the previous frame into `lines` on a screen of
    /// `columns` × `rows`. Lines past `rows` are dropped, missing ones are
    /// blank. With a `cursor` (zero-based, clamped to the screen) the cursor is
    /// left there and shown, as a composer needs; without one it is hidden.
    /// Returns "" when nothing changed.
    public mutating func render(
        _ lines: [StyledLine], columns: Int, rows: Int, cursor: (row: Int, column: Int)? = nil
    ) -> String {
        guard columns > 0, rows > 0 else {
            previous = nil
            return ""
        }
        let blank = StyledLine().renderedForScreen(width: columns, mode: styleMode)
        var rendered: [String] = []
        rendered.reserveCapacity(rows)
        for row in 0..<rows {
            rendered.append(row < lines.count ? lines[row].renderedForScreen(width: columns, mode: styleMode) : blank)
        }
        let position = cursor.map {
            Position(row: min(max($0.row, 0), rows - 1), column: min(max($0.column, 0), columns - 1))
        }

        var output = ""
        let changedRows: [Int]
        let fullRedraw: Bool
        if let previous, previous.columns == columns, previous.rows == rows {
            fullRedraw = false
            changedRows = (0..<rows).filter { rendered[$0] != previous.lines[$0] }
        } else {
            fullRedraw = true
            changedRows = (0..<rows).filter { rendered[$0] != blank }
        }
        // nil when unknown: a full redraw sets the cursor's state explicitly,
        // since whatever made it necessary may have changed it.
        let wasVisible: Bool? = fullRedraw ? nil : previous.map { $0.cursor != nil }
        var visible = wasVisible
        let drawing = fullRedraw || !changedRows.isEmpty
        if drawing && visible != false {
            // Hidden while rows are drawn, so it does not flicker across the screen.
            output += "\u{1B}[?25l"
            visible = false
        }
        if fullRedraw { output += "\u{1B}[0m\u{1B}[H\u{1B}[2J" }
        for row in changedRows {
            output += "\u{1B}[\(row + 1);1H" + rendered[row]
        }
        if let position {
            if drawing || previous?.cursor != position {
                output += "\u{1B}[\(position.row + 1);\(position.column + 1)H"
            }
            if visible != true { output += "\u{1B}[?25h" }
        } else if visible != false {
            output += "\u{1B}[?25l"
        }
        previous = Frame(columns: columns, rows: rows, lines: rendered, cursor: position)
        return output
    }
}
