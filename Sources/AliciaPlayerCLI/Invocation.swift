#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaCache
import AliciaSession
import AliciaLocks
import AliciaLibrary
import AliciaHost

/// What the command line asks for.
public enum Invocation: Equatable, Sendable {
    /// The usage: of one command (`help play`, `play --help`), or the whole of it (nil).
    case help(command: String?)
    case version
    case play(PlayOptions)
    /// `script FILE` (`--check`: only check it).
    case script(path: String, check: Bool, PlayOptions)
    case tracks(json: Bool, backend: BackendOptions)
    case playlists(json: Bool, backend: BackendOptions)
    /// `playlist create|rename|delete|add|remove|move …`: the action and its arguments.
    case playlist([String], backend: BackendOptions)
    case notes(reference: String, backend: BackendOptions)
    case demo(PlayOptions, DemoOptions)
    case voice(PlayOptions)
    case chat(ChatOptions)
    /// `download REF… [--queue FILE] [--pin] [--rate LIMIT]`: episodes and playlists into the cache.
    case download(DownloadOptions)
    /// `cache`, `cache --max-size SIZE`, `cache clear [REF…]`.
    case cache(CacheOptions)
    /// `ctl [--ipc PATH] [--json] COMMAND ARGS…`: one command to a running player.
    case ctl(CtlOptions)
    /// `config`, `config --path`, `config set KEY VALUE`.
    case config(ConfigAction, backend: BackendOptions)
    /// The interactive Studio over the configured backend; `implicit` when no
    /// command was given at all.
    case studio(PlayOptions, implicit: Bool)
}

/// What `alicia-player config` does.
public enum ConfigAction: Equatable, Sendable {
    /// The effective configuration and where each value came from.
    case show
    /// The config file's path.
    case path
    /// Sets a key in the config file (creating it, mode 0600).
    case set(key: String, value: String)
}

/// Options of `alicia-player ctl`.
public struct CtlOptions: Equatable, Sendable {
    /// The socket (nil: the default one).
    public var ipcPath: String?
    /// Print the raw reply (and events) as JSON lines.
    public var json = false
    /// The command and its arguments, as typed.
    public var words: [String]
}

/// Options of `alicia-player download`.
public struct DownloadOptions: Equatable, Sendable {
    /// Episodes (label, index, title piece) and `playlist:NAME`.
    public var references: [String]
    /// `--queue FILE` (repeatable): every episode of a queue file.
    public var queueFiles: [String] = []
    /// `--pin`: never evicted, only removed by hand.
    public var pin = false
    /// `--rate LIMIT`: bytes per second for the whole download, nil for no limit.
    public var rate: Int64?
    public var backend = BackendOptions()
}

/// Options of `alicia-player cache`.
public struct CacheOptions: Equatable, Sendable {
    /// `cache clear [REF…]`.
    public var clear = false
    public var references: [String] = []
    /// `--max-size SIZE`, as typed (checked).
    public var maxSize: String?
}

/// Options of `alicia-player chat`.
public struct ChatOptions: Equatable, Sendable {
    public var text: String
    public var voice = false
    public var react: String?
    public var device: String?
    /// `--volume`: percent as mixers show it (nil: 100).
    public var volume: Double?
    public var backend = BackendOptions()
}

/// Options of `alicia-player demo` beyond the playing ones.
public struct DemoOptions: Equatable, Sendable {
    /// `--serve`: the backend alone, until a signal, with its address and token printed for a shell.
    public var serve = false
    /// `--port`: nil for a free port.
    public var port: Int?
    /// `--token`: nil for a random one.
    public var token: String?

    public init(serve: Bool = false, port: Int? = nil, token: String? = nil) {
        self.serve = serve
        self.port = port
        self.token = token
    }
}

/// A command line that cannot be run: said in one line, then where the usage is; exit status 2.
public struct UsageError: Error, Equatable, Sendable {
    public let message: String
    /// The command it is about, when it has a usage of its own (for `Try 'alicia-player play --help'.`).
    public let command: String?

    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// The message as said: after the command's name (`play: unknown option '--bogus'`) unless it
    /// begins with it already (`play needs a URL or a path`).
    public var line: String {
        guard let command, command != "help", !message.hasPrefix(command + " ") else { return message }
        return command + ": " + message
    }

