import AliciaAudio

/// A shorthand of the one grammar: what a script line or `ctl` takes (`chapter +1`, `volume +5`,
/// `pause`) and the socket command lines it stands for (`add chapter 1`). Every alias expands to
/// lines of the command table (`SessionCommands`), which alone gives them a meaning: a script, `ctl`,
/// a key bound in the configuration and a socket client saying the same thing do the same thing.
package struct CommandAlias: Sendable {
    /// The name shown first, then other spellings (`prev`, `previous`).
    package let names: [String]
    /// `chapter +N|-N|N|next|prev|list`.
    package let usage: String
    package let help: String
    /// Argument lists every one of which must expand to lines the table takes (a test walks them).
    package let examples: [[String]]
    let expand: @Sendable (_ arguments: [String]) -> Result<[[String]], CommandProblem>

    package var name: String { names[0] }
}

/// The alias table: the script verbs and `ctl` shorthands, as rows that expand to socket lines.
package enum CommandAliases {
    /// The socket command lines (as words) that `words` stand for: an alias expanded, any other
    /// line as it is (the table then says whether it is one).
    package static func expand(_ words: [String]) -> Result<[[String]], CommandProblem> {
        guard let name = words.first else { return .failure(CommandProblem("an empty command")) }
        guard let alias = byName[name] else { return .success([words]) }
        return alias.expand(Array(words.dropFirst())).mapError { problem in
            CommandProblem(problem.kind, problem.message + " (\(alias.usage))")
        }
    }

    /// The requests a line of words makes, each through the command table.
    package static func requests(_ words: [String]) -> Result<[CommandRequest], CommandProblem> {
        expand(words).flatMap { lines in
            var requests: [CommandRequest] = []
            for line in lines {
                switch SessionCommands.request(line[0], line.dropFirst().map { .string($0) }) {
                case .success(let request): requests.append(request)
                case .failure(let problem): return .failure(problem)
                }
            }
            return .success(requests)
        }
    }

    package static func alias(named name: String) -> CommandAlias? { byName[name] }

    /// Every spelling of every alias.
    package static var names: [String] { table.flatMap(\.names) }

    private static let byName = Dictionary(table.flatMap { alias in alias.names.map { ($0, alias) } },
                                           uniquingKeysWith: { first, _ in first })

    private static func alias(_ names: [String], _ usage: String, _ help: String, examples: [[String]],
                              _ expand: @escaping @Sendable ([String]) -> Result<[[String]], CommandProblem>) -> CommandAlias {
        CommandAlias(names: names, usage: usage, help: help, examples: examples, expand: expand)
    }

    /// An alias of one fixed line that takes no arguments.
    private static func fixed(_ names: [String], _ line: [String], _ help: String) -> CommandAlias {
        alias(names, names[0], help, examples: [[]]) { arguments in
            arguments.isEmpty ? .success([line]) : .failure(CommandProblem("\(names[0]) takes no arguments"))
        }
    }

    private static func failure(_ message: String) -> Result<[[String]], CommandProblem> {
        .failure(CommandProblem(message))
    }

    package static let table: [CommandAlias] = [
        alias(["play"], "play [REF...]", "plays these references as the queue (no reference: plays on, as resume)",
              examples: [[], ["a.wav"], ["a.wav", "S1E02"]]) { references in
            guard !references.isEmpty else { return .success([["set_property", "pause", "no"]]) }
            return .success(references.enumerated().map { ["loadfile", $1, $0 == 0 ? "replace" : "append"] })
        },
        alias(["append"], "append REF...", "adds these references to the end of the queue (playing them if nothing plays)",
              examples: [["a.wav"], ["a.wav", "b.wav"]]) { references in
            guard !references.isEmpty else { return failure("append needs something to play (a URL, a path, an episode)") }
            return .success(references.map { ["loadfile", $0, "append-play"] })
        },
        fixed(["pause"], ["set_property", "pause", "yes"], "pauses"),
        fixed(["resume", "unpause"], ["set_property", "pause", "no"], "plays on"),
        fixed(["next"], ["playlist-next"], "the next item"),
        fixed(["prev", "previous"], ["playlist-prev"], "the item before, where it was left (after 3 s: this one's start)"),
        alias(["chapter"], "chapter +N|-N|N|next|prev|list",
              "chapters on or back (within 3 s of a chapter's start, -1 is the one before), chapter N (from 0), or the list",
              examples: [["+1"], ["-1"], ["2"], ["next"], ["prev"], ["list"]]) { arguments in
            guard arguments.count == 1 else { return failure("chapter takes one of +1, -1, N, next, prev, list") }
            return chapter(arguments[0])
        },
        alias(["volume"], "volume N|+N|-N", "the volume, 0 to 150 (a sign moves it from where it is)",
              examples: [["80"], ["+5"], ["-5"]]) { arguments in
            level("volume", arguments, LevelText.volume, "a level from 0 to 150 (or +5, -5)")
        },
        alias(["speed"], "speed X|+X|-X", "the speed, 0.5 to 3 (a sign moves it from where it is)",
              examples: [["1.5"], ["+0.25"], ["-0.25"]]) { arguments in
            level("speed", arguments, LevelText.speed, "a speed from 0.5 to 3 (or +0.25, -0.25)")
        },
        alias(["mute"], "mute [on|off|toggle]", "mutes (on, the default), unmutes (off) or switches (toggle)",
              examples: [[], ["on"], ["off"], ["toggle"]]) { arguments in
            guard arguments.count <= 1, let change = arguments.isEmpty ? .on : LevelText.mute(arguments[0]) else {
                return failure("mute takes on, off or toggle")
            }
            switch change {
            case .toggle: return .success([["cycle", "mute"]])
            case .on: return .success([["set_property", "mute", "yes"]])
            case .off: return .success([["set_property", "mute", "no"]])
            }
        },
        fixed(["unmute"], ["set_property", "mute", "no"], "unmutes"),
        alias(["get"], "get PROPERTY", "a property's value", examples: [["time-pos"]]) { arguments in
            arguments.count == 1 ? .success([["get_property", arguments[0]]]) : failure("get takes one property (get time-pos)")
        },
        fixed(["transcript"], ["get_property", "transcript"], "the transcript of what plays, a cue a line"),
    ]

    /// `next`/`+N` steps on, `prev`/`-N` back, `N` goes to chapter N, `list` reads the list.
    private static func chapter(_ word: String) -> Result<[[String]], CommandProblem> {
        switch word {
        case "next": return .success([["add", "chapter", "1"]])
        case "prev", "previous": return .success([["add", "chapter", "-1"]])
        case "list": return .success([["get_property", "chapter-list"]])
        default:
            let signed = word.hasPrefix("+") || word.hasPrefix("-")
            guard let steps = Int(word.hasPrefix("+") ? String(word.dropFirst()) : word), abs(steps) <= 10_000 else {
                return failure("chapter '\(word.prefix(40))' is not +1, -1, N, next, prev or list")
            }
            return .success([signed ? ["add", "chapter", String(steps)] : ["set_property", "chapter", String(steps)]])
        }
    }

    /// `volume 50` sets it, `volume +5` moves it from where it is (as `add` does).
    private static func level(_ property: String, _ arguments: [String], _ read: (String) -> TransportCommand.Change?,
                              _ expected: String) -> Result<[[String]], CommandProblem> {
        guard arguments.count == 1 else { return failure("\(property) takes \(expected)") }
        switch read(arguments[0]) {
        case .by(let delta)?: return .success([["add", property, SessionProperties.number(delta)]])
        case .set(let value)?: return .success([["set_property", property, SessionProperties.number(value)]])
        case nil: return failure("\(property) '\(arguments[0].prefix(40))' is not \(expected)")
        }
    }
}
