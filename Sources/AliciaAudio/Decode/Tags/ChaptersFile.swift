#if canImport(Glibc)
import Glibc
#endif
internal import AliciaJSON
import AliciaLocks

/// A Podcasting 2.0 chapters file beside a local episode (`NAME.chapters.json` for `NAME.mp3`, or
/// `NAME.mp3.chapters.json`): `{"version": "1.2.0", "chapters": [{"startTime": 0, "title": …,
/// "endTime": …, "toc": false}]}`. Entries with `toc: false` are not shown (the spec's "not part of
/// the table of contents"); entries without a start time are skipped.
package enum ChaptersFile {
    /// Files larger than this are not read.
    static let byteLimit = 4 << 20

    /// The chapters file for the local file at `path`, if one is there and parses.
    static func chapters(besideFile path: String) -> [Chapter]? {
        for candidate in candidates(for: path) {
            guard let bytes = readFile(candidate) else { continue }
            guard let parsed = chapters(json: bytes) else {
                Log.info(.decode, "\(candidate): not a Podcasting 2.0 chapters file")
                continue
            }
            return parsed
        }
        return nil
    }

    static func candidates(for path: String) -> [String] {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        var found: [String] = []
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            found.append(String(path.dropLast(name.distance(from: dot, to: name.endIndex))) + ".chapters.json")
        }
        found.append(path + ".chapters.json")
        return found
    }

    /// The chapters in a chapters file's JSON; nil when it is not one.
    package static func chapters(json bytes: [UInt8]) -> [Chapter]? {
        guard case .object(let root)? = JSONValue(parsing: bytes),
              case .array(let entries)? = root.first(where: { $0.key == "chapters" })?.value else { return nil }
        var chapters: [Chapter] = []
        for entry in entries {
            guard case .object(let fields) = entry else { continue }
            func value(_ key: String) -> JSONValue? { fields.first { $0.key == key }?.value }
            guard case .number(let start)? = value("startTime") else { continue }
            if case .bool(false)? = value("toc") { continue }
            var title = ""
            if case .string(let text)? = value("title") { title = text.tagValue ?? "" }
            var end: Double?
            if case .number(let seconds)? = value("endTime"), seconds > start { end = seconds }
            chapters.append(Chapter(title: title.isEmpty ? "Chapter \(chapters.count + 1)" : title, start: start, end: end))
        }
        return Chapter.ordered(chapters)
    }

    /// A regular file of at most `byteLimit` bytes, whole; nil when it is not there or not that.
    package static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= byteLimit else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if n <= 0 { break }
            done += n
        }
        return done == bytes.count ? bytes : nil
    }
}
