/// The text and cursor of a one-line composer, with readline's editing keys.
///
/// The cursor counts `Character`s (grapheme clusters), so one Backspace removes
/// a whole emoji or an accented letter. Inserted text is kept to one line:
/// tabs and line breaks become spaces and other control characters are dropped.
public struct LineEditor: Hashable, Sendable {
    public private(set) var text: String
    /// The insertion point, 0 through `text.count`.
    public private(set) var cursor: Int

    /// An editor holding `text`, the cursor at `cursor` (clamped) or at the end.
    public init(text: String = "", cursor: Int? = nil) {
        self.text = Self.singleLine(text)
        self.cursor = min(max(cursor ?? Int.max, 0), self.text.count)
    }

    public var isEmpty: Bool { text.isEmpty }

    /// Applies an editing key: characters and pastes insert, Backspace, Delete,
    /// Left, Right, Home, End; Ctrl-A/E (start/end), Ctrl-B/F (left/right),
    /// Ctrl-K (delete to the end),
    /// Ctrl-U (delete to the start: all of it when the cursor is at the end, as
    /// in readline) and Ctrl-W (delete the word before the cursor). Returns
    /// false for every other key, which is the caller's (Enter, Escape, Up,
    /// Ctrl-D …).
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character): insert(String(character))
        case .paste(let pasted): insert(pasted)
        case .backspace: deleteBackward()
        case .delete: deleteForward()
        case .left, .control("b"): moveLeft()
        case .right, .control("f"): moveRight()
        case .home, .control("a"): moveToStart()
        case .end, .control("e"): moveToEnd()
        case .control("k"): deleteToEnd()
        case .control("u"): deleteToStart()
        case .control("w"): deleteWordBackward()
        default: return false
        }
        return true
    }

    /// Inserts `newText` (typed or pasted) at the cursor and moves past it.
    public mutating func insert(_ newText: String) {
        let cleaned = Self.singleLine(newText)
        guard !cleaned.isEmpty else { return }
        let split = index(at: cursor)
        let before = String(text[..<split]) + cleaned
        text = before + text[split...]
        // Scalars typed one by one (an emoji ZWJ sequence) join the cluster
        // before them, so the cursor is counted again rather than advanced.
        cursor = min(before.count, text.count)
    }

    public mutating func insert(_ character: Character) {
        insert(String(character))
    }

    /// Backspace: removes the character before the cursor.
    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        removeCharacters(cursor - 1..<cursor)
    }

    /// Delete: removes the character under the cursor.
    public mutating func deleteForward() {
        guard cursor < text.count else { return }
        removeCharacters(cursor..<cursor + 1)
    }

    public mutating func moveLeft() { cursor = max(cursor - 1, 0) }
    public mutating func moveRight() { cursor = min(cursor + 1, text.count) }
    public mutating func moveToStart() { cursor = 0 }
    public mutating func moveToEnd() { cursor = text.count }

    /// Empties the editor.
    public mutating func clear() {
        text = ""
        cursor = 0
    }

    /// Ctrl-U: removes everything before the cursor.
    public mutating func deleteToStart() {
        removeCharacters(0..<cursor)
    }

    /// Ctrl-K: removes everything from the cursor on.
    public mutating func deleteToEnd() {
        removeCharacters(cursor..<text.count)
    }

    /// Ctrl-W: removes the whitespace before the cursor and the word before
    /// that, words being runs of non-whitespace (readline's unix-word-rubout).
    public mutating func deleteWordBackward() {
        let characters = Array(text)
        var start = cursor
        while start > 0 && characters[start - 1].isWhitespace { start -= 1 }
        while start > 0 && !characters[start - 1].isWhitespace { start -= 1 }
        removeCharacters(start..<cursor)
    }

    /// The part of the text to show in a field `width` columns wide, and the
    /// column of the cursor in it.
    ///
    /// Text that fits is shown whole. Longer text scrolls so that the cursor
    /// cell is visible with as much of the text before it as fits; a `…` at
    /// either edge marks text scrolled out of view (from 4 columns up, where
    /// the marks leave room for the cursor cell). The result is never wider
    /// than `width` and `cursorColumn` is always inside it.
    public func visible(width: Int) -> (text: String, cursorColumn: Int) {
        guard width > 0 else { return ("", 0) }
        let characters = Array(text)
        let widths = characters.map { DisplayWidth.of($0) }
        let total = widths.reduce(0, +)
        let before = widths[..<cursor].reduce(0, +)
        // A cursor past the end or on a zero-width character still takes a cell.
        let cursorCell = cursor < characters.count ? max(widths[cursor], 1) : 1
        if total <= width && before + cursorCell <= width {
            return (text, before)
        }

        let marks = width >= 4
        let rightReserve = marks && cursor + 1 < characters.count ? 1 : 0
        var start = 0
        var shownBefore = before
        while start < cursor {
            let leftMark = marks && start > 0 ? 1 : 0
            if leftMark + shownBefore + cursorCell + rightReserve <= width { break }
            shownBefore -= widths[start]
            start += 1
        }
        let leftMark = marks && start > 0 ? 1 : 0
        if leftMark + shownBefore + cursorCell > width {
            // Only a field narrower than the character under the cursor gets here.
            return ("", 0)
        }

        var shown = leftMark == 1 ? "…" : ""
        var used = leftMark
        for index in start..<cursor {
            shown.append(characters[index])
            used += widths[index]
        }
        let cursorColumn = used
        if used + widths[cursor...].reduce(0, +) <= width {
            shown += String(characters[cursor...])
        } else {
            let limit = width - (marks ? 1 : 0)
            for index in cursor..<characters.count {
                if used + widths[index] > limit { break }
                shown.append(characters[index])
                used += widths[index]
            }
            if marks { shown += "…" }
        }
        return (shown, cursorColumn)
    }

    private func index(at offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: offset)
    }

    private mutating func removeCharacters(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        text.removeSubrange(index(at: range.lowerBound)..<index(at: range.upperBound))
        // Neighbours can join into one cluster (regional indicators), so clamp.
        cursor = min(range.lowerBound, text.count)
    }

    /// `text` on one line: tabs and line breaks become spaces, other control
    /// characters go.
    private static func singleLine(_ text: String) -> String {
        var result = ""
        for character in text {
            if character.isNewline || character == "\t" {
                result.append(" ")
                continue
            }
            let kept = character.unicodeScalars.filter {
                $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value)
            }
            result.unicodeScalars.append(contentsOf: kept)
        }
        return result
    }
}
