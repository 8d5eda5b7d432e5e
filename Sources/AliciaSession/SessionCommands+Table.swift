import AliciaAudio
import AliciaJSON

/// The table's entries, by what they touch.
extension SessionCommands {
    static let loadModes = TransportCommand.LoadMode.allCases.map(\.rawValue).joined(separator: ", ")

    static let queueCommands: [SessionCommand] = [
        command("loadfile", [argument("url", "String"), argument("flags", "Choice", optional: true)],
                "plays a reference (a URL, a path, an episode, playlist:NAME), or adds it: \(loadModes)") { arguments in
            guard (1...3).contains(arguments.count), let reference = arguments[0].stringValue, !reference.isEmpty else {
                return invalid("loadfile takes a reference and optionally \(loadModes)")
            }
            let flag = arguments.count > 1 ? arguments[1].stringValue ?? "" : "replace"
            guard let mode = TransportCommand.LoadMode(rawValue: flag) else {
                return invalid("loadfile: '\(flag.prefix(40))' is not \(loadModes)")
            }
            return .success(.load(reference: reference, mode: mode))
        },
        command("playlist-next", [argument("flags", "Choice", optional: true)], "the next item",
                { arguments in arguments.count <= 1 ? .success(.perform(.next)) : invalid("playlist-next takes no arguments") }),
        command("playlist-prev", [argument("flags", "Choice", optional: true)],
                "the item before, where it was left (after its first 3 s: this one from its start)",
                { arguments in arguments.count <= 1 ? .success(.perform(.previous)) : invalid("playlist-prev takes no arguments") }),
        command("playlist-play-index", [argument("index", "Integer")], "plays the item at this index, where it was left") { arguments in
            guard arguments.count == 1, let index = arguments[0].integerValue else { return invalid("playlist-play-index takes an index") }
            return .success(.perform(.playIndex(index)))
        },
        command("playlist-remove", [argument("index", "Integer")], "removes an item (an index, or current)") { arguments in
            guard arguments.count == 1 else { return invalid("playlist-remove takes an index or current") }
            if arguments[0].stringValue == "current" { return .success(.perform(.remove(.current))) }
            guard let index = arguments[0].integerValue else { return invalid("playlist-remove takes an index or current") }
            return .success(.perform(.remove(.index(index))))
        },
        command("playlist-move", [argument("index1", "Integer"), argument("index2", "Integer")],
                "moves the item at index1 to the place of the one at index2") { arguments in
            guard arguments.count == 2, let from = arguments[0].integerValue, let to = arguments[1].integerValue else {
                return invalid("playlist-move takes two indexes")
            }
            return .success(.perform(.move(from: from, to: to)))
        },
        command("playlist-clear", "removes every item but the one playing", none("playlist-clear", .perform(.clear))),
        command("playlist-shuffle", "shuffles the items after the one playing", none("playlist-shuffle", .perform(.shuffle))),
    ]

    static let transportCommands: [SessionCommand] = [
        command("seek", [argument("target", "Time"), argument("flags", "Flags", optional: true)],
                "seconds (relative unless absolute, absolute-percent or relative-percent), or 1:20, +30, 50%") { arguments in
            seekRequest(arguments)
        },
        command("stop", "stops and empties the queue (positions kept)", none("stop", .perform(.stop))),
        command("quit", [argument("code", "Integer", optional: true)], "ends the player (with this exit status)") { arguments in
            quitRequest(arguments, savePosition: false)
        },
        command("quit-watch-later", [argument("code", "Integer", optional: true)], "saves the position and ends the player") { arguments in
            quitRequest(arguments, savePosition: true)
        },
        command("voice", [argument("reference", "String")], "plays a voice note over the episode") { arguments in
            guard arguments.count == 1, let reference = arguments[0].stringValue, !reference.isEmpty else { return invalid("voice takes a reference") }
            return .success(.voice(reference: reference))
        },
        command("speak", [argument("text", "String")], "reads a text aloud (/api/speak) as it is voiced: played now if nothing plays, else queued",
                vararg: true) { arguments in
            guard let text = joined(arguments), !text.allSatisfy(\.isWhitespace) else {
                return invalid("speak takes the text to read aloud")
            }
            return .success(.load(reference: "speak:" + text, mode: .appendPlay))
        },
        command("say", [argument("text", "String")], "sends text to Alicia; her reply is the data, her voice note plays",
                vararg: true) { arguments in
            guard let text = joined(arguments), !text.isEmpty else { return invalid("say takes the text to send") }
            return .success(.perform(.say(text, voice: true)))
        },
        command("toggle", "pauses or plays on (after the end: again from the start); while a voice note plays, skips it",
                none("toggle", .perform(.toggleOrSkipNote))),
        command("voice-replay", "plays the last voice note again", none("voice-replay", .perform(.replayVoiceNote))),
        command("voice-skip", "ends the voice note playing (the next one, if any, follows)", none("voice-skip", .perform(.skipVoiceNote))),
    ]

