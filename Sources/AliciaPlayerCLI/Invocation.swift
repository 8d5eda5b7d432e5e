import AliciaAudio

/// What the command line asks for.
public enum Invocation: Equatable, Sendable {
    case help
    case version
    case play(PlayOptions)
}

/// Options of `alicia-player play`.
public struct PlayOptions: Equatable, Sendable {
    public var reference: String
    public var start: StartPosition?
    /// As typed, for messages.
    public var startText: String?
    public var device: String?
    public var readAheadSeconds: Double = 10

    public init(reference: String) {
        self.reference = reference
    }
}

/// A command line that cannot be run: said in one line, exit status 2.
public struct UsageError: Error, Equatable, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

extension Invocation {
    public static let usage = """
        Usage: alicia-player play <url|path> [--start T] [--device SINK] [--read-ahead SECONDS]
               alicia-player --help | --version

        Plays Alicia's episodes and voice notes, or any WAV, FLAC, Ogg or MP3 file,
        from an http(s):// or file:// URL or a local path, streaming with Range requests.

        Options:
          --start T              begin at T: seconds (90), m:ss, h:mm:ss or a percentage (50%)
          --device SINK          the PulseAudio sink to play to (see: pactl list short sinks)
          --read-ahead SECONDS   audio to fetch ahead of playback (default 10, at most 4 MiB)
          -h, --help             show this help
          -V, --version          show the version

        While playing, the progress shows on stderr when it is a terminal. Ctrl-C stops.
        Environment: PULSE_SERVER (the PulseAudio server), ALICIA_LOG=info|debug (diagnostics
        on stderr), ALICIA_LOG_FILE=PATH (diagnostics to a file).
        """

    /// Parses the arguments after the program name.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else { throw UsageError("no command given") }
        switch first {
        case "-h", "--help", "help": return .help
        case "-V", "--version": return .version
        case "play": return .play(try parsePlay(Array(arguments.dropFirst())))
        default:
            if first.hasPrefix("-") { throw UsageError("unknown option '\(first)'") }
            throw UsageError("unknown command '\(first)'")
        }
    }

    private static func parsePlay(_ arguments: [String]) throws(UsageError) -> PlayOptions {
        var reference: String?
        var start: (StartPosition, String)?
        var device: String?
        var readAhead: Double?
        var index = 0
        var optionsEnded = false

        func value(for option: String, inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw UsageError("\(option) needs a value") }
            return arguments[index]
        }

        while index < arguments.count {
            let argument = arguments[index]
            if !optionsEnded && argument.hasPrefix("-") && argument.count > 1 {
                if argument == "--" {
                    optionsEnded = true
                    index += 1
                    continue
                }
                let (name, inline) = splitOption(argument)
                switch name {
                case "--start":
                    let text = try value(for: name, inline: inline)
                    guard let parsed = TimeSpec.parse(text) else {
                        throw UsageError("--start '\(text)' is not a time: use seconds (90), m:ss, h:mm:ss or a percentage (50%)")
                    }
                    start = (parsed, text)
                case "--device":
                    let text = try value(for: name, inline: inline)
                    guard !text.isEmpty else { throw UsageError("--device needs a sink name") }
                    device = text
                case "--read-ahead":
                    let text = try value(for: name, inline: inline)
                    guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 600 else {
                        throw UsageError("--read-ahead '\(text)' is not a number of seconds between 0 and 600")
                    }
                    readAhead = seconds
                case "-h", "--help":
                    throw UsageError("--help goes first: alicia-player --help")
                default:
                    throw UsageError("unknown option '\(name)'")
                }
            } else {
                guard reference == nil else { throw UsageError("play takes one URL or path, got '\(argument)' too") }
                reference = argument
            }
            index += 1
        }
        guard let reference else { throw UsageError("play needs a URL or a path") }
        var options = PlayOptions(reference: reference)
        options.start = start?.0
        options.startText = start?.1
        options.device = device
        if let readAhead { options.readAheadSeconds = readAhead }
        return options
    }

    /// `--name=value` → (`--name`, `value`).
    private static func splitOption(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
