extension StringProtocol {
    /// Without white space (spaces, tabs, line ends) at either end. Done on the UTF-8 bytes: those
    /// are ASCII, so the ends found are character boundaries.
    var trimmingSpaces: String {
        let text = String(self)
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { !Charset.isSpace($0) }), let last = bytes.lastIndex(where: { !Charset.isSpace($0) }) else {
            return ""
        }
        if first == bytes.startIndex && last == bytes.index(before: bytes.endIndex) { return text }
        return String(text[first...last])
    }

    /// On one line: line breaks and other control characters made spaces (for messages that quote
    /// a document).
    var oneLine: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }
}
