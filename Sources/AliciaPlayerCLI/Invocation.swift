#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaCache
import AliciaControl
import AliciaControlClient
import AliciaDemoBackend
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
    case tracks(json: Bool, words: Bool, backend: BackendOptions)
    case playlists(json: Bool, backend: BackendOptions)
    /// `playlist create|rename|delete|add|remove|move …`: the action and its arguments.
    case playlist([String], json: Bool, backend: BackendOptions)
    case notes(reference: String, backend: BackendOptions)
    case demo(PlayOptions, DemoOptions)
    case voice(PlayOptions)
    case chat(ChatOptions)
    /// `messages`, and `chat` with no message: her proactive messages.
    case messages(json: Bool, backend: BackendOptions)
    case reply(id: String, text: String, backend: BackendOptions)
    case react(id: String, emoji: String, backend: BackendOptions)
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
    /// `subscribe`, `unsubscribe`, `shows`, `refresh`, `episodes`, `export`: podcasts from feeds.
    case podcasts(PodcastCommand)
    /// `watch [--once] [--interval DURATION]`: her messages and new episodes as desktop notifications.
    case watch(WatchOptions)
    /// `sync [setup URL --user NAME [--device ID] | status]`: positions and subscriptions with a gpodder.net-API server.
    case sync(SyncOptions)
    /// `render REF… -o FILE`: the queue played into a file, with a chapter per item.
    case render(PlayOptions, RenderOptions)
    /// `play` without arguments on a terminal: the Studio on the queue last left (against the
    /// configured backend, or the local one without a backend), paused at its position.
    case continueListening(PlayOptions)
}

/// What `alicia-player config` does.
public enum ConfigAction: Equatable, Sendable {
    /// The effective configuration and where each value came from.
    case show
    /// The config file's path.
    case path
    /// Sets a key in the config file (creating it, mode 0600).
    case set(key: String, value: String)
    /// Prints one key's effective value (the token as `***` unless revealed, and then only to a terminal).
    case get(key: String, reveal: Bool = false)
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
    /// Only failures said (`refresh --quiet --download N`): no progress, no line per file.
    public var quiet = false
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
    /// `--voicing S,S,…`: `/api/speak` voices a text in time, chunk n this many seconds after the
    /// first ask (nil: over three asks).
    public var voicing: [Double]?
    /// `--dialect`: the older API or Alicia 2.0 (the default).
    public var dialect: DemoBackend.Dialect = .v2

    public init(serve: Bool = false, port: Int? = nil, token: String? = nil, voicing: [Double]? = nil) {
        self.serve = serve
        self.port = port
        self.token = token
        self.voicing = voicing
    }
}

