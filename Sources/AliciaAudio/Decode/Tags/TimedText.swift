/// The two line-based transcript forms, WebVTT and SubRip: blocks parted by blank lines, each a
/// timing line (`00:01.000 --> 00:04.000`, SubRip with a comma and an index line before it) and
/// the text under it. WebVTT's `NOTE`, `STYLE` and `REGION` blocks are skipped, a cue's settings
/// after the end time ignored, and its tags stripped (a `<v Speaker>` span names the speaker).
enum TimedText {
    static func cues(_ text: String, webVTT: Bool) throws(TranscriptError) -> [TranscriptCue] {
        // CR LF is one Character, a newline as LF and CR are.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = String(first.dropFirst()) }
        var index = 0
        if webVTT {
            guard let first = lines.first, first == "WEBVTT" || first.hasPrefix("WEBVTT ") || first.hasPrefix("WEBVTT\t") else {
                throw TranscriptError("line 1: a WebVTT file begins with WEBVTT")
            }
            // The header block runs to the first blank line.
            while index < lines.count && !lines[index].trimmed.isEmpty { index += 1 }
        }
        var cues: [TranscriptCue] = []
        while index < lines.count {
            while index < lines.count && lines[index].trimmed.isEmpty { index += 1 }
            guard index < lines.count else { break }
            let blockStart = index
            var block: [String] = []
            while index < lines.count && !lines[index].trimmed.isEmpty {
                block.append(lines[index])
                index += 1
            }
            if webVTT, let head = block.first, head.hasPrefix("NOTE") || head == "STYLE" || head == "REGION" { continue }
            if let cue = try cue(block, firstLine: blockStart + 1, webVTT: webVTT) { cues.append(cue) }
        }
        return cues
    }

    /// One block: an optional identifier (SubRip's index), the timing line, the text.
    private static func cue(_ block: [String], firstLine: Int, webVTT: Bool) throws(TranscriptError) -> TranscriptCue? {
        guard let timingAt = block.prefix(2).firstIndex(where: { $0.contains("-->") }) else {
            throw TranscriptError("line \(firstLine): '\(block[0].prefix(60))' is not a cue's timing (00:01.000 --> 00:04.000)")
        }
        let timing = block[timingAt]
        let parts = timing.split(separator: "-->", omittingEmptySubsequences: false).map(String.init)
        let endWords = parts.count == 2 ? parts[1].trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }) : []
        guard parts.count == 2, let start = seconds(parts[0].trimmed, comma: !webVTT),
              let endText = endWords.first, let end = seconds(String(endText), comma: !webVTT) else {
            throw TranscriptError("line \(firstLine + timingAt): '\(timing.prefix(60))' is not a cue's timing (\(webVTT ? "00:01.000 --> 00:04.000" : "00:00:01,000 --> 00:00:04,000"))")
        }
        var speaker: String?
        let body = block[(timingAt + 1)...].map { line -> String in
            let (voice, text) = voiceSpan(line)
            if speaker == nil { speaker = voice }
            return plain(text)
        }.filter { !$0.isEmpty }.joined(separator: " ")
        guard !body.isEmpty else { return nil }
        return TranscriptCue(start: start, end: end >= start ? end : nil, speaker: speaker, text: body)
    }

    /// `<v Alicia>Hello` or `<v.loud Alicia>Hello</v>`: the speaker and the rest.
    private static func voiceSpan(_ line: String) -> (String?, String) {
        guard line.hasPrefix("<v"), let close = line.firstIndex(of: ">") else { return (nil, line) }
        let tag = line[line.index(line.startIndex, offsetBy: 2)..<close]
        guard tag.first == " " || tag.first == "." || tag.first == "\t" else { return (nil, line) }
        let name = tag.drop { $0 != " " && $0 != "\t" }.trimmed
        return (name.isEmpty ? nil : plain(name), String(line[line.index(after: close)...]))
    }

    /// `hh:mm:ss.ttt` or `mm:ss.ttt` (SubRip: `hh:mm:ss,ttt`), in seconds.
    static func seconds(_ text: String, comma: Bool) -> Double? {
        let normal = comma ? text.replacing(",", with: ".") : text
        let fields = normal.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), let last = fields.last, let secondsPart = Double(last),
              secondsPart >= 0, secondsPart < 60, !last.hasPrefix("+") else { return nil }
        var total = secondsPart
        for (position, field) in fields.dropLast().reversed().enumerated() {
            guard let value = Int(field), value >= 0, field.allSatisfy(\.isASCII) else { return nil }
            total += Double(value) * (position == 0 ? 60 : 3600)
        }
        return total.isFinite ? total : nil
    }

    /// A cue's text as words: tags (`<i>`, `<c.x>`, `<00:01.000>`) left out, entities decoded,
    /// runs of white space one space.
    static func plain(_ text: String) -> String {
        var out = ""
        var inTag = false
        for character in text {
            if inTag {
                if character == ">" { inTag = false }
            } else if character == "<" {
                inTag = true
            } else {
                out.append(character)
            }
        }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&nbsp;", " "), ("&lrm;", ""), ("&rlm;", ""), ("&amp;", "&")] {
            out = out.replacing(entity, with: character)
        }
        return out.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}

extension StringProtocol {
    /// Without spaces and tabs at either end.
    var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
