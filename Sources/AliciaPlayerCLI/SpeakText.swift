import AliciaLibrary
import AliciaSession

/// The text `speak --file F` / `speak -` reads aloud, read when the command runs.
enum SpeakText {
    /// A reference to a file (or `-`, standard input) whose text is read aloud.
    static let filePrefix = "speakfile:"

    /// `speakfile:PATH` as `speak:TEXT`; another reference as it is. Nil (said) when it cannot be read.
    static func reference(_ reference: String) -> Result<String, QueueFile.Problem> {
        guard reference.hasPrefix(filePrefix) else { return .success(reference) }
        let path = String(reference.dropFirst(filePrefix.count))
        switch QueueResolver.contents(of: path) {
        case .failure(let problem): return .failure(problem)
        case .success(let bytes):
            let text = String(decoding: bytes, as: UTF8.self)
            guard !text.allSatisfy(\.isWhitespace) else {
                return .failure(.init(line: nil, "speak: \(path == "-" ? "standard input" : path) holds no text to read aloud"))
            }
            return .success(QueueResolver.speakPrefix + text)
        }
    }
}