extension Invocation {
    static let usageHead = """
        Usage: alicia-player [studio]
               alicia-player play <ref>... [--loop] [--shuffle] [--start T] [--speed X] [--volume N] [--device SINK]
               alicia-player queue <file>... [--loop] [--shuffle] [--keep-going] [--save FILE]
               alicia-player script <file> [--check]
               alicia-player playlists [--json] | playlist ACTION ...
               alicia-player tracks [--json]
               alicia-player notes <ref>
               alicia-player demo [--device SINK] | demo --serve [--port N] [--token TOKEN] [--voicing S,S...] [--dialect v1|v2]
               alicia-player speak TEXT... | speak --file FILE | speak -
               alicia-player voice <ref> [--volume N] [--device SINK]
               alicia-player chat "text" [--voice] [--react EMOJI] [--volume N] | chat | messages [--json]
               alicia-player reply <id> TEXT... | react <id> EMOJI
               alicia-player ctl [--ipc PATH | --player NAME|PID] [--json] [--timeout S] COMMAND [ARGS...]
               alicia-player download <ref>... [--queue FILE] [--pin] [--rate LIMIT]
               alicia-player cache [--max-size SIZE] | cache clear [REF...]
               alicia-player config [--path] | config set KEY VALUE
               alicia-player subscribe <url|file>... | unsubscribe <show>... | shows [--json] | export
               alicia-player refresh [<show>...] [--quiet] [--download N] | episodes [<show>] [--new] [--json]
               alicia-player watch [--once] [--interval DURATION]
               alicia-player sync [setup URL --user NAME [--device ID] | status]
               alicia-player render <ref>... -o FILE [--speed X] [--skip-silence] [--bitrate K | --quality Q]
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
          script <file>          run a playback script, one command line a line, in the control socket's
                                 grammar (help commands lists it); the whole script is checked first;
                                 --check only checks
          playlists              list Alicia's playlists; play one with play playlist:NAME
          playlist ACTION ...    create NAME, rename NAME NEW, delete NAME, add NAME REF, remove NAME ITEM,
                                 move NAME ITEM POSITION
          tracks                 list the backend's episodes by collection; --json for scripts
          notes <ref>            print an episode's show notes
          demo                   start a demo backend on this machine and play its library;
                                 --serve runs it alone and prints the lines that point a shell at it
          speak TEXT...          read a text aloud through the backend (/api/speak), playing it as it
                                 is voiced; --file FILE or - reads the text from a file or stdin
          voice <ref>            play one voice note (a URL, a path, or a media path like /api/audio/voice-1.wav)
          chat "text"            send Alicia a message and print her reply as it streams in;
                                 --voice asks for a voice note too and plays it; --react EMOJI reacts to the reply
          messages               her own messages, newest first, each with its id (chat with no
                                 message too); --json for scripts
          reply <id> TEXT...     answer a message in which she asks you something
          react <id> EMOJI       react to one of her messages, or to a chat reply, by its id
          download <ref>...      download episodes (or playlist:NAME, --queue FILE) to play offline,
                                 at most 2 at once; an interrupted one resumes; --pin keeps it
          cache                  what is downloaded (title, size, played); --max-size 2G sets the
                                 bound (default 2G); cache clear [REF] removes
          ctl COMMAND ...        control the player that is running: get time-pos, pause, seek 30, next,
                                 watch, wait end-file, ... (its socket speaks mpv's JSON IPC; MPRIS too)
          config                 print the effective configuration and where each value came from;
                                 --path prints the file's path; set KEY VALUE edits it
          subscribe <url|file>...  subscribe to podcasts: a feed (RSS, Atom), a web page that names
                                 its feed, or an OPML list (a file or a URL)
          unsubscribe <show>...  forget a show (its title, a piece of it, its number or its URL)
          shows                  the subscribed shows with their episode and new counts; --json
          refresh [<show>...]    fetch every feed (or those named), politely and all at once; lists
                                 the new episodes; exit 1 if any feed failed; --quiet for cron
          episodes [<show>]      the episodes of every show (or one), newest first; --new only the
                                 new; --json for scripts; play one by its title or SHOW: piece
          export                 every subscription as OPML 2.0 on standard output
          watch                  a quiet background process: her messages and new episodes as desktop
                                 notifications (Read aloud, Play); --once for cron
          sync                   positions and subscriptions with the listener's phone, through a
                                 gpodder.net-API server or Nextcloud; sync setup URL --user NAME
          render <ref>... -o F   what play would play, into one WAV, FLAC, Opus or MP3 file with a
                                 chapter per item, as fast as it decodes
        """

    static let usageTail = """
        Configuration: flags, then ALICIA_BASE_URL / ALICIA_TOKEN, then the file
        $XDG_CONFIG_HOME/alicia/config (default ~/.config/alicia/config) with lines
        `base_url = http://host:8766` and `token = …` (keep it chmod 600).
        While playing, the progress shows on stderr when it is a terminal.
        Environment: PULSE_SERVER (the PulseAudio server), ALICIA_LOG=info|debug (diagnostics
        on stderr), ALICIA_LOG_FILE=PATH (diagnostics to a file), ALICIA_LOUDNESS=off|TARGET (the
        default of --loudness).
        """

    /// The whole program's usage: the commands, then every option from the table, then the rest.
    public static var usage: String {
        usageHead + "\n\nOptions:\n" + OptionTable.globalUsageLines() + "\n\n" + usageTail
    }

