/// PLS, the station list Icecast and SHOUTcast directories hand out (`[playlist]`, then `File1=`,
/// `Title1=`, `Length1=` and `NumberOfEntries=`): read into the same lines as an M3U, in the order
/// of their numbers.
extension QueueFile {
    /// `bytes` as a PLS list; nil when they are not one (the first line that says anything is not
    /// `[playlist]`).
    static func parsePLS(_ bytes: [UInt8]) -> QueueFile? {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var entries: [Int: Line] = [:]
        var sawHeader = false
        var file = QueueFile()
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = String(raw).trimmingWhitespace()
            if line.isEmpty || line.hasPrefix(";") || line.hasPrefix("#") { continue }
            if !sawHeader {
                guard line.lowercased() == "[playlist]" else { return nil }
                sawHeader = true
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].lowercased(), value = String(line[line.index(after: equals)...]).trimmingWhitespace()
            for field in ["file", "title", "length"] where key.hasPrefix(field) {
                guard let number = Int(key.dropFirst(field.count)), number > 0, number <= maximumItems else { continue }
                var entry = entries[number] ?? Line(number: index + 1, reference: "")
                switch field {
                case "file": (entry.reference, entry.number) = (value, index + 1)
                case "title": entry.title = value.isEmpty ? nil : value
                default: entry.duration = Double(value).flatMap { $0 > 0 && $0 <= maximumSeconds ? $0 : nil }
                }
                entries[number] = entry
            }
        }
        guard sawHeader else { return nil }
        for number in entries.keys.sorted() {
            guard let entry = entries[number] else { continue }
            if entry.reference.isEmpty {
                file.problems.append(Problem(line: entry.number, "Title\(number) or Length\(number) without a File\(number)"))
            } else {
                file.lines.append(entry)
            }
        }
        if file.lines.isEmpty && file.problems.isEmpty { file.problems.append(Problem(line: nil, "the list names nothing to play")) }
        return file
    }
}
