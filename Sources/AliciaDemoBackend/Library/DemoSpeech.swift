/// Alicia 2.0's read-aloud details for the demo's chunks: the words each chunk says and a cue per
/// word. The spoken text is split into as many runs of whole words as there are chunks; within a
/// chunk the words share its time in proportion to their length, after 0.1 s of breath.
enum DemoSpeech {
    /// The voice the demo names as `speech_backend`.
    static let backend = "demo-hum"

    /// `chunks` with their words and cues, for `spokenText`.
    static func annotated(_ chunks: [DemoPlaylists.Chunk], spokenText: String) -> [DemoPlaylists.Chunk] {
        let words = wordRanges(spokenText)
        guard !chunks.isEmpty else { return [] }
        let scalars = Array(spokenText.unicodeScalars)
        return chunks.enumerated().map { index, chunk in
            let share = words.count / chunks.count
            let start = index * share
            let end = index == chunks.count - 1 ? words.count : start + share
            var annotated = chunk
            let mine = Array(words[min(start, words.count)..<min(end, words.count)])
            annotated.text = mine.first.map { first in String(String.UnicodeScalarView(scalars[first.lowerBound..<mine[mine.count - 1].upperBound])) } ?? ""
            annotated.cues = cues(for: mine, in: scalars, seconds: chunk.duration)
            annotated.timing_status = "ready"
            return annotated
        }
    }

    /// `reply` as v2 writes it: chunks with words and cues, and the piece's spoken text.
    static func annotated(_ reply: DemoPlaylists.SpeakReply, spokenText: String, backend: String?) -> DemoPlaylists.SpeakReply {
        var reply = reply
        reply.chunks = annotated(reply.chunks, spokenText: spokenText)
        if reply.status == "ready" || reply.status == "streaming" {
            reply.spoken_text = spokenText
            reply.timing_status = "ready"
            reply.speech_backend = backend ?? Self.backend
        }
        return reply
    }

    /// A reading made beforehand: `ready`, its chunks annotated.
    static func reading(_ chunks: [DemoPlaylists.Chunk], spokenText: String) -> DemoAPI.Reading {
        DemoAPI.Reading(status: "ready", chunks: annotated(chunks, spokenText: spokenText), duration: chunks.reduce(0) { $0 + $1.duration },
                        spoken_text: spokenText, timing_status: "ready")
    }

    private static func cues(for words: [Range<Int>], in scalars: [Unicode.Scalar], seconds: Double) -> [DemoAPI.Cue] {
        let breath = min(0.1, seconds / 4)
        let total = Double(words.reduce(0) { $0 + $1.count })
        var time = breath
        return words.map { word in
            let length = total > 0 ? (seconds - 2 * breath) * Double(word.count) / total : 0
            defer { time += length }
            return DemoAPI.Cue(start: rounded(time), end: rounded(time + length), text: String(String.UnicodeScalarView(scalars[word])),
                               start_char: word.lowerBound, end_char: word.upperBound)
        }
    }

    /// The words of `text` as ranges of Unicode scalars.
    private static func wordRanges(_ text: String) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if scalar.properties.isWhitespace {
                if let begun = start { ranges.append(begun..<index) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let begun = start { ranges.append(begun..<text.unicodeScalars.count) }
        return ranges
    }

    /// Milliseconds, as a backend would write them.
    private static func rounded(_ seconds: Double) -> Double {
        (seconds * 1000).rounded() / 1000
    }
}