    /// Parses the arguments after the program name. An error names the command it is about, when
    /// that command has a usage of its own.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        try parseWithTrust(arguments).invocation
    }

    /// The invocation and `--cacert`, which every command that talks to a server takes and the
    /// program applies once, to every handle (`CommandLineTool.run`).
    static func parseWithTrust(_ arguments: [String]) throws(UsageError) -> (invocation: Invocation, caFile: String?) {
        do {
            return try parseArguments(arguments)
        } catch {
            let command = arguments.first { CommandUsage.text(for: $0) != nil }
            throw UsageError(error.message, command: command)
        }
    }

    private static func parseArguments(_ arguments: [String]) throws(UsageError) -> (invocation: Invocation, caFile: String?) {
        if arguments.first == "ctl" { return (try parseCtl(Array(arguments.dropFirst())), nil) }
        var (line, positionals, seen) = try scan(arguments)
        if !line.play.accessible { line.play.accessible = accessibleByDefault() }
        if line.help {
            let command = positionals.first.flatMap { CommandUsage.text(for: $0) != nil ? $0 : nil }
            return (.help(command: command == "help" ? positionals.dropFirst().first.flatMap { CommandUsage.text(for: $0) != nil ? $0 : nil } : command), nil)
        }
        if line.version { return (.version, nil) }
        let command = positionals.first ?? ""
        try check(seen, for: command, line)
        return (try invocation(command, Array(positionals.dropFirst()), line), line.caFile)
    }

    /// The options (through `OptionTable`) and the other words, in order; the options seen.
    private static func scan(_ arguments: [String]) throws(UsageError) -> (ParsedLine, [String], [String]) {
        var line = ParsedLine()
        var positionals: [String] = []
        var seen: [String] = []
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
            switch name {
            case "-h", "--help": line.help = true
            case "-V", "--version": line.version = true
            default:
                guard let option = OptionTable.byName[name] else { throw UsageError("unknown option '\(name)'") }
                try option.set(try value(of: option, inline, arguments, &index), in: &line)
                seen.append(option.name)
                line.seen.append(option.name)
            }
        }
        return (line, positionals, seen)
    }

    /// The value `option` takes here: inline, or the next argument.
    private static func value(of option: CommandOption, _ inline: String?, _ arguments: [String], _ index: inout Int) throws(UsageError) -> String {
        switch option.value {
        case .none:
            if inline != nil { throw UsageError("\(option.name) takes no value") }
            return ""
        case .inline:
            return inline ?? ""
        case .required:
            if let inline { return inline }
            guard index < arguments.count else { throw UsageError("\(option.name) needs a value") }
            let value = arguments[index]
            // `--base-url --token x`: the next option is not the value of this one.
            if value.hasPrefix("--") && value.count > 2 {
                throw UsageError("\(option.name) needs a value, not the option '\(value)' (write \(option.name)=\(value) if that is the value)")
            }
            index += 1
            return value
        }
    }

    /// Every option seen is one `command` takes (as the table says).
    private static func check(_ seen: [String], for command: String, _ line: ParsedLine) throws(UsageError) {
        if command == "demo" && line.demo.serve {
            if let stray = seen.first(where: { !["--serve", "--port", "--token", "--voicing"].contains($0) }) {
                throw UsageError("demo --serve does not take \(stray)")
            }
            return
        }
        guard let stray = seen.first(where: { OptionTable.byName[$0]?.commands.contains(command) != true }) else { return }
        if command.isEmpty {
            throw UsageError("no command given (studio, play, queue, script, playlists, playlist, tracks, notes, demo, voice, chat or config)")
        }
        guard CommandUsage.text(for: command) != nil || command == "help" else { return }
        throw UsageError("\(command) does not take \(stray)")
    }

    /// `30m`, `1.5h`, `90s`, `45min`: playing time; `end`: the end of the item; `N`: the end of
    /// the Nth item (this one is the first); `chapter`: the end of the chapter heard; `off` or 0: none.
    static func sleepTimer(_ text: String) -> SleepTimer? {
        if text == "end" { return .endOfEntries(1) }
        if text == "chapter" { return .endOfChapter }
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
    static let commandNames = "studio, play, queue, script, playlists, playlist, tracks, notes, download, cache, demo, speak, voice, chat, messages, reply, react, ctl, config, subscribe, unsubscribe, shows, refresh, episodes, export, watch, sync, render and help"

    /// `ACCESSIBLE` set to anything but empty or 0 (the convention of charmbracelet/huh and the
    /// clack prompts), or `accessible = true` in the config file.
    static func accessibleByDefault() -> Bool {
        if let value = getenv("ACCESSIBLE").map({ String(cString: $0) }), !value.isEmpty {
            return value != "0" && value.lowercased() != "false"
        }
        guard let value = ConfigurationLoader.fileValue("accessible", environment: BackendSession.environment()) else { return false }
        return ["true", "yes", "1"].contains(value.lowercased())
    }

    /// The keys `config set` takes.
    static let configKeys = "base_url, token, token_file, cache_max_size, auto_download, accessible, report, ca_file, keep or delete_played_after"

    /// `T=REF`: a time (as `--start` takes it) and a voice note; the reference may hold `=` itself.
    static func trigger(_ text: String) throws(UsageError) -> VoiceTrigger {
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
        guard let options = try CtlOptions.parse(arguments) else { return .help(command: "ctl") }
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
