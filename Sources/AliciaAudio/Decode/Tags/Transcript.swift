internal import AliciaJSON
import AliciaLocks

/// One cue of a transcript: what is said from `start` (seconds of the item's own time, as
/// chapters are), by whom when the file says.
public struct TranscriptCue: Sendable, Equatable {
    public var start: Double
    public var end: Double?
    public var speaker: String?
    public var text: String

    public init(start: Double, end: Double? = nil, speaker: String? = nil, text: String) {
        self.start = start
        self.end = end
        self.speaker = speaker
        self.text = text
    }

    /// `Alicia: Hello there`, or the text alone.
    public var line: String { speaker.map { "\($0): \(text)" } ?? text }
}

/// Why a transcript file could not be read, with the line where it went wrong.
public struct TranscriptError: Error, Sendable, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}

/// A transcript beside a local file, in the three forms Podcasting 2.0 names: WebVTT (`NAME.vtt`,
/// the recommended one), SubRip (`NAME.srt`) and its JSON (`NAME.json` or `NAME.transcript.json`:
/// `{"segments": [{"speaker", "startTime", "endTime", "body"}]}`). One parser with three readers;
/// each cue's text is plain (tags stripped, entities decoded), the speaker from a WebVTT voice
/// span (`<v Alicia>`) or the JSON's `speaker`. Cues come in order of their start.
public enum Transcript {
    public enum Form: String, Sendable, Equatable {
        case webVTT = "WebVTT", subRip = "SubRip", json = "JSON"
    }

    /// Parses `bytes` as `form`; a clear error (with the line) when they are not one.
    public static func parse(_ bytes: [UInt8], as form: Form) throws(TranscriptError) -> [TranscriptCue] {
        let cues: [TranscriptCue]
        switch form {
        case .webVTT: cues = try TimedText.cues(String(decoding: bytes, as: UTF8.self), webVTT: true)
        case .subRip: cues = try TimedText.cues(String(decoding: bytes, as: UTF8.self), webVTT: false)
        case .json: cues = try json(bytes)
        }
        return cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    /// The files looked for beside `path`, in order, with their form.
    public static func candidates(for path: String) -> [(path: String, form: Form)] {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        var bases: [String] = []
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            bases.append(String(path.dropLast(name.distance(from: dot, to: name.endIndex))))
        }
        bases.append(path)
        return bases.flatMap { base in
            [(base + ".vtt", Form.webVTT), (base + ".srt", .subRip), (base + ".transcript.json", .json), (base + ".json", .json)]
        }
    }

    /// The transcript beside the local file at `path`: the first candidate that is there and
    /// parses (one that does not is said in the log, with why).
    public static func cues(besideFile path: String) -> [TranscriptCue]? {
        for (candidate, form) in candidates(for: path) {
            guard let bytes = ChaptersFile.readFile(candidate) else { continue }
            do {
                return try parse(bytes, as: form)
            } catch {
                Log.info(.decode, "\(candidate): not a \(form.rawValue) transcript: \(error.message)")
            }
        }
        return nil
    }

    /// Podcasting 2.0's JSON transcript.
    static func json(_ bytes: [UInt8]) throws(TranscriptError) -> [TranscriptCue] {
        guard let root = JSONValue(parsing: bytes) else { throw TranscriptError("not JSON") }
        guard case .object(let members) = root,
              case .array(let segments)? = members.first(where: { $0.key == "segments" })?.value else {
            throw TranscriptError("no \"segments\" list")
        }
        var cues: [TranscriptCue] = []
        for (index, segment) in segments.enumerated() {
            guard case .object(let fields) = segment else { throw TranscriptError("segment \(index + 1) is not an object") }
            func value(_ key: String) -> JSONValue? { fields.first { $0.key == key }?.value }
            guard case .number(let start)? = value("startTime"), start.isFinite, start >= 0 else {
                throw TranscriptError("segment \(index + 1) has no startTime")
            }
            guard case .string(let body)? = value("body") else { throw TranscriptError("segment \(index + 1) has no body") }
            var end: Double?
            if case .number(let seconds)? = value("endTime"), seconds.isFinite, seconds >= start { end = seconds }
            var speaker: String?
            if case .string(let name)? = value("speaker") { speaker = TimedText.plain(name).nonEmpty }
            guard let text = TimedText.plain(body).nonEmpty else { continue }
            cues.append(TranscriptCue(start: start, end: end, speaker: speaker, text: text))
        }
        return cues
    }
}

extension String {
    /// Nil when empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
