import AliciaAudio
import AliciaJSON

/// What a command of the table asks for: a change in the vocabulary, or a read or an observation
/// the control socket answers itself.
package enum CommandRequest: Sendable, Equatable {
    case perform(TransportCommand)
    /// Items to resolve first (a reference may need the backend), then `load` with `mode`.
    case load(reference: String, mode: TransportCommand.LoadMode)
    /// A voice note to resolve, then play.
    case voice(reference: String)
    case getProperty(String, text: Bool)
    case setProperty(String, JSONValue)
    case add(String, Double)
    case cycle(String)
    case observe(id: Int64, property: String)
    case unobserve(id: Int64)
    case event(String, enabled: Bool)
    case clientName
    case version
    case status
}

/// One command of the table: its name, its arguments and what it does, in words, for
/// `command-list`, `ctl help` and the documentation; and how its arguments make a request.
package struct SessionCommand: Sendable {
    package struct Argument: Sendable {
        package let name: String
        /// mpv's type names: `String`, `Float`, `Integer`, `Time`, `Flag`, `Choice`, `Node`.
        package let type: String
        package let optional: Bool
    }

    package let name: String
    package let arguments: [Argument]
    package let help: String
    /// Takes the rest of its line as its last argument (`say hello there`).
    package let vararg: Bool
    let parse: @Sendable (_ arguments: [JSONValue]) -> Result<CommandRequest, CommandProblem>

    /// The entry `command-list` gives, as mpv's.
    package var listing: JSONValue {
        .object([
            .init("name", .string(name)),
            .init("args", .array(arguments.map { argument in
                .object([.init("name", .string(argument.name)), .init("type", .string(argument.type)),
                         .init("optional", .bool(argument.optional))])
            })),
            .init("vararg", .bool(vararg)),
        ])
    }

    /// `seek <target> [<flags>]`; `say <text>...`.
    package var usage: String {
        ([name] + arguments.map { $0.optional ? "[<\($0.name)>]" : "<\($0.name)>" }).joined(separator: " ") + (vararg ? "..." : "")
    }
}

/// Why a command line could not be taken: bad arguments (`invalidParameter`), or what it names
/// does not exist.
package struct CommandProblem: Error, Sendable, Equatable {
    package enum Kind: Sendable, Equatable { case invalidParameter, unknownCommand }
    package let kind: Kind
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package init(_ message: String) {
        self.init(.invalidParameter, message)
    }
}

/// The one command table (as mpv's `mp_cmds[]`): the control socket's JSON commands and text
/// command lines parse through it, `ctl` shorthands are spelled in it, and `command-list` lists it.
package enum SessionCommands {
    /// The request a command makes from its name and arguments.
    package static func request(_ name: String, _ arguments: [JSONValue]) -> Result<CommandRequest, CommandProblem> {
        guard let command = byName[name] else {
            return .failure(CommandProblem(.unknownCommand, "unknown command '\(name.prefix(40))'"))
        }
        return command.parse(arguments)
    }

    /// A text command line as mpv takes them on its socket and in input.conf (`cycle pause`,
    /// `raw loadfile "F" append`, `no-osd seek 10`): words, quoted with `"…"` (backslash escapes) or
    /// `'…'`, the prefixes that only change mpv's on-screen display dropped.
    package static func words(ofLine line: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var escaped = false
        var started = false
        for character in line {
            if escaped {
                word.append(character == "n" ? "\n" : character)
                escaped = false
            } else if let open = quote {
                if character == open { quote = nil } else if character == "\\" && open == "\"" { escaped = true } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                started = true
            } else if character == " " || character == "\t" || character == "\r" {
                if started || !word.isEmpty { words.append(word) }
                word = ""
                started = false
            } else if character == "#" && word.isEmpty && !started {
                break
            } else {
                word.append(character)
            }
        }
        guard quote == nil, !escaped else { return nil }
        if started || !word.isEmpty { words.append(word) }
        while let first = words.first, displayPrefixes.contains(first) { words.removeFirst() }
        return words
    }

    static let displayPrefixes: Set<String> = ["raw", "no-osd", "osd-auto", "osd-bar", "osd-msg", "osd-msg-bar",
                                                "expand-properties", "async", "sync", "repeatable", "nonrepeatable"]

    private static let byName = Dictionary(table.flatMap { command in
        ([command.name] + (aliases[command.name] ?? [])).map { ($0, command) }
    }, uniquingKeysWith: { first, _ in first })

    private static let aliases: [String: [String]] = [
        "set_property": ["set", "set_property_string"],
        "observe_property": ["observe_property_string"],
        "loadfile": ["loadlist"],
    ]

    package static var names: [String] { table.map(\.name) + aliases.values.flatMap { $0 } }

    static func argument(_ name: String, _ type: String, optional: Bool = false) -> SessionCommand.Argument {
        .init(name: name, type: type, optional: optional)
    }

    static func command(_ name: String, _ arguments: [SessionCommand.Argument], _ help: String, vararg: Bool = false,
                        _ parse: @escaping @Sendable ([JSONValue]) -> Result<CommandRequest, CommandProblem>) -> SessionCommand {
        SessionCommand(name: name, arguments: arguments, help: help, vararg: vararg, parse: parse)
    }

    static func command(_ name: String, _ help: String,
                        _ parse: @escaping @Sendable ([JSONValue]) -> Result<CommandRequest, CommandProblem>) -> SessionCommand {
        SessionCommand(name: name, arguments: [], help: help, vararg: false, parse: parse)
    }

    static func invalid(_ message: String) -> Result<CommandRequest, CommandProblem> { .failure(CommandProblem(message)) }

    static func none(_ name: String, _ request: CommandRequest) -> @Sendable ([JSONValue]) -> Result<CommandRequest, CommandProblem> {
        { arguments in arguments.isEmpty ? .success(request) : invalid("\(name) takes no arguments") }
    }

    package static let table: [SessionCommand] = queueCommands + transportCommands + propertyCommands + sessionCommands
}
