import AliciaBackend
import AliciaJSON
import AliciaLocks
import AliciaLibrary

/// `messages` (and `chat` with no message): Alicia's proactive messages, newest first, each with
/// its id; `reply ID TEXT` answers one she asked (`/api/reply`); `react ID EMOJI` reacts to one of
/// hers, a proactive message or a chat reply, by its id.
enum MessageCommands {
    /// How many of her messages are asked for (the app's foreground poll asks for 30).
    static let limit = 30

    static func messages(json: Bool, backend options: BackendOptions) -> Int32 {
        run(options) { (client: BackendClient) throws(BackendError) in
            let messages = try client.proactive(limit: limit)
            if json {
                Console.out(String(decoding: (try? JSON.encode(messages.map(Listed.init), layout: .indented)) ?? Array("[]".utf8),
                                   as: UTF8.self) + "\n")
            } else if messages.isEmpty {
                Console.out("(no messages from Alicia)\n")
            } else {
                for message in messages { Console.out(line(message) + "\n") }
            }
        }
    }

    /// `pm-77  2026-12-07 09:10  asks  Did you sleep well?`: the id `reply` and `react` take.
    static func line(_ message: ProactiveMessage) -> String {
        let text = message.text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return [message.id.text, message.date, message.isAsk ? "asks" : nil, text].compactMap { $0 }.filter { !$0.isEmpty }
            .joined(separator: "  ")
    }

    static func reply(to id: String, text: String, backend options: BackendOptions) -> Int32 {
        run(options) { (client: BackendClient) throws(BackendError) in
            let response = try client.reply(to: OpaqueID(id), text: text)
            Console.out(response.isEmpty ? "answered \(id)\n" : response + (response.hasSuffix("\n") ? "" : "\n"))
        }
    }

    /// A proactive message's id reacts as one (`proactive_id`); any other is a chat reply's.
    static func react(to id: String, emoji: String, backend options: BackendOptions) -> Int32 {
        run(options) { (client: BackendClient) throws(BackendError) in
            let proactive = try client.proactive(limit: limit).contains { $0.id.text == id }
            if proactive {
                try client.react(toProactive: OpaqueID(id), emoji: emoji)
            } else {
                try client.react(toMessage: Int(id).map { OpaqueID($0) } ?? OpaqueID(id), emoji: emoji)
            }
            Console.out("reacted \(emoji) to \(proactive ? "her message" : "message") \(id)\n")
        }
    }

    private static func run(_ options: BackendOptions, _ body: (BackendClient) throws(BackendError) -> Void) -> Int32 {
        do {
            let backend = try BackendSession(options)
            try body(backend.client)
            return ExitCode.success
        } catch {
            Console.fail(error.message)
            return ExitCode.failure
        }
    }

    /// A message as `messages --json` lists it.
    private struct Listed: Encodable {
        var id: String
        var date: String
        var text: String
        var kind: String?
        var is_ask: Bool

        init(_ message: ProactiveMessage) {
            id = message.id.text
            date = message.date
            text = message.text
            kind = message.kind
            is_ask = message.isAsk
        }
    }
}