    /// The line after the message.
    public var hint: String {
        "Try 'alicia-player \(command.map { $0 + " " } ?? "")--help'."
    }
}

extension Invocation {
    public static let usage = """
        Usage: alicia-player [studio]
               alicia-player play <ref>... [--loop] [--shuffle] [--start T] [--speed X] [--volume N] [--device SINK]
               alicia-player queue <file>... [--loop] [--shuffle] [--keep-going] [--save FILE]
               alicia-player script <file> [--check]
               alicia-player playlists [--json] | playlist ACTION ...
               alicia-player tracks [--json]
               alicia-player notes <ref>
               alicia-player demo [--device SINK] | demo --serve [--port N] [--token TOKEN]
               alicia-player voice <ref> [--volume N] [--device SINK]
               alicia-player chat "text" [--voice] [--react EMOJI] [--volume N]
               alicia-player ctl [--ipc PATH] [--json] COMMAND [ARGS...]
               alicia-player download <ref>... [--queue FILE] [--pin] [--rate LIMIT]
               alicia-player cache [--max-size SIZE] | cache clear [REF...]
               alicia-player config [--path] | config set KEY VALUE
               alicia-player help [COMMAND] | COMMAND --help | --version

        Plays Alicia's episodes and voice notes, or any WAV, FLAC, Ogg or MP3 file, streaming with
        HTTP Range requests. A <ref> is a URL (http, https, file), a path, an episode label (S11E04),
        an index from `tracks` (3), or a piece of a title.

        Commands:
          studio                 the interactive Studio (the default with a backend configured):
                                 the library, a now-playing panel, Alicia's replies; press ? for keys
          play <ref>...          play to the end, one after another without a gap (on a terminal, in
                                 the Studio; Ctrl-C stops)
          queue <file>...        play lists: M3U/M3U8 or one reference a line (a URL, a path relative
                                 to the list, an episode, voice:REF); - reads standard input
          script <file>          run a playback script, one command a line (play, append, next, previous,
                                 pause, resume, toggle, seek, volume, speed, voice, say, wait, echo,
                                 status, quit); the whole script is checked first; --check only checks
          playlists              list Alicia's playlists; play one with play playlist:NAME
          playlist ACTION ...    create NAME, rename NAME NEW, delete NAME, add NAME REF, remove NAME ITEM,
                                 move NAME ITEM POSITION
          tracks                 list the backend's episodes by collection; --json for scripts
          notes <ref>            print an episode's show notes
          demo                   start a demo backend on this machine and play its library;
                                 --serve runs it alone and prints the lines that point a shell at it
          voice <ref>            play one voice note (a URL, a path, or a media path like /api/audio/voice-1.wav)
          chat "text"            send Alicia a message and print her reply as it streams in;
                                 --voice asks for a voice note too and plays it; --react EMOJI reacts to the reply
          download <ref>...      download episodes (or playlist:NAME, --queue FILE) to play offline,
                                 at most 2 at once; an interrupted one resumes; --pin keeps it
          cache                  what is downloaded (title, size, played); --max-size 2G sets the
                                 bound (default 2G); cache clear [REF] removes
          ctl COMMAND ...        control the player that is running: get time-pos, pause, seek 30, next,
                                 watch, wait end-file, ... (its socket speaks mpv's JSON IPC; MPRIS too)
          config                 print the effective configuration and where each value came from;
                                 --path prints the file's path; set KEY VALUE edits it

        Options:
          --loop                 (play, queue) start the queue again after its last item
          --shuffle              (play, queue) shuffle the queue once before it plays
          --keep-going           (queue) skip lines that cannot be played, with a warning
          --save FILE            (queue) write the queue as M3U8 (episodes by label) instead of playing
          --from-start           (play, studio, demo) every episode from its beginning, not where
                                 it was left (positions are kept in ~/.local/state/alicia-player)
          --start T              begin at T: seconds (90), m:ss, h:mm:ss or a percentage (50%)
          --speed X              (play, studio, demo) play X times as fast, 0.5 to 3 (1.5, or 1.5x);
                                 the pitch stays; in the Studio [ and ] change it
          --device SINK          the PulseAudio sink to play to (see: pactl list short sinks)
          --read-ahead SECONDS   audio to fetch ahead of playback (default 10, at most 4 MiB)
          --voice-at T=REF       (play) at position T of the episode, play the voice note REF; repeatable
          --voice-focus MODE     what the episode does during a voice note: pause (default; resumes at
                                 the exact frame), duck (12 dB lower), or mix
          --resume-rewind S      (play) step back S seconds when the episode resumes after a note
          --quiet                (studio, demo) no status lines when stdout is not a terminal
          --give-up-after T      how long to retry a server that stopped answering (default 2m; 0 never)
          --stall-timeout S      a transfer silent this long is dropped and made again (default 10)
          --cacert FILE          a CA bundle to trust for HTTPS (a private CA)
          --ipc PATH             (play, queue, script, studio, demo) the control socket's path (default
                                 $XDG_RUNTIME_DIR/alicia-player/socket); --no-ipc for none
          --volume N             volume in percent, 0 to 150, as mixers show it (default 100)
          --skip-silence[=LEVEL] (play, queue, script, studio, demo) shorten pauses: mild, medium (the
                                 default), strong or off; in the Studio s cycles them
          --loudness off|TARGET  (every command that plays) match every item's loudness to TARGET LUFS
                                 (default -16, or ALICIA_LOUDNESS), true peaks under -1 dBTP
          --auto-download N      (play, queue, script, studio) while playing, download the next N queue
                                 items into the cache, within its bound (or auto_download = N in the config)
          --sleep 30m|end|N      (play, queue, script, studio, demo) fade out over 10 s and pause after
                                 30 minutes of playing (90s, 1h), at the end of the item, or after N
                                 items; off the Studio the command then exits 0; in the Studio z cycles
          --base-url URL         Alicia's backend, e.g. http://alicia.local:8766 (or ALICIA_BASE_URL)
          --token TOKEN          the backend's token (or ALICIA_TOKEN, or --token-file PATH)
          -h, --help             show this help; `alicia-player help COMMAND` shows a command's
          -V, --version          show the version

        Configuration: flags, then ALICIA_BASE_URL / ALICIA_TOKEN, then the file
        $XDG_CONFIG_HOME/alicia/config (default ~/.config/alicia/config) with lines
        `base_url = http://host:8766` and `token = …` (keep it chmod 600).
        While playing, the progress shows on stderr when it is a terminal.
        Environment: PULSE_SERVER (the PulseAudio server), ALICIA_LOG=info|debug (diagnostics
        on stderr), ALICIA_LOG_FILE=PATH (diagnostics to a file), ALICIA_LOUDNESS=off|TARGET (the
        default of --loudness).
        """

