/// A list of things to play: M3U/M3U8 (`#EXTM3U`, `#EXTINF:secs,title`), PLS, or a plain list, one
/// reference a line; `#` comments and blank lines are skipped. Pure: what each line names (a URL,
/// a path, an episode, `voice:REF`, `playlist:NAME`) is decided by whoever resolves it.
public struct QueueFile: Equatable, Sendable {
    public struct Line: Equatable, Sendable {
        /// 1-based, as editors count.
        public var number: Int
        public var reference: String
        /// From the `#EXTINF` line before it.
        public var title: String?
        public var duration: Double?

        public init(number: Int, reference: String, title: String? = nil, duration: Double? = nil) {
            self.number = number
            self.reference = reference
            self.title = title
            self.duration = duration
        }
    }

    /// What is wrong with a line (or the file, when `line` is nil).
    public struct Problem: Error, Equatable, Sendable {
        public var line: Int?
        public var message: String

        public init(line: Int?, _ message: String) {
            self.line = line
            self.message = message
        }
    }

    public var lines: [Line] = []
    public var problems: [Problem] = []

    /// A line this long is not a reference (and a file of such lines is not a list).
    public static let maximumLineBytes = 64 * 1024
    /// More items than any listener queues; past it the list is refused rather than half-read.
    public static let maximumItems = 10_000

    /// Reads `bytes`: every line, and every problem with its line number.
    public static func parse(_ bytes: [UInt8]) -> QueueFile {
        if let pls = parsePLS(bytes) { return pls }
        var file = QueueFile()
        var pending: (title: String?, duration: Double?)?
        var number = 0
        var start = 0
        // A UTF-8 byte-order mark is not part of the first line.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count {
            number += 1
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            defer { start = end + 1 }
            if end - start > maximumLineBytes {
                file.problems.append(Problem(line: number, "the line is longer than \(maximumLineBytes / 1024) KiB"))
                pending = nil
                continue
            }
            guard let text = String(validating: bytes[start..<end], as: UTF8.self) else {
                file.problems.append(Problem(line: number, "the line is not UTF-8 text"))
                pending = nil
                continue
            }
            let line = text.trimmingWhitespace()
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if line.hasPrefix("#EXTINF:") { pending = extinf(line) }
                continue
            }
            if file.lines.count == maximumItems {
                file.problems.append(Problem(line: number, "more than \(maximumItems) items: split the list"))
                break
            }
            file.lines.append(Line(number: number, reference: line, title: pending?.title, duration: pending?.duration))
            pending = nil
        }
        return file
    }

    /// `#EXTINF:183,Morning Light` (attributes before the comma are allowed and skipped).
    private static func extinf(_ line: String) -> (title: String?, duration: Double?) {
        let body = line.dropFirst("#EXTINF:".count)
        guard let comma = body.firstIndex(of: ",") else {
            return (nil, seconds(body.trimmingWhitespace()))
        }
        let head = body[..<comma].split(separator: " ").first.map(String.init) ?? ""
        let title = String(body[body.index(after: comma)...]).trimmingWhitespace()
        return (title.isEmpty ? nil : title, seconds(head))
    }

    /// A length that can be one: `-1` (unknown), `inf`, `nan` and the like are none.
    private static func seconds(_ text: String) -> Double? {
        Double(text).flatMap { $0.isFinite && $0 >= 0 && $0 <= maximumSeconds ? $0 : nil }
    }

    /// Longer than any recording (ten years); past it `Int(_:)` would trap when the list is written.
    static let maximumSeconds = 315_576_000.0

    /// `items` as M3U8: `#EXTINF` with the length and title, then the reference (a label for an
    /// episode, so the file never holds the backend's token).
    public static func m3u8(_ entries: [(reference: String, title: String, duration: Double?)]) -> String {
        var text = "#EXTM3U\n"
        for entry in entries {
            // `-1`: unknown, as M3U writes it (also for a length that is none: `Int(_:)` of it traps).
            let seconds = entry.duration.flatMap { $0.isFinite && abs($0) <= maximumSeconds ? Int($0.rounded()) : nil } ?? -1
            text += "#EXTINF:\(seconds),\(entry.title.replacingNewlines())\n\(entry.reference)\n"
        }
        return text
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and carriage returns.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = lastIndex(where: { !isSpace($0) })!
        return String(self[first...last])
    }

    func replacingNewlines() -> String {
        String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
