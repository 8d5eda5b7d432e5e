#if canImport(Glibc)
import Glibc
#endif
import AliciaBackend
import AliciaHost
import AliciaLibrary
import AliciaLocks
import AliciaSession
import AliciaRender

/// Each command from its words and the options the table has parsed.
extension Invocation {
    static func invocation(_ command: String, _ rest: [String], _ line: ParsedLine) throws(UsageError) -> Invocation {
        if line.play.ipcPath != nil && line.play.noIPC { throw UsageError("--ipc and --no-ipc cannot go together") }
        if line.play.ipcName != nil && (line.play.noIPC || line.play.ipcPath != nil) {
            throw UsageError("--ipc-name goes with neither --ipc nor --no-ipc")
        }
        var play = line.play
        play.backend = line.backend
        switch command {
        case "": return .studio(play, implicit: true)
        case "play", "queue", "script": return try playing(command, rest, play, line)
        case "help": return try help(rest)
        case "voice":
            guard let reference = rest.first else { throw UsageError("voice needs a URL, a path or a media path") }
            guard rest.count == 1 else { throw UsageError("voice takes one note, got '\(rest[1])' too") }
            play.references = [reference]
            return .voice(play)
        case "chat": return rest.isEmpty ? .messages(json: line.json, backend: line.backend) : try chat(rest, line)
        case "messages", "reply", "react": return try messaging(command, rest, line)
        case "playlists", "tracks":
            guard rest.isEmpty else { throw UsageError("\(command) takes no arguments, got '\(rest[0])'") }
            return command == "tracks" ? .tracks(json: line.json, words: line.play.accessible, backend: line.backend) : .playlists(json: line.json, backend: line.backend)
        case "playlist": return try playlist(rest, line)
        case "download":
            guard !rest.isEmpty || !line.download.queueFiles.isEmpty else {
                throw UsageError("download needs an episode (a label, an index, a title), playlist:NAME or --queue FILE")
            }
            var download = line.download
            download.references = rest
            download.backend = line.backend
            return .download(download)
        case "cache": return try cache(rest, line)
        case "notes":
            guard let reference = rest.first else { throw UsageError("notes needs an episode: a label, an index or a title") }
            guard rest.count == 1 else { throw UsageError("notes takes one episode, got '\(rest[1])' too") }
            return .notes(reference: reference, backend: line.backend)
        case "config": return try config(rest, line)
        case "studio":
            guard rest.isEmpty else { throw UsageError("studio takes no arguments, got '\(rest[0])'") }
            return .studio(play, implicit: false)
        case "demo": return try demo(rest, play, line)
        case "speak": return try speak(rest, play, line)
        case "watch":
            guard rest.isEmpty else { throw UsageError("watch takes no arguments, got '\(rest[0])'") }
            var watch = line.watch
            watch.backend = line.backend
            return .watch(watch)
        case "sync": return .sync(try SyncCommand.parse(rest, line))
        case "render": return try render(rest, play, line)
        case _ where PodcastCommand.names.contains(command):
            return .podcasts(try PodcastCommand.parse(command, rest, line))
        default: throw UsageError("unknown command '\(command)': the commands are \(commandNames)")
        }
    }

    /// `render REF… | --queue FILE… | --script FILE -o FILE`: the output's name and format checked
    /// before anything is fetched.
    private static func render(_ rest: [String], _ options: PlayOptions, _ line: ParsedLine) throws(UsageError) -> Invocation {
        var play = options
        let lists = line.download.queueFiles
        let sources = [!rest.isEmpty, !lists.isEmpty, line.render.script != nil].filter { $0 }.count
        guard sources > 0 else {
            throw UsageError("render needs something to render: a URL, a path, an episode, playlist:NAME, --queue FILE or --script FILE")
        }
        guard sources == 1 else { throw UsageError("render takes references, --queue lists or --script, one of them") }
        guard let output = line.render.output else { throw UsageError("render needs the file to make: -o FILE (.wav, .flac, .opus or .mp3)") }
        if case .failure(let problem) = RenderFormat.forPath(output, bitrate: line.render.bitrate, quality: line.render.quality) {
            throw UsageError(problem.message)
        }
        play.references = lists.isEmpty ? rest : lists
        play.referencesAreLists = !lists.isEmpty
        return .render(play, line.render)
    }

