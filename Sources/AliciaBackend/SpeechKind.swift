/// What a text read aloud is, for `/api/speak`'s `kind` (Alicia 2.0 names six; the field is open).
public struct SpeechKind: RawRepresentable, Sendable, Hashable, Encodable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let synthesis = SpeechKind(rawValue: "synthesis")
    public static let thought = SpeechKind(rawValue: "thought")
    public static let shownotes = SpeechKind(rawValue: "shownotes")
    public static let note = SpeechKind(rawValue: "note")
    public static let dialogue = SpeechKind(rawValue: "dialogue")
    public static let episode = SpeechKind(rawValue: "episode")
}
