import AliciaAudio
import AliciaBackend

/// A reading's transcript from its chunks' word cues (Alicia 2.0: each chunk lists its words with
/// their times within it): the words joined into lines a sentence long (or at most `wordsPerLine`),
/// each at its first word's time in the whole reading, as a transcript beside a file reads. Without
/// cues (an older backend), the text shared out over the chunks' lengths (`SpokenTranscript`).
package enum SpeechTranscript {
    /// A line ends at a sentence's end, or after this many words.
    static let wordsPerLine = 14

    package static func cues(chunks: [PlaylistItem.Chunk], text: String?) -> [TranscriptCue] {
        guard chunks.contains(where: { !$0.cues.isEmpty }) else {
            return text.flatMap { SpokenTranscript.cues(text: $0, chunkSeconds: chunks.map { $0.duration ?? 0 }) } ?? []
        }
        var lines: [TranscriptCue] = []
        var offset = 0.0
        for chunk in chunks {
            var words: [SpeechCue] = []
            for cue in chunk.cues {
                words.append(cue)
                let sentenceEnds = cue.text.last.map { ".!?…".contains($0) } ?? false
                if sentenceEnds || words.count >= wordsPerLine {
                    lines.append(line(words, offset: offset))
                    words.removeAll()
                }
            }
            if !words.isEmpty { lines.append(line(words, offset: offset)) }
            offset += chunk.duration ?? chunk.cues.last?.end ?? 0
        }
        return lines
    }

    private static func line(_ words: [SpeechCue], offset: Double) -> TranscriptCue {
        TranscriptCue(start: offset + (words.first?.start ?? 0), end: offset + (words.last?.end ?? 0),
                      text: words.map(\.text).joined(separator: " "))
    }
}