    /// `messages`, `reply ID TEXT…`, `react ID EMOJI`: her messages and answers to them.
    private static func messaging(_ command: String, _ rest: [String], _ line: ParsedLine) throws(UsageError) -> Invocation {
        switch command {
        case "messages":
            guard rest.isEmpty else { throw UsageError("messages takes no arguments, got '\(rest[0])'") }
            return .messages(json: line.json, backend: line.backend)
        case "reply":
            guard let id = rest.first, rest.count >= 2 else { throw UsageError("reply needs a message's id and your answer: alicia-player reply pm-77 \"yes\"") }
            let text = rest.dropFirst().joined(separator: " ")
            guard !text.trimmingWhitespace().isEmpty else { throw UsageError("reply needs your answer after the id") }
            return .reply(id: id, text: text, backend: line.backend)
        default:
            guard rest.count == 2, !rest[0].isEmpty, !rest[1].isEmpty else {
                throw UsageError("react needs a message's id and an emoji: alicia-player react pm-77 ❤️")
            }
            return .react(id: rest[0], emoji: rest[1], backend: line.backend)
        }
    }

    private static func playing(_ command: String, _ rest: [String], _ options: PlayOptions, _ line: ParsedLine) throws(UsageError) -> Invocation {
        var play = options
        switch command {
        case "play":
            if rest.isEmpty, play.saveQueue == nil, isatty(0) == 1, isatty(1) == 1 { return .continueListening(play) }
            guard !rest.isEmpty else { throw UsageError("play needs something to play: a URL, a path, an episode or playlist:NAME") }
            play.references = rest
            return .play(play)
        case "queue":
            guard !rest.isEmpty else { throw UsageError("queue needs a list file (or - for standard input)") }
            play.references = rest
            play.referencesAreLists = true
            return .play(play)
        default:
            guard let path = rest.first else { throw UsageError("script needs a script file (or - for standard input)") }
            guard rest.count == 1 else { throw UsageError("script takes one file, got '\(rest[1])' too") }
            return .script(path: path, check: line.check, play)
        }
    }

    /// `speak TEXT…`, `speak --file F`, `speak -`: one reference, `speak:TEXT` or (read when it
    /// runs) `speakfile:PATH`.
    private static func speak(_ rest: [String], _ options: PlayOptions, _ line: ParsedLine) throws(UsageError) -> Invocation {
        var play = options
        if let file = line.speakFile {
            guard rest.isEmpty else { throw UsageError("speak takes --file or the text, not both (got '\(rest[0])')") }
            play.references = [SpeakText.filePrefix + file]
        } else if rest == ["-"] {
            play.references = [SpeakText.filePrefix + "-"]
        } else {
            let text = rest.joined(separator: " ")
            guard !text.trimmingWhitespace().isEmpty else {
                throw UsageError("speak needs a text: alicia-player speak \"some words\", --file FILE, or - for standard input")
            }
            play.references = [QueueResolver.speakPrefix + text]
        }
        return .play(play)
    }

    private static func help(_ rest: [String]) throws(UsageError) -> Invocation {
        guard rest.count <= 1 else { throw UsageError("help takes one command, got '\(rest[1])' too") }
        guard let name = rest.first else { return .help(command: nil) }
        guard CommandUsage.text(for: name) != nil || HelpTopics.names.contains(name) else { throw UsageError("no command '\(name)': the commands are \(commandNames)") }
        return .help(command: name)
    }

    private static func chat(_ rest: [String], _ line: ParsedLine) throws(UsageError) -> Invocation {
        guard let text = rest.first, !text.trimmingWhitespace().isEmpty else { throw UsageError("chat needs a message: alicia-player chat \"hello\"") }
        guard rest.count == 1 else { throw UsageError("chat takes one message (quote it), got '\(rest[1])' too") }
        var chat = ChatOptions(text: text)
        chat.voice = line.chatVoice
        chat.react = line.react
        chat.device = line.play.device
        chat.volume = line.play.volume
        chat.backend = line.backend
        return .chat(chat)
    }

