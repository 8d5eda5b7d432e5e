#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaCache
import AliciaHost
import AliciaLibrary
import AliciaLocks
import AliciaSession

/// One option of the command line: its name, the value it takes, the commands that take it, what it
/// does, and what it sets. The parser, the check of what a command takes and the options part of
/// every usage text all come from `OptionTable.all`: an option is spelled once.
struct CommandOption: Sendable {
    enum Value: Sendable, Equatable {
        /// A flag.
        case none
        /// `--name VALUE` or `--name=VALUE`; the placeholder shown in usages.
        case required(String)
        /// Only ever `--name=VALUE` (so `--skip-silence talk.mp3` plays talk.mp3).
        case inline(String)
    }

    let name: String
    /// Older names that still work (not shown in usages).
    var aliases: [String] = []
    let value: Value
    let commands: Set<String>
    let help: String
    /// Sets what the option says (`value` is "" for a flag or an inline value left out).
    let apply: @Sendable (_ value: String, _ line: inout ParsedLine) throws -> Void

    /// Sets what the option says, or says why its value will not do.
    func set(_ value: String, in line: inout ParsedLine) throws(UsageError) {
        do {
            try apply(value, &line)
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError("\(name): \(error)")
        }
    }

    /// `--start T`, `--skip-silence[=LEVEL]`.
    var synopsis: String {
        switch value {
        case .none: return name
        case .required(let placeholder): return name + " " + placeholder
        case .inline(let placeholder): return "\(name)[=\(placeholder)]"
        }
    }
}

/// What the options of one command line set, for the command to take its part of.
struct ParsedLine: Sendable {
    var play = PlayOptions(references: [])
    var backend = BackendOptions()
    var download = DownloadOptions(references: [])
    var cache = CacheOptions()
    var demo = DemoOptions()
    var chatVoice = false
    var react: String?
    var json = false
    var check = false
    var path = false
    var reveal = false
    var help = false
    var version = false
    /// The options given, by their names.
    var seen: [String] = []
    /// `--token` for `demo --serve` is the demo's own token, not the backend's.
    var token: String?
    /// `speak --file F`: the text to read aloud is in F (- for standard input).
    var speakFile: String?
    var playlistText: String?
    /// `episodes --new`.
    var newOnly = false
    /// `refresh --download N`.
    var downloadNewest: Int?
    /// `watch --once`, `watch --interval DURATION`.
    var watch = WatchOptions()
    /// `sync setup --user NAME --device ID`.
    var sync = SyncOptions()
    /// `render -o FILE --bitrate K --quality Q`.
    var render = RenderOptions()
    /// `--cacert FILE`, for every command that talks to a server.
    var caFile: String?
}

/// Every option, in the order the usages list them.
enum OptionTable {
    static let playing: Set<String> = ["play", "queue", "script", "studio", "demo", "speak"]
    static let queueing: Set<String> = ["play", "queue", "script"]
    /// Every command that talks to a server (over HTTPS, perhaps behind a private CA).
    static let networkCommands: Set<String> = backendCommands.union(["download", "subscribe", "refresh", "render", "demo", "sync"]).subtracting(["config", ""])
    static let backendCommands: Set<String> = ["play", "queue", "script", "studio", "speak", "voice", "chat", "playlists", "playlist",
                                               "tracks", "download", "notes", "config", "messages", "reply", "react", "watch", "render", ""]

    static let all: [CommandOption] = queueOptions + playbackOptions + networkOptions + voiceOptions + commandOptions + renderOptions
        + backendOptions

    static let byName: [String: CommandOption] = Dictionary(all.flatMap { option in
        ([option.name] + option.aliases).map { ($0, option) }
    }, uniquingKeysWith: { first, _ in first })

    /// The options part of `command`'s usage: one aligned line each.
    static func usageLines(for command: String) -> String {
        all.filter { $0.commands.contains(command) }.map { line($0.synopsis, $0.help) }.joined(separator: "\n")
    }

    /// The options part of the whole program's usage, each with the commands that take it.
    static func globalUsageLines() -> String {
        let order = ["play", "queue", "script", "studio", "demo", "speak", "voice", "chat", "messages", "reply", "react", "playlists",
                     "playlist", "tracks", "download", "cache", "notes", "config", "shows", "refresh", "episodes"]
        return all.map { option in
            let commands = order.filter(option.commands.contains)
            let which = commands.count == order.count || commands.isEmpty ? "" : "(\(commands.joined(separator: ", "))) "
            return line(option.synopsis, which + option.help)
        }.joined(separator: "\n") + "\n" + line("-h, --help", "show this help; `alicia-player help COMMAND` shows a command's")
            + "\n" + line("-V, --version", "show the version")
    }

    static func line(_ left: String, _ help: String) -> String {
        let padded = left.count < 24 ? left + String(repeating: " ", count: 24 - left.count) : left + "  "
        return "  " + padded + help
    }

    static func option(_ name: String, _ value: CommandOption.Value, _ commands: Set<String>, _ help: String,
                       aliases: [String] = [],
                       _ apply: @escaping @Sendable (String, inout ParsedLine) throws -> Void) -> CommandOption {
        CommandOption(name: name, aliases: aliases, value: value, commands: commands, help: help, apply: apply)
    }
}