    /// Options that take a value.
    private static let valued: Set<String> = ["--start", "--speed", "--sleep", "--loudness", "--device", "--read-ahead", "--base-url", "--token", "--token-file",
                                              "--voice-at", "--voice-focus", "--resume-rewind", "--react", "--volume", "--port", "--save",
                                              "--ipc", "--give-up-after", "--stall-timeout", "--cacert", "--queue", "--rate", "--max-size",
                                              "--auto-download"]
    /// Options whose value, if any, is only ever written `--name=value` (so `--skip-silence
    /// talk.mp3` plays talk.mp3).
    private static let optionallyValued: Set<String> = ["--skip-silence"]
    /// Options without a value.
    private static let flags: Set<String> = ["--json", "--voice", "--quiet", "--loop", "--shuffle", "--serve", "--from-start",
                                             "--keep-going", "--check", "--no-ipc", "--pin", "--path",
                                             "-h", "--help", "-V", "--version"]

    /// Parses the arguments after the program name. An error names the command it is about, when
    /// that command has a usage of its own.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        do {
            return try parseArguments(arguments)
        } catch {
            let command = arguments.first { CommandUsage.text(for: $0) != nil }
            throw UsageError(error.message, command: command)
        }
    }

    private static func parseArguments(_ arguments: [String]) throws(UsageError) -> Invocation {
        if arguments.first == "ctl" { return try parseCtl(Array(arguments.dropFirst())) }
        var options: [String: String] = [:]
        var voiceAt: [String] = []
        var queueFiles: [String] = []
        var seen: [String] = []
        var positionals: [String] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !optionsEnded, argument.hasPrefix("-"), argument.count > 1 else {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let (name, inline) = splitOption(argument)
            if optionallyValued.contains(name) {
                options[name] = inline ?? ""
            } else if flags.contains(name) {
                if inline != nil { throw UsageError("\(name) takes no value") }
                options[name] = ""
            } else if valued.contains(name) {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    value = arguments[index]
                    // `--base-url --token x`: the next option is not the value of this one.
                    if value.hasPrefix("--") && value.count > 2 {
                        throw UsageError("\(name) needs a value, not the option '\(value)' (write \(name)=\(value) if that is the value)")
                    }
                    index += 1
                }
                options[name] = value
                if name == "--voice-at" { voiceAt.append(value) }
                if name == "--queue" { queueFiles.append(value) }
            } else {
                throw UsageError("unknown option '\(name)'")
            }
            seen.append(name)
        }
        if options["-h"] != nil || options["--help"] != nil {
            let command = positionals.first.flatMap { CommandUsage.text(for: $0) != nil ? $0 : nil }
            return .help(command: command == "help" ? positionals.dropFirst().first.flatMap { CommandUsage.text(for: $0) != nil ? $0 : nil } : command)
        }
        if options["-V"] != nil || options["--version"] != nil { return .version }
        guard let command = positionals.first else {
            guard seen.allSatisfy({ ["--base-url", "--token", "--token-file", "--device", "--quiet", "--volume", "--speed", "--ipc", "--no-ipc"].contains($0) }) else {
                throw UsageError("no command given (studio, play, queue, script, playlists, playlist, tracks, notes, demo, voice, chat or config)")
            }
            var studio = try playOptions(reference: "", options)
            studio.backend = BackendOptions(baseURL: options["--base-url"], token: options["--token"], tokenFile: options["--token-file"])
            return .studio(studio, implicit: true)
        }
        let rest = Array(positionals.dropFirst())
        let backend = BackendOptions(baseURL: options["--base-url"], token: options["--token"], tokenFile: options["--token-file"])

        func allow(_ allowed: Set<String>) throws(UsageError) {
            if let stray = seen.first(where: { !allowed.contains($0) }) {
                throw UsageError("\(command) does not take \(stray)")
            }
        }
        let backendOptions: Set<String> = ["--base-url", "--token", "--token-file"]
        let playbackOptions: Set<String> = ["--start", "--speed", "--device", "--read-ahead", "--volume", "--from-start", "--ipc", "--no-ipc",
                                            "--give-up-after", "--stall-timeout", "--cacert", "--skip-silence", "--sleep", "--loudness",
                                            "--auto-download"]
        let voiceOptions: Set<String> = ["--voice-at", "--voice-focus", "--resume-rewind"]

        switch command {
        case "play":
            try allow(backendOptions.union(playbackOptions).union(voiceOptions).union(["--loop", "--shuffle"]))
            guard !rest.isEmpty else { throw UsageError("play needs a URL or a path") }
            var play = try playOptions(reference: "", options)
            play.references = rest
            play.loop = options["--loop"] != nil
            play.shuffle = options["--shuffle"] != nil
            play.backend = backend
            play.voiceAt = try voiceAt.map { (text) throws(UsageError) -> VoiceTrigger in try trigger(text) }
            return .play(play)
        case "queue":
            try allow(backendOptions.union(playbackOptions).union(["--loop", "--shuffle", "--keep-going", "--save"]))
            guard !rest.isEmpty else { throw UsageError("queue needs a list file (or - for standard input)") }
            var play = try playOptions(reference: "", options)
            play.references = rest
            play.referencesAreLists = true
            play.loop = options["--loop"] != nil
            play.shuffle = options["--shuffle"] != nil
            play.keepGoing = options["--keep-going"] != nil
            if let save = options["--save"] {
                guard !save.isEmpty else { throw UsageError("--save needs a file name") }
                play.saveQueue = save
            }
            play.backend = backend
            return .play(play)
        case "script":
            try allow(backendOptions.union(playbackOptions).union(voiceOptions).union(["--check", "--loop", "--shuffle"]))
            guard let path = rest.first else { throw UsageError("script needs a script file (or - for standard input)") }
            guard rest.count == 1 else { throw UsageError("script takes one file, got '\(rest[1])' too") }
            var play = try playOptions(reference: "", options)
            play.loop = options["--loop"] != nil
            play.shuffle = options["--shuffle"] != nil
            play.backend = backend
            return .script(path: path, check: options["--check"] != nil, play)
        case "help":
            try allow([])
            guard rest.count <= 1 else { throw UsageError("help takes one command, got '\(rest[1])' too") }
            guard let name = rest.first else { return .help(command: nil) }
            guard CommandUsage.text(for: name) != nil else { throw UsageError("no command '\(name)': the commands are \(commandNames)") }
            return .help(command: name)
        case "voice":
            try allow(backendOptions.union(["--device", "--read-ahead", "--volume", "--loudness"]))
            guard let reference = rest.first else { throw UsageError("voice needs a URL, a path or a media path") }
            guard rest.count == 1 else { throw UsageError("voice takes one note, got '\(rest[1])' too") }
            var play = try playOptions(reference: reference, options)
            play.backend = backend
            return .voice(play)
        case "chat":
            try allow(backendOptions.union(["--voice", "--react", "--device", "--voice-focus", "--volume"]))
            guard let text = rest.first, !text.trimmingWhitespace().isEmpty else { throw UsageError("chat needs a message: alicia-player chat \"hello\"") }
            guard rest.count == 1 else { throw UsageError("chat takes one message (quote it), got '\(rest[1])' too") }
            var chat = ChatOptions(text: text)
            chat.voice = options["--voice"] != nil
            chat.react = options["--react"]
            if let react = chat.react, react.isEmpty { throw UsageError("--react needs an emoji") }
            chat.device = options["--device"]
            chat.volume = try playOptions(reference: "", options).volume
            chat.backend = backend
            return .chat(chat)
        case "playlists":
            try allow(backendOptions.union(["--json"]))
            guard rest.isEmpty else { throw UsageError("playlists takes no arguments, got '\(rest[0])'") }
            return .playlists(json: options["--json"] != nil, backend: backend)
        case "playlist":
            try allow(backendOptions)
            let arities = ["create": 1, "rename": 2, "delete": 1, "add": 2, "remove": 2, "move": 3]
            guard let action = rest.first else {
                throw UsageError("playlist needs an action: create, rename, delete, add, remove or move")
            }
            guard let arity = arities[action] else {
                throw UsageError("playlist \(action) is not an action: create, rename, delete, add, remove or move")
            }
            let words: [String: String] = ["create": "NAME", "rename": "NAME NEW", "delete": "NAME", "add": "NAME REF",
                                           "remove": "NAME ITEM", "move": "NAME ITEM POSITION"]
            guard rest.count - 1 == arity else { throw UsageError("playlist \(action) takes \(words[action]!)") }
            if action == "move", (Int(rest[3]) ?? 0) < 1 {
                throw UsageError("playlist move: '\(rest[3])' is not a position (1 is the first)")
            }
            if rest.dropFirst().contains(where: { $0.isEmpty }) { throw UsageError("playlist \(action): a name cannot be empty") }
            return .playlist(Array(rest), backend: backend)
        case "tracks":
            try allow(backendOptions.union(["--json"]))
            guard rest.isEmpty else { throw UsageError("tracks takes no arguments, got '\(rest[0])'") }
            return .tracks(json: options["--json"] != nil, backend: backend)
        case "download":
            try allow(backendOptions.union(["--queue", "--pin", "--rate"]))
            guard !rest.isEmpty || !queueFiles.isEmpty else {
                throw UsageError("download needs an episode (a label, an index, a title), playlist:NAME or --queue FILE")
            }
            var download = DownloadOptions(references: rest)
            download.queueFiles = queueFiles
            download.pin = options["--pin"] != nil
            if let text = options["--rate"] {
                let number = text.lowercased().hasSuffix("/s") ? String(text.dropLast(2)) : text
                guard let rate = ByteSize.parse(number), rate >= 1024 else {
                    throw UsageError("--rate '\(text)' is not a rate of at least 1k a second (e.g. 500k, 2M)")
                }
                download.rate = rate
            }
            download.backend = backend
            return .download(download)
        case "cache":
            try allow(["--max-size"])
            var cache = CacheOptions()
            if let first = rest.first {
                guard first == "clear" else { throw UsageError("cache \(first) is not an action: cache, cache --max-size SIZE, cache clear [REF]") }
                guard options["--max-size"] == nil else { throw UsageError("cache clear does not take --max-size") }
                cache.clear = true
                cache.references = Array(rest.dropFirst())
            }
            if let size = options["--max-size"] {
                guard ByteSize.parse(size) != nil else {
                    throw UsageError("--max-size '\(size)' is not a size (e.g. 2G, 500M)")
                }
                cache.maxSize = size
            }
            return .cache(cache)
        case "notes":
            try allow(backendOptions)
            guard let reference = rest.first else { throw UsageError("notes needs an episode: a label, an index or a title") }
            guard rest.count == 1 else { throw UsageError("notes takes one episode, got '\(rest[1])' too") }
            return .notes(reference: reference, backend: backend)
        case "config":
            guard rest.first != "set" else {
                try allow([])
                guard rest.count == 3 else { throw UsageError("config set takes KEY VALUE (\(configKeys))") }
                return .config(.set(key: rest[1], value: rest[2]), backend: backend)
            }
            try allow(backendOptions.union(["--path"]))
            guard rest.isEmpty else { throw UsageError("config takes no arguments but set KEY VALUE, got '\(rest[0])'") }
            return .config(options["--path"] != nil ? .path : .show, backend: backend)
        case "studio":
            try allow(backendOptions.union(["--speed", "--volume", "--device", "--read-ahead", "--voice-focus", "--resume-rewind", "--quiet",
                                            "--from-start", "--ipc", "--no-ipc", "--give-up-after", "--stall-timeout", "--cacert",
                                            "--skip-silence", "--sleep", "--loudness", "--auto-download"]))
            guard rest.isEmpty else { throw UsageError("studio takes no arguments, got '\(rest[0])'") }
            var studio = try playOptions(reference: "", options)
            studio.backend = backend
            return .studio(studio, implicit: false)
        case "demo":
            let server: Set<String> = ["--serve", "--port", "--token"]
            if options["--serve"] != nil {
                if let stray = seen.first(where: { !server.contains($0) }) { throw UsageError("demo --serve does not take \(stray)") }
            } else {
                try allow(server.union(["--speed", "--volume", "--device", "--read-ahead", "--voice-focus", "--resume-rewind", "--quiet", "--from-start",
                                        "--ipc", "--no-ipc", "--give-up-after", "--stall-timeout", "--skip-silence", "--sleep", "--loudness"]))
            }
            guard rest.isEmpty else { throw UsageError("demo takes no arguments, got '\(rest[0])'") }
            var demo = DemoOptions(serve: options["--serve"] != nil)
            if let text = options["--port"] {
                guard let port = Int(text), (1...65535).contains(port) else {
                    throw UsageError("--port '\(text)' is not a port from 1 to 65535")
                }
                demo.port = port
            }
            if let token = options["--token"] {
                // It travels in a header: the demo backend's own rule.
                guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                    throw UsageError("--token for the demo must be printable ASCII without spaces")
                }
                demo.token = token
            }
            return .demo(try playOptions(reference: "", options), demo)
        default:
            throw UsageError("unknown command '\(command)': the commands are \(commandNames)")
        }
    }

    private static func playOptions(reference: String, _ options: [String: String]) throws(UsageError) -> PlayOptions {
        var play = PlayOptions(reference: reference)
        if let text = options["--start"] {
            guard let parsed = TimeSpec.parse(text) else {
                throw UsageError("--start '\(text)' is not a time: use seconds (90), m:ss, h:mm:ss or a percentage (50%)")
            }
            play.start = parsed
            play.startText = text
        }
        if let text = options["--speed"] {
            let number = text.hasSuffix("x") || text.hasSuffix("×") ? String(text.dropLast()) : text
            guard let speed = Double(number), Player.speedRange.contains(speed) else {
                throw UsageError("--speed '\(text)' is not a speed from 0.5 to 3 (1 is as recorded)")
            }
            play.speedGiven = speed
        }
        if let text = options["--volume"] {
            let number = text.hasSuffix("%") ? String(text.dropLast()) : text
            guard let percent = Double(number), VolumeScale.percentRange.contains(percent) else {
                throw UsageError("--volume '\(text)' is not a percentage from 0 to 150 (100 is as recorded)")
            }
            play.volume = percent
        }
        if let device = options["--device"] {
            guard !device.isEmpty else { throw UsageError("--device needs a sink name") }
            play.device = device
        }
        play.quiet = options["--quiet"] != nil
        if let path = options["--ipc"] {
            guard !path.isEmpty else { throw UsageError("--ipc needs a socket path") }
            guard options["--no-ipc"] == nil else { throw UsageError("--ipc and --no-ipc cannot go together") }
            play.ipcPath = path
        }
        play.noIPC = options["--no-ipc"] != nil
        if let text = options["--give-up-after"] {
            guard let seconds = duration(text), seconds >= 0 else {
                throw UsageError("--give-up-after '\(text)' is not a time: seconds (90), m:ss, or 2m; 0 never gives up")
            }
            play.network.giveUpAfter = seconds
        }
        if let text = options["--stall-timeout"] {
            guard let seconds = Double(text.hasSuffix("s") ? String(text.dropLast()) : text), seconds >= 1, seconds <= 600 else {
                throw UsageError("--stall-timeout '\(text)' is not a number of seconds from 1 to 600")
            }
            play.network.stallTimeout = seconds
        }
        if let path = options["--cacert"] {
            guard !path.isEmpty, access(path, R_OK) == 0 else {
                throw UsageError("--cacert '\(path)' is not a readable file (a PEM bundle of CA certificates)")
            }
            play.network.caFile = path
        }
        if let level = options["--skip-silence"] {
            // Bare, the middle level: noticeably shorter pauses, still far from the gaps between words.
            guard let parsed = level.isEmpty ? .medium : SilenceSkipping(rawValue: level) else {
                throw UsageError("--skip-silence '\(level)' is not mild, medium, strong or off")
            }
            play.skipSilence = parsed
        }
        if let text = options["--sleep"] {
            guard let timer = sleepTimer(text) else {
                throw UsageError("--sleep '\(text)' is not a time (30m, 1h, 90s), end (of the item) or a number of items")
            }
            play.sleep = timer
        }
        if let text = options["--auto-download"] {
            guard let count = AutoDownloader.parse(text) else {
                throw UsageError("--auto-download '\(text)' is not a number of queue items from 0 to \(AutoDownloader.maximum) (0 is none)")
            }
            play.autoDownload = count
        }
        if let text = options["--loudness"] {
            guard let matching = loudness(text) else {
                throw UsageError("--loudness '\(text)' is not off or a target from -40 to -5 (LUFS; -16 is usual for speech)")
            }
            play.loudness = matching
        }
        play.fromStart = options["--from-start"] != nil
        if let mode = options["--voice-focus"] {
            switch mode {
            case "pause": play.voiceFocus = .pause
            case "duck": play.voiceFocus = .duck(decibels: -12)
            case "mix": play.voiceFocus = .mix
            default: throw UsageError("--voice-focus '\(mode)' is not pause, duck or mix")
            }
        }
        if let text = options["--resume-rewind"] {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 600 else {
                throw UsageError("--resume-rewind '\(text)' is not a number of seconds between 0 and 600")
            }
            play.noteRewind = seconds
        }
        if let text = options["--read-ahead"] {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 600 else {
                throw UsageError("--read-ahead '\(text)' is not a number of seconds more than 0 and at most 600")
            }
            play.readAheadSeconds = seconds
        }
        return play
    }

    /// `30m`, `1.5h`, `90s`, `45min`: playing time; `end`: the end of the item; `N`: the end of
    /// the Nth item (this one is the first); `off` or 0: none.
    static func sleepTimer(_ text: String) -> SleepTimer? {
        if text == "end" { return .endOfEntries(1) }
        if text == "off" { return .off }
        if let count = Int(text), count >= 0 { return count == 0 ? .off : .endOfEntries(count) }
        let units: [(suffix: String, seconds: Double)] = [("min", 60), ("s", 1), ("m", 60), ("h", 3600)]
        for unit in units where text.hasSuffix(unit.suffix) {
            // At most a day: a timer longer than that is a typo.
            guard let number = Double(text.dropLast(unit.suffix.count)), number.isFinite, number > 0,
                  number * unit.seconds <= 86_400 else { return nil }
            return .after(seconds: number * unit.seconds)
        }
        return nil
    }

    /// `off`, or a target loudness in LUFS from −40 to −5 (`-16`, `-16LUFS`).
    public static func loudness(_ text: String) -> LoudnessMatching? { LevelText.loudness(text) }

    /// The commands, for an unknown one.
    static let commandNames = "studio, play, queue, script, playlists, playlist, tracks, notes, download, cache, demo, voice, chat, ctl, config and help"

    /// The keys `config set` takes.
    static let configKeys = "base_url, token, token_file, cache_max_size or auto_download"

    /// `T=REF`: a time (as `--start` takes it) and a voice note; the reference may hold `=` itself.
    private static func trigger(_ text: String) throws(UsageError) -> VoiceTrigger {
        guard let equals = text.firstIndex(of: "=") else {
            throw UsageError("--voice-at '\(text)' is not T=URL (e.g. --voice-at 1:30=http://host/note.wav)")
        }
        let time = String(text[..<equals])
        let reference = String(text[text.index(after: equals)...])
        guard let at = TimeSpec.parse(time) else {
            throw UsageError("--voice-at '\(time)' is not a time: use seconds (90), m:ss, h:mm:ss or a percentage (50%)")
        }
        guard !reference.isEmpty else { throw UsageError("--voice-at \(time)= needs a voice note after the =") }
        return VoiceTrigger(at: at, reference: reference)
    }

    /// `ctl`: its options come before the command; what follows is the command's own (`seek -10`).
    private static func parseCtl(_ arguments: [String]) throws(UsageError) -> Invocation {
        var options = CtlOptions(words: [])
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-"), arguments[index].count > 1 {
            let (name, inline) = splitOption(arguments[index])
            index += 1
            switch name {
            case "-h", "--help": return .help(command: "ctl")
            case "--json": options.json = true
            case "--": break
            case "--ipc":
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else { throw UsageError("--ipc needs a socket path") }
                    value = arguments[index]
                    index += 1
                }
                guard !value.isEmpty else { throw UsageError("--ipc needs a socket path") }
                options.ipcPath = value
            default:
                throw UsageError("unknown option '\(name)' (ctl's options come before the command: --ipc PATH, --json)")
            }
            if name == "--" { break }
        }
        options.words = Array(arguments[index...])
        guard let command = options.words.first else {
            throw UsageError("ctl needs a command: get PROPERTY, set PROPERTY VALUE, pause, seek 30, next, watch, wait end-file, …")
        }
        if let problem = CtlCommand.check(options.words) { throw UsageError("ctl \(command): \(problem)") }
        return .ctl(options)
    }

    /// A span of time: `90`, `90s`, `2m`, `1h`, `1:30`.
    static func duration(_ text: String) -> Double? {
        let units: [(String, Double)] = [("min", 60), ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (unit, scale) in units where text.hasSuffix(unit) {
            guard let number = Double(text.dropLast(unit.count)), number.isFinite else { return nil }
            return number * scale
        }
        if case .seconds(let seconds)? = TimeSpec.parse(text) { return seconds }
        return nil
    }

    /// `--name=value` → (`--name`, `value`).
    private static func splitOption(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
