extension StringProtocol {
    /// Without white space (spaces, tabs, line ends) at either end.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }

    /// On one line: line breaks and other control characters made spaces (for messages that quote
    /// a document).
    var oneLine: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }
}
