/// The transcript of a text read aloud in chunks (a synthesis: its body and each chunk's length),
/// for follow-along when no transcript file exists: one cue a chunk, at the chunk's start, holding
/// the words that chunk most likely speaks. The words are shared out by their place in the text
/// against each chunk's share of the time: a word whose middle character falls in the first 30 %
/// of the characters goes to the chunk that covers the first 30 % of the seconds. Speech runs at a
/// near-even rate of characters, so a cue is at most a few words off at its edges, never out of order.
public enum SpokenTranscript {
    /// Nil when the lengths are not all known (a piece still being voiced) or there is no text.
    public static func cues(text: String, chunkSeconds: [Double], speaker: String? = nil) -> [TranscriptCue]? {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let total = chunkSeconds.reduce(0, +)
        guard !words.isEmpty, !chunkSeconds.isEmpty, chunkSeconds.allSatisfy({ $0 > 0 && $0.isFinite }), total > 0 else { return nil }
        let characters = Double(words.reduce(0) { $0 + $1.count + 1 })
        var starts: [Double] = []
        var elapsed = 0.0
        for seconds in chunkSeconds {
            starts.append(elapsed)
            elapsed += seconds
        }
        var spoken = Array(repeating: [String](), count: chunkSeconds.count)
        var offset = 0.0
        var chunk = 0
        for word in words {
            let middle = (offset + Double(word.count) / 2) / characters * total
            while chunk + 1 < starts.count && middle >= starts[chunk + 1] { chunk += 1 }
            spoken[chunk].append(word)
            offset += Double(word.count + 1)
        }
        return spoken.indices.compactMap { index in
            spoken[index].isEmpty ? nil
                : TranscriptCue(start: starts[index], end: starts[index] + chunkSeconds[index], speaker: speaker,
                                text: spoken[index].joined(separator: " "))
        }
    }
}