    static let propertyCommands: [SessionCommand] = [
        named("get_property", "name", "a property's value") { .getProperty($0, text: false) },
        named("get_property_string", "name", "a property's value as text") { .getProperty($0, text: true) },
        command("set_property", [argument("name", "String"), argument("value", "Node")], "sets a property") { arguments in
            guard arguments.count == 2, let name = arguments[0].stringValue else { return invalid("set_property takes a property name and a value") }
            return .success(.setProperty(name, arguments[1]))
        },
        command("add", [argument("name", "String"), argument("value", "Float", optional: true)], "adds to a number property (1 when no value)") { arguments in
            guard (1...2).contains(arguments.count), let name = arguments[0].stringValue else { return invalid("add takes a property and a number") }
            guard let step = arguments.count == 2 ? arguments[1].numberValue : 1 else { return invalid("add takes a property and a number") }
            return .success(.add(name, step))
        },
        command("cycle", [argument("name", "String"), argument("value", "Choice", optional: true)], "moves a property to its next value") { arguments in
            guard (1...2).contains(arguments.count), let name = arguments[0].stringValue else { return invalid("cycle takes a property") }
            return .success(.cycle(name))
        },
        command("observe_property", [argument("id", "Integer"), argument("name", "String")],
                "sends property-change events for a property (its value at once, then each change)") { arguments in
            guard arguments.count == 2, let id = arguments[0].integerValue, let name = arguments[1].stringValue else {
                return invalid("observe_property takes an id and a property name")
            }
            return .success(.observe(id: Int64(id), property: name))
        },
        command("unobserve_property", [argument("id", "Integer")], "stops observing") { arguments in
            guard arguments.count == 1, let id = arguments[0].integerValue else { return invalid("unobserve_property takes an id") }
            return .success(.unobserve(id: Int64(id)))
        },
    ]

    static let sessionCommands: [SessionCommand] = [
        named("enable_event", "name", "sends an event again (all: every one)") { .event($0, enabled: true) },
        named("disable_event", "name", "stops sending an event (all: every one)") { .event($0, enabled: false) },
        command("client_name", "this connection's name", none("client_name", .clientName)),
        command("get_version", "the client API version (mpv 0.35's)", none("get_version", .version)),
        command("status", "state, position, length, title, queue place, speed, volume, voice note", none("status", .status)),
    ]

    /// The words of a command that takes the rest of its line (`say`, `speak`), joined by a space.
    static func joined(_ arguments: [JSONValue]) -> String? {
        var words: [String] = []
        for argument in arguments {
            guard let word = argument.stringValue else { return nil }
            words.append(word)
        }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// A command of one string argument.
    static func named(_ name: String, _ argumentName: String, _ help: String,
                      _ make: @escaping @Sendable (String) -> CommandRequest) -> SessionCommand {
        command(name, [argument(argumentName, "String")], help) { arguments in
            guard arguments.count == 1, let value = arguments[0].stringValue else { return invalid("\(name) takes a \(argumentName)") }
            return .success(make(value))
        }
    }

    static func quitRequest(_ arguments: [JSONValue], savePosition: Bool) -> Result<CommandRequest, CommandProblem> {
        // No number at all is 0; a number must be an exit status.
        guard arguments.count <= 1 else { return invalid("quit takes an exit status from 0 to 255") }
        let code = arguments.first.map { $0.numberValue == nil ? nil : $0.integerValue } ?? 0
        guard let code, (0...255).contains(code) else { return invalid("quit takes an exit status from 0 to 255") }
        return .success(.perform(.quit(status: Int32(code), savePosition: savePosition)))
    }

    /// mpv's `seek`: a number with flags (relative by default), or a time in our forms (`1:20`,
    /// `+30`, `-15`, `50%`) which says its own kind.
    static func seekRequest(_ arguments: [JSONValue]) -> Result<CommandRequest, CommandProblem> {
        guard (1...3).contains(arguments.count) else { return invalid("seek takes a number of seconds") }
        let flags = Set((arguments.count > 1 ? arguments[1].stringValue ?? "" : "").split(separator: "+").map(String.init))
        let kinds = flags.intersection(["relative", "absolute", "absolute-percent", "relative-percent"])
        guard kinds.count <= 1, flags.subtracting(kinds).isSubset(of: ["exact", "keyframes", "default-precise"]) else {
            return invalid("seek: '\(arguments[1].stringValue ?? "")' is not relative, absolute, absolute-percent or relative-percent")
        }
        if kinds.isEmpty, case .string(let text) = arguments[0], Double(text.trimmingSpaces) == nil {
            guard let target = TimeSpec.seekTarget(text) else { return invalid("seek: '\(text.prefix(40))' is not a time (90, 1:20, +30, -15, 50%)") }
            return .success(.perform(.seek(target)))
        }
        guard let amount = arguments[0].numberValue else { return invalid("seek takes a number of seconds") }
        switch kinds.first ?? "relative" {
        case "absolute": return .success(.perform(.seek(.to(amount))))
        case "absolute-percent": return .success(.perform(.seek(.toFraction(amount / 100))))
        case "relative-percent": return .success(.perform(.seek(.byFraction(amount / 100))))
        default: return .success(.perform(.seek(.by(amount))))
        }
    }
}
