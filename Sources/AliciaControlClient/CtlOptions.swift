import AliciaControl
import AliciaLocks

/// Options of `alicia-player ctl`.
public struct CtlOptions: Equatable, Sendable {
    /// The socket (nil: the default one).
    public var ipcPath: String?
    /// `--player NAME|PID`: the player started with `--ipc-name NAME`, or the one with that PID.
    public var player: String?
    /// Print the raw reply (and events) as JSON lines.
    public var json = false
    /// The command and its arguments, as typed.
    public var words: [String]
    /// `--timeout S`: seconds to wait for a player's reply before giving up (exit 3); 0 waits
    /// as long as it takes. `watch`, `wait`, `idle` and `follow` wait for events, not replies.
    public var timeout = 5.0

    public init(ipcPath: String? = nil, player: String? = nil, json: Bool = false, words: [String]) {
        self.ipcPath = ipcPath
        self.player = player
        self.json = json
        self.words = words
    }

    /// `ctl`'s words: its options come before the command; what follows is the command's own
    /// (`seek -10`), checked here. Nil for `-h`/`--help`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> CtlOptions? {
        var options = CtlOptions(words: [])
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-"), arguments[index].count > 1 {
            let argument = arguments[index]
            // `--name=value` → (`--name`, `value`).
            let equals = argument.hasPrefix("--") ? argument.firstIndex(of: "=") : nil
            let name = equals.map { String(argument[..<$0]) } ?? argument
            let inline = equals.map { String(argument[argument.index(after: $0)...]) }
            index += 1
            switch name {
            case "-h", "--help": return nil
            case "--json": options.json = true
            case "--": break
            case "--timeout":
                let value = inline ?? (index < arguments.count ? arguments[index] : "")
                if inline == nil { index += 1 }
                guard let seconds = Double(value.hasSuffix("s") ? String(value.dropLast()) : value), seconds >= 0, seconds <= 3600 else {
                    throw UsageError("--timeout '\(value)' is not a number of seconds from 0 to 3600 (0 waits as long as it takes)")
                }
                options.timeout = seconds
            case "--ipc", "--player":
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else { throw UsageError(name == "--ipc" ? "--ipc needs a socket path" : "--player needs a name or a PID") }
                    value = arguments[index]
                    index += 1
                }
                guard !value.isEmpty else { throw UsageError(name == "--ipc" ? "--ipc needs a socket path" : "--player needs a name or a PID") }
                if name == "--ipc" { options.ipcPath = value } else { options.player = value }
            default:
                throw UsageError("unknown option '\(name)' (ctl's options come before the command: --ipc PATH, --player NAME|PID, --json, --timeout S)")
            }
            if name == "--" { break }
        }
        if options.ipcPath != nil && options.player != nil { throw UsageError("ctl takes --ipc PATH or --player NAME|PID, not both") }
        if let player = options.player, !player.allSatisfy(\.isNumber), let problem = ControlSocket.problem(withName: player) {
            throw UsageError("--player \(problem)")
        }
        options.words = Array(arguments[index...])
        guard let command = options.words.first else {
            throw UsageError("ctl needs a command: get PROPERTY, set PROPERTY VALUE, pause, seek 30, next, watch, wait end-file, …")
        }
        if let problem = CtlCommand.check(options.words) { throw UsageError("ctl \(command): \(problem)") }
        return options
    }
}
