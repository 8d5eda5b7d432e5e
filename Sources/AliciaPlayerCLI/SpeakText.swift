import AliciaLibrary
import AliciaSession
import AliciaLocks

/// The text `speak --file F` / `speak -` reads aloud, read when the command runs.
enum SpeakText {
    /// A reference to a file (or `-`, standard input) whose text is read aloud.
    static let filePrefix = "speakfile:"

    /// Why the text cannot be read aloud, and the exit status that says so: an empty text is a
    /// usage error however it comes (as an argument it is refused when the line is read).
    struct Problem: Error {
        let message: String
        let status: Int32
    }

    /// `speakfile:PATH` as `speak:TEXT`; another reference as it is.
    static func reference(_ reference: String) -> Result<String, Problem> {
        guard reference.hasPrefix(filePrefix) else { return .success(reference) }
        let path = String(reference.dropFirst(filePrefix.count))
        switch QueueResolver.contents(of: path) {
        case .failure(let problem): return .failure(Problem(message: problem.message, status: ExitCode.failure))
        case .success(let bytes):
            let text = String(decoding: bytes, as: UTF8.self)
            guard !text.allSatisfy(\.isWhitespace) else {
                return .failure(Problem(message: "speak: \(path == "-" ? "standard input" : path) holds no text to read aloud", status: ExitCode.usage))
            }
            return .success(QueueResolver.speakPrefix + text)
        }
    }
}
