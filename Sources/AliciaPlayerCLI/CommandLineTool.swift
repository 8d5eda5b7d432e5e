#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaControlClient
import AliciaCurl
import AliciaLocks
import AliciaLibrary
import AliciaHost
import AliciaRender
import AliciaStudio

/// The program: parses the command line and runs the command. Returns the exit status.
public enum CommandLineTool {
    public static var version: String { Product.version }

    /// Exit statuses.
    typealias Status = ExitCode

    public static func run(_ arguments: [String]) -> Int32 {
        let invocation: Invocation
        let caFile: String?
        do {
            (invocation, caFile) = try Invocation.parseWithTrust(Array(arguments.dropFirst()))
        } catch {
            Console.fail(error.line)
            Console.error(error.hint + "\n")
            return ExitCode.usage
        }
        // TLS trust once, for every handle: the backend's API, the audio, feeds, downloads.
        if let trusted = TLSTrust.caFile(given: caFile) { CurlEasy.caFile.withLock { $0 = trusted } }
        let status = run(invocation)
        // Output that could not be printed because its reader had gone ends the program quietly.
        return Console.stdoutWriteFailed ? ExitCode.success : status
    }

    private static func run(_ invocation: Invocation) -> Int32 {
        switch invocation {
        case .help(let command):
            Console.out((command.flatMap(HelpTopics.text) ?? UsageText.rendered(command)) + "\n")
            return ExitCode.success
        case .version:
            Console.out("alicia-player \(version)\n")
            return ExitCode.success
        case .play(let options):
            return PlayCommand(options: options).run()
        case .script(let path, let check, let options):
            return ScriptCommand(path: path, checkOnly: check, options: options).run()
        case .studio(let options, let implicit):
            return StudioCommand(options: options, implicit: implicit).run()
        case .continueListening(let options):
            return StudioCommand(options: options, implicit: false, continuing: true).run()
        case .playlists(let json, let backend):
            return PlaylistCommands.list(json: json, backend: backend)
        case .playlist(let arguments, let json, let backend):
            return arguments[0] == "show" ? PlaylistCommands.show(arguments[1], json: json, backend: backend)
                : PlaylistCommands.act(arguments, backend: backend)
        case .tracks(let json, let words, let backend):
            return LibraryCommands.tracks(json: json, words: words, backend: backend)
        case .notes(let reference, let backend):
            return LibraryCommands.notes(reference: reference, backend: backend)
        case .messages(let json, let backend):
            return MessageCommands.messages(json: json, backend: backend)
        case .reply(let id, let text, let backend):
            return MessageCommands.reply(to: id, text: text, backend: backend)
        case .react(let id, let emoji, let backend):
            return MessageCommands.react(to: id, emoji: emoji, backend: backend)
        case .demo(let options, let demo):
            return DemoCommand(options: options, demo: demo).run()
        case .voice(let options):
            return VoiceCommand(options: options).run()
        case .chat(let options):
            return ChatCommand(options: options).run()
        case .config(let action, let backend):
            return ConfigCommand(action: action, backend: backend).run()
        case .download(let options):
            return DownloadCommand(options: options).run()
        case .cache(let options):
            return CacheCommand.run(options)
        case .ctl(let options):
            return CtlCommand(options: options).run()
        case .podcasts(let command):
            return command.run()
        case .watch(let options):
            return WatchCommand(options: options).run()
        case .sync(let options):
            return SyncCommand(options: options).run()
        case .render(let options, let render):
            guard case .success(let format) = RenderFormat.forPath(render.output ?? "", bitrate: render.bitrate, quality: render.quality) else {
                return ExitCode.usage
            }
            return RenderCommand(options: options, render: render, format: format).run()
        }
    }
}

extension Invocation {
    /// The playing options of a command that plays.
    var playOptions: PlayOptions? {
        switch self {
        case .play(let options), .script(_, _, let options), .demo(let options, _), .voice(let options), .studio(let options, _),
             .continueListening(let options), .render(let options, _):
            return options
        default:
            return nil
        }
    }
}
