#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaSession
import AliciaLocks
import AliciaLibrary
import AliciaHost
import AliciaTerminal

/// `alicia-player chat "text" [--voice] [--react EMOJI]`: sends a message through a session's
/// `say` (the one chat every front end uses), prints Alicia's reply as the tokens stream in, plays
/// the reply's voice note on the voice-note player as soon as it is announced, and ends with the
/// message id once the note has played.
struct ChatCommand {
    let options: ChatOptions

    func run() -> Int32 {
        let signals = SignalWatcher()
        let backend: BackendSession
        do {
            backend = try BackendSession(options.backend)
        } catch {
            Console.fail(error.message)
            return ExitCode.failure
        }
        var play = PlayOptions(references: [])
        play.backend = options.backend
        play.device = options.device
        play.volume = options.volume
        play.noIPC = true
        play.autoDownload = 0
        switch SessionHost.open(play, signals: signals) {
        case .failure(let failure): return failure.status
        case .success(let host):
            let frontEnd = ChatFrontEnd(host: host, text: options.text, voice: options.voice)
            let status = host.run(frontEnd)
            guard status == ExitCode.success, let emoji = options.react else { return status }
            return react(emoji, to: frontEnd.messageID, client: backend.client)
        }
    }

    /// `--react`: one confirming line, or why not.
    private func react(_ emoji: String, to messageID: String?, client: BackendClient) -> Int32 {
        guard let id = messageID else {
            Console.fail("cannot react: the reply had no message id")
            return ExitCode.failure
        }
        do {
            // A number stays one (`/api/react` took a number from older backends).
            try client.react(toMessage: Int(id).map { OpaqueID($0) } ?? OpaqueID(id), emoji: emoji)
        } catch {
            Console.fail(error.message)
            return ExitCode.failure
        }
        Console.out("reacted \(emoji) to message \(id)\n")
        return ExitCode.success
    }
}

/// The chat's front end: the reply printed as it grows, then the note waited for.
final class ChatFrontEnd: HostedFrontEnd {
    private let host: SessionHost
    private var printed = 0
    private var replied = false
    private var status = ExitCode.success
    private(set) var messageID: String?

    init(host: SessionHost, text: String, voice: Bool) {
        self.host = host
        host.session.perform(.say(text, voice: voice))
    }

    var descriptors: [Int32] { [] }
    func deadline() -> Double? { nil }

    func turn(_ notices: [SessionNotice], readable: Set<Int32>, signals: [Int32]) -> Int32? {
        for notice in notices {
            switch notice {
            case .alicia(.replying(_, let text)):
                printNew(text, final: false)
            case .alicia(.replied(_, let text, let id)):
                printNew(text, final: true)
                // The reader of the reply has gone (`chat … | head -1`): nothing left worth doing.
                if Console.stdoutClosed { return ExitCode.success }
                Console.out(text.hasSuffix("\n") ? "" : "\n")
                if let id { Console.out("message \(id)\n") }
                messageID = id
                replied = true
            case .alicia(.failed(_, let text, let message)):
                // Her words so far stay printed; why she stopped follows, and the exit is 1.
                printNew(text, final: true)
                if !text.isEmpty, !text.hasSuffix("\n") { Console.out("\n") }
                Console.fail(message)
                return ExitCode.failure
            case .alicia(.problem(let message)):
                Console.fail(message)
            case .voice(.failed(_, let error)):
                Console.fail("the voice note did not play: \(error.message)")
                status = ExitCode.failure
            default:
                break
            }
        }
        if host.signals.signal != nil {
            host.session.perform(.skipVoiceNote)
            return nil
        }
        return replied && host.session.view.voiceIsIdle ? status : nil
    }

    /// Prints the lines of `text` not printed yet, each once it is whole (the reply grows piece by
    /// piece; a mark such as `**` may be split between pieces): on a terminal with its Markdown as
    /// attributes, else as plain text; bullets drawn, links as `text (url)` (`MarkdownText`).
    private func printNew(_ text: String, final: Bool) {
        let characters = Array(text)
        var end = characters.count
        if !final {
            guard let newline = characters.lastIndex(of: "\n") else { return }
            end = newline + 1
        }
        guard end > printed else { return }
        let lines = String(characters[printed..<end])
        let ending = lines.hasSuffix("\n") ? "\n" : ""
        // Styled on a terminal (bold, italic, code, links), plain in a pipe: no `**` either way.
        let marks: MarkdownText.Marks = isatty(STDOUT_FILENO) == 1 && Terminal.styleMode != .plain ? .terminal : .none
        Console.out(MarkdownText.rendered(ending.isEmpty ? lines : String(lines.dropLast()), marks: marks) + ending)
        printed = end
    }
}