    /// The playlist actions and the words each takes: the parser and its messages read this one table.
    static let playlistActions: [(name: String, words: [String])] = [
        ("show", ["NAME"]), ("create", ["NAME"]), ("rename", ["NAME", "NEW"]), ("delete", ["NAME"]), ("add", ["NAME", "REF"]),
        ("remove", ["NAME", "ITEM"]), ("move", ["NAME", "ITEM", "POSITION"]),
    ]

    private static func playlist(_ rest: [String], _ line: ParsedLine) throws(UsageError) -> Invocation {
        let names = playlistActions.map(\.name)
        let choices = names.dropLast().joined(separator: ", ") + " or " + names.last!
        guard let action = rest.first else { throw UsageError("playlist needs an action: \(choices)") }
        guard let words = playlistActions.first(where: { $0.name == action })?.words else {
            throw UsageError("playlist \(action) is not an action: \(choices)")
        }
        var rest = rest
        if let text = line.playlistText ?? line.speakFile.map({ SpeakText.filePrefix + $0 }) {
            // `playlist add NAME --text TEXT | --file F`: the text stands where an episode would.
            guard action == "add", rest.count == 2 else { throw UsageError("--text and --file go with playlist add NAME, without an episode") }
            guard line.playlistText == nil || line.speakFile == nil else { throw UsageError("playlist add takes --text or --file, not both") }
            guard !text.allSatisfy(\.isWhitespace) else { throw UsageError("playlist add --text needs some text to read aloud") }
            rest.append(line.playlistText.map { QueueResolver.speakPrefix + $0 } ?? text)
        }
        guard rest.count - 1 == words.count else { throw UsageError("playlist \(action) takes \(words.joined(separator: " "))") }
        if line.json && action != "show" { throw UsageError("--json goes with playlist show, not playlist \(action)") }
        if action == "move", (Int(rest[3]) ?? 0) < 1 {
            throw UsageError("playlist move: '\(rest[3])' is not a position (1 is the first)")
        }
        if rest.dropFirst().contains(where: { $0.isEmpty }) { throw UsageError("playlist \(action): a name cannot be empty") }
        return .playlist(rest, json: line.json, backend: line.backend)
    }

    private static func cache(_ rest: [String], _ line: ParsedLine) throws(UsageError) -> Invocation {
        var cache = line.cache
        if let first = rest.first {
            guard first == "clear" else { throw UsageError("cache \(first) is not an action: cache, cache --max-size SIZE, cache clear [REF]") }
            guard cache.maxSize == nil else { throw UsageError("cache clear does not take --max-size") }
            cache.clear = true
            cache.references = Array(rest.dropFirst())
        }
        return .cache(cache)
    }

    private static func config(_ rest: [String], _ line: ParsedLine) throws(UsageError) -> Invocation {
        guard rest.first != "set" else {
            if let stray = line.seen.first { throw UsageError("config does not take \(stray)") }
            guard rest.count == 3 else { throw UsageError("config set takes KEY VALUE (\(configKeys))") }
            return .config(.set(key: rest[1], value: rest[2]), backend: line.backend)
        }
        if rest.first == "get" {
            guard rest.count == 2 else { throw UsageError("config get takes one KEY (\(configKeys))") }
            guard let key = ConfigFile.knownKey(rest[1]) else { throw UsageError("config get: " + ConfigFile.unknownKeyMessage(rest[1])) }
            return .config(.get(key: key, reveal: line.reveal), backend: line.backend)
        }
        guard !line.reveal else { throw UsageError("--reveal goes with config get KEY") }
        guard rest.isEmpty else { throw UsageError("config takes no arguments but get KEY or set KEY VALUE, got '\(rest[0])'") }
        return .config(line.path ? .path : .show, backend: line.backend)
    }

    private static func demo(_ rest: [String], _ play: PlayOptions, _ line: ParsedLine) throws(UsageError) -> Invocation {
        guard rest.isEmpty else { throw UsageError("demo takes no arguments, got '\(rest[0])'") }
        var demo = line.demo
        if let token = line.token {
            // It travels in a header: the demo backend's own rule.
            guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw UsageError("--token for the demo must be printable ASCII without spaces")
            }
            demo.token = token
        }
        var options = play
        options.backend = BackendOptions()
        return .demo(options, demo)
    }
}
