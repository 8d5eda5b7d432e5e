import AliciaAudio
import AliciaSession
import AliciaLocks

/// A playback script: one command line a line, in the one grammar the control socket speaks (its
/// commands and the aliases of `CommandAliases`: `play`, `chapter +1`, `volume +5`…), plus the
/// script's own words (`wait`, `echo`, `status`). Pure: `parse` checks every line (and says what is
/// wrong with each, by line number) before anything runs.
package struct Script: Equatable {
    package enum Wait: Equatable {
        /// `wait`: until the item playing now ends.
        case item
        /// `wait end`: until the queue ends.
        case queue
        /// `wait voice`: until no voice note plays or waits.
        case voice
        /// `wait 5s`, `wait 1.5`, `wait 200ms`, `wait 2m`.
        case seconds(Double)
    }

    package enum Command: Equatable {
        /// A line of the grammar: the requests its socket lines make (`play a b` makes two).
        case requests([CommandRequest])
        case wait(Wait)
        case echo(String)
        case status
    }

    package struct Line: Equatable {
        package var number: Int
        package var command: Command
    }

    package var lines: [Line] = []
    /// `(line, what is wrong)`.
    package var problems: [(line: Int, message: String)] = []

    package static func == (a: Script, b: Script) -> Bool {
        a.lines == b.lines && a.problems.map { "\($0.line):\($0.message)" } == b.problems.map { "\($0.line):\($0.message)" }
    }

    /// The longest line a script may have: past it, the line is refused unread.
    static let maximumLineBytes = 64 * 1024
    package static let maximumLines = 100_000

    /// The script's own words, beside the grammar's commands and aliases: usage and what each does.
    package static let ownWords: [(usage: String, help: String)] = [
        ("wait [end|voice|TIME]", "until the item the last play started has ended; the queue ends; voice notes are done; a time passes (5s, 200ms, 2m, 1:30)"),
        ("echo TEXT", "prints the rest of the line"),
        ("status", "prints state position duration title (seconds)"),
    ]

    /// Every word a script line may begin with: the script's own, the aliases, the table's commands.
    package static var vocabulary: [String] {
        ["wait", "echo", "status"] + CommandAliases.names + SessionCommands.table.map(\.name).filter { !socketOnly.contains($0) }
    }

    /// Commands that make sense only on a connection (observing, events, its name).
    static let socketOnly: Set<String> = ["observe_property", "observe_property_string", "unobserve_property", "enable_event",
                                          "disable_event", "client_name", "get_version"]

    package static func parse(_ bytes: [UInt8]) -> Script {
        var script = Script()
        var number = 0
        var start = 0
        while start < bytes.count {
            number += 1
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            defer { start = end + 1 }
            if number > maximumLines {
                script.problems.append((number, "more than \(maximumLines) lines"))
                break
            }
            if end - start > maximumLineBytes {
                script.problems.append((number, "the line is longer than \(maximumLineBytes / 1024) KiB"))
                continue
            }
            guard let text = String(validating: bytes[start..<end], as: UTF8.self) else {
                script.problems.append((number, "the line is not UTF-8 text"))
                continue
            }
            let line = text.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            switch command(line) {
            case .success(let command): script.lines.append(Line(number: number, command: command))
            case .failure(let problem): script.problems.append((number, problem.message))
            }
        }
        return script
    }

    /// One command line (no comment, trimmed).
    static func command(_ line: String) -> Result<Command, UsageError> {
        guard let words = SessionCommands.words(ofLine: line) else { return .failure(UsageError("a quote is not closed")) }
        guard let name = words.first else { return .failure(UsageError("an empty line")) }
        let arguments = Array(words.dropFirst())
        switch name {
        case "echo":
            return .success(.echo(String(line.dropFirst(name.count)).trimmingWhitespace()))
        case "status":
            return arguments.isEmpty ? .success(.status) : .failure(UsageError("status takes no argument, got '\(arguments[0])'"))
        case "wait":
            return wait(arguments).map { .wait($0) }
        case let name where socketOnly.contains(name):
            return .failure(UsageError("\(name) is for control socket clients, not scripts"))
        default:
            switch CommandAliases.requests(words) {
            case .failure(let problem) where problem.kind == .unknownCommand:
                return .failure(UsageError("unknown command '\(name.prefix(40))' (the commands: \(vocabulary.joined(separator: ", ")))"))
            case .failure(let problem): return .failure(UsageError(problem.message))
            case .success(let requests):
                if let unknown = requests.lazy.compactMap(Self.unknownProperty).first { return .failure(UsageError(unknown)) }
                return .success(.requests(requests))
            }
        }
    }

    /// A property a request names that the table does not have.
    private static func unknownProperty(_ request: CommandRequest) -> String? {
        switch request {
        case .getProperty(let name, _), .setProperty(let name, _), .add(let name, _), .cycle(let name):
            return SessionProperties.property(named: name) == nil ? "no property '\(name.prefix(40))'" : nil
        default: return nil
        }
    }

    private static func wait(_ arguments: [String]) -> Result<Wait, UsageError> {
        guard let text = arguments.first else { return .success(.item) }
        guard arguments.count == 1 else { return .failure(UsageError("wait takes one thing to wait for, got '\(arguments[1])' too")) }
        switch text {
        case "end": return .success(.queue)
        case "voice": return .success(.voice)
        default:
            guard let seconds = duration(text) else {
                return .failure(UsageError("wait '\(text)' is not end, voice, or a time such as 5s, 200ms, 2m"))
            }
            return .success(.seconds(seconds))
        }
    }

    /// `5s`, `5`, `200ms`, `2m`, `1:30`: seconds, at most a day.
    static func duration(_ text: String) -> Double? {
        var number = text
        var scale = 1.0
        if text.hasSuffix("ms") {
            number = String(text.dropLast(2))
            scale = 0.001
        } else if text.hasSuffix("s") {
            number = String(text.dropLast())
        } else if text.hasSuffix("m") {
            number = String(text.dropLast())
            scale = 60
        } else if case .seconds(let seconds)? = TimeSpec.parse(text), text.contains(":") {
            return seconds
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale <= 86_400 else { return nil }
        return value * scale
    }
}
