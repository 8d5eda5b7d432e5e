import Testing
import AliciaAudio
@testable import AliciaPlayerCLI
import AliciaLocks
@testable import AliciaLibrary
@testable import AliciaHost
@testable import AliciaStudio

/// `Invocation.parse`: every option of every command, and every way a command line can be wrong.
@Suite struct InvocationTests {
    static func play(_ references: [String], _ change: (inout PlayOptions) -> Void = { _ in }) -> Invocation {
        var options = PlayOptions(references: references)
        change(&options)
        return .play(options)
    }

    static func studio(implicit: Bool = false, _ change: (inout PlayOptions) -> Void = { _ in }) -> Invocation {
        var options = PlayOptions(reference: "")
        change(&options)
        return .studio(options, implicit: implicit)
    }

    static func demo(_ demo: DemoOptions = DemoOptions(), _ change: (inout PlayOptions) -> Void = { _ in }) -> Invocation {
        var options = PlayOptions(reference: "")
        change(&options)
        return .demo(options, demo)
    }

    static func chat(_ text: String, _ change: (inout ChatOptions) -> Void = { _ in }) -> Invocation {
        var options = ChatOptions(text: text)
        change(&options)
        return .chat(options)
    }

    static let backend = BackendOptions(baseURL: "http://h:1", token: "t", tokenFile: "/f")

    @Test("accepted", arguments: [
        // Help and version, of the whole and of one command.
        (["--help"], Invocation.help(command: nil)),
        (["-h"], .help(command: nil)),
        (["help"], .help(command: nil)),
        (["help", "play"], .help(command: "play")),
        (["play", "--help"], .help(command: "play")),
        (["demo", "-h"], .help(command: "demo")),
        (["help", "chat", "--help"], .help(command: "chat")),
        (["--version"], .version),
        (["-V"], .version),
        // speak: the words, a file, standard input.
        (["speak", "Hello", "there."], play(["speak:Hello there."])),
        (["speak", "--file", "letter.txt"], play(["speakfile:letter.txt"])),
        (["speak", "-"], play(["speakfile:-"])),
        (["speak", "Hi", "--speed", "1.5"], play(["speak:Hi"]) { $0.speedGiven = 1.5 }),
        (["demo", "--serve", "--voicing", "1,7"], demo(DemoOptions(serve: true, voicing: [1, 7]))),
        // play: every option, as separate and as inline values.
        (["play", "a.wav"], play(["a.wav"])),
        (["play", "a.wav", "S1E02", "http://h/c.wav"], play(["a.wav", "S1E02", "http://h/c.wav"])),
        (["play", "a.wav", "--loop", "--shuffle"], play(["a.wav"]) { $0.loop = true; $0.shuffle = true }),
        (["play", "a.wav", "--from-start"], play(["a.wav"]) { $0.fromStart = true }),
        (["play", "S1E01", "--no-report"], play(["S1E01"]) { $0.noReport = true }),
        (["studio", "--no-report"], studio { $0.noReport = true }),
        (["queue", "a.m3u8", "-", "--keep-going", "--save", "out.m3u8"],
         play(["a.m3u8", "-"]) { $0.referencesAreLists = true; $0.keepGoing = true; $0.saveQueue = "out.m3u8" }),
        (["script", "run.txt", "--check"], Invocation.script(path: "run.txt", check: true, PlayOptions(reference: ""))),
        (["play", "a.wav", "--start", "1:30"], play(["a.wav"]) { $0.start = .seconds(90); $0.startText = "1:30" }),
        (["play", "--start=50%", "a.wav"], play(["a.wav"]) { $0.start = .fraction(0.5); $0.startText = "50%" }),
        (["play", "a.wav", "--speed", "1.5x"], play(["a.wav"]) { $0.speedGiven = 1.5 }),
        (["play", "a.wav", "--speed=0.5"], play(["a.wav"]) { $0.speedGiven = 0.5 }),
        // A bare --skip-silence never takes the next word: it is the reference.
        (["play", "--skip-silence", "a.wav"], play(["a.wav"]) { $0.skipSilence = .medium }),
        (["play", "a.wav", "--skip-silence=strong"], play(["a.wav"]) { $0.skipSilence = .strong }),
        (["play", "a.wav", "--skip-silence=off"], play(["a.wav"]) { $0.skipSilence = .off }),
        (["studio", "--skip-silence=mild"], studio { $0.skipSilence = .mild }),
        (["play", "a.wav", "--sleep", "30m"], play(["a.wav"]) { $0.sleep = .after(seconds: 1800) }),
        (["play", "a.wav", "--sleep", "45min"], play(["a.wav"]) { $0.sleep = .after(seconds: 2700) }),
        (["play", "a.wav", "--sleep=1.5h"], play(["a.wav"]) { $0.sleep = .after(seconds: 5400) }),
        (["play", "a.wav", "--sleep", "90s"], play(["a.wav"]) { $0.sleep = .after(seconds: 90) }),
        (["play", "a.wav", "--sleep", "end"], play(["a.wav"]) { $0.sleep = .endOfEntries(1) }),
        (["play", "a.wav", "--sleep", "chapter"], play(["a.wav"]) { $0.sleep = .endOfChapter }),
        (["play", "a.wav", "--sleep", "2"], play(["a.wav"]) { $0.sleep = .endOfEntries(2) }),
        (["play", "a.wav", "--sleep", "off"], play(["a.wav"])),
        (["studio", "--sleep", "15m"], studio { $0.sleep = .after(seconds: 900) }),
        (["play", "a.wav", "--loudness", "off"], play(["a.wav"]) { $0.loudness = .off }),
        (["play", "a.wav", "--loudness=-23"], play(["a.wav"]) { $0.loudness = .target(-23) }),
        (["play", "a.wav", "--auto-download", "2"], play(["a.wav"]) { $0.autoDownload = 2 }),
        (["play", "a.wav", "--auto-download=0"], play(["a.wav"]) { $0.autoDownload = 0 }),
        (["studio", "--auto-download", "3"], studio { $0.autoDownload = 3 }),
        (["play", "a.wav", "--loudness", "-14LUFS"], play(["a.wav"]) { $0.loudness = .target(-14) }),
        (["play", "a.wav", "--volume", "80"], play(["a.wav"]) { $0.volume = 80 }),
        (["play", "a.wav", "--volume=150%"], play(["a.wav"]) { $0.volume = 150 }),
        (["play", "a.wav", "--volume", "0"], play(["a.wav"]) { $0.volume = 0 }),
        (["play", "a.wav", "--device", "pipe"], play(["a.wav"]) { $0.device = "pipe" }),
        (["play", "a.wav", "--read-ahead", "0.5"], play(["a.wav"]) { $0.readAheadSeconds = 0.5 }),
        (["play", "a.wav", "--voice-focus", "duck"], play(["a.wav"]) { $0.voiceFocus = .duck(decibels: -12) }),
        (["play", "a.wav", "--voice-focus", "mix"], play(["a.wav"]) { $0.voiceFocus = .mix }),
        (["play", "a.wav", "--resume-rewind", "3"], play(["a.wav"]) { $0.noteRewind = 3 }),
        (["play", "a.wav", "--voice-at", "1:30=http://h/n.wav?x=1&token=t"],
         play(["a.wav"]) { $0.voiceAt = [VoiceTrigger(at: .seconds(90), reference: "http://h/n.wav?x=1&token=t")] }),
        (["play", "a.wav", "--voice-at=50%=/api/audio/voice-1.wav", "--voice-at", "2=b.wav"],
         play(["a.wav"]) { $0.voiceAt = [VoiceTrigger(at: .fraction(0.5), reference: "/api/audio/voice-1.wav"),
                                         VoiceTrigger(at: .seconds(2), reference: "b.wav")] }),
        (["play", "S1E01", "--base-url", "http://h:1", "--token", "t", "--token-file", "/f"], play(["S1E01"]) { $0.backend = backend }),
        (["play", "--", "-odd name.wav"], play(["-odd name.wav"])),
        (["play", "a.wav", "--base-url=--odd"], play(["a.wav"]) { $0.backend.baseURL = "--odd" }),
        // studio, explicit and implicit.
        ([], studio(implicit: true)),
        (["--base-url", "http://h:1", "--token", "t"], studio(implicit: true) { $0.backend = BackendOptions(baseURL: "http://h:1", token: "t") }),
        (["--volume", "70", "--quiet"], studio(implicit: true) { $0.volume = 70; $0.quiet = true }),
        (["studio"], studio()),
        (["studio", "--speed", "2", "--volume", "90", "--device", "d", "--read-ahead", "20", "--voice-focus", "mix",
          "--resume-rewind", "1", "--quiet"],
         studio { $0.speedGiven = 2; $0.volume = 90; $0.device = "d"; $0.readAheadSeconds = 20; $0.voiceFocus = .mix
                  $0.noteRewind = 1; $0.quiet = true }),
        // demo, with the Studio and served alone.
        (["demo"], demo()),
        (["demo", "--speed", "1.25", "--volume", "50", "--quiet"], demo { $0.speedGiven = 1.25; $0.volume = 50; $0.quiet = true }),
        (["demo", "--port", "8766", "--token", "demo"], demo(DemoOptions(port: 8766, token: "demo"))),
        (["demo", "--serve"], demo(DemoOptions(serve: true))),
        (["demo", "--serve", "--port=9000", "--token=x'y"], demo(DemoOptions(serve: true, port: 9000, token: "x'y"))),
        // The library, notes, a voice note, chat.
        (["tracks"], .tracks(json: false, words: false, backend: BackendOptions())),
        (["tracks", "--json", "--base-url", "http://h:1", "--token", "t", "--token-file", "/f"], .tracks(json: true, words: false, backend: backend)),
        (["notes", "s1e01"], .notes(reference: "s1e01", backend: BackendOptions())),
        (["voice", "/api/audio/voice-1.wav", "--volume", "40", "--device", "d", "--read-ahead", "2"],
         .voice({ var o = PlayOptions(reference: "/api/audio/voice-1.wav"); o.volume = 40; o.device = "d"; o.readAheadSeconds = 2; return o }())),
        (["chat", "hello there"], chat("hello there")),
        (["chat", "hi", "--voice", "--react", "❤️", "--volume", "60", "--device", "d"],
         chat("hi") { $0.voice = true; $0.react = "❤️"; $0.volume = 60; $0.device = "d" }),
    ])
    func accepts(arguments: [String], expected: Invocation) throws {
        #expect(try Invocation.parse(arguments) == expected)
    }

    @Test("refused, with one line and the command whose usage to try", arguments: [
        // The shape of options.
        (["--frobnicate"], "unknown option '--frobnicate'", nil),
        (["play", "a.wav", "--frobnicate"], "unknown option '--frobnicate'", "play"),
        (["--bogus", "play", "a.wav"], "unknown option '--bogus'", "play"),
        (["play", "a.wav", "--loop=yes"], "--loop takes no value", "play"),
        (["play", "a.wav", "--start"], "--start needs a value", "play"),
        (["tracks", "--base-url", "--token", "x"],
         "--base-url needs a value, not the option '--token' (write --base-url=--token if that is the value)", "tracks"),
        // Commands.
        (["speak"], "speak needs a text: alicia-player speak \"some words\", --file FILE, or - for standard input", "speak"),
        (["speak", "--file", "a.txt", "more"], "speak takes --file or the text, not both (got 'more')", "speak"),
        (["speak", "hi", "--loop"], "speak does not take --loop", "speak"),
        (["demo", "--voicing", "7,1"], "--voicing '7,1' is not 1 to 16 seconds in order, by commas (0.5,2,7)", "demo"),
        (["download"], "download needs an episode (a label, an index, a title), playlist:NAME or --queue FILE", "download"),
        (["download", "1", "--rate", "fast"], "--rate 'fast' is not a rate of at least 1k a second (e.g. 500k, 2M)", "download"),
        (["play", "a.wav", "--auto-download", "two"],
         "--auto-download 'two' is not a number of queue items from 0 to 100 (0 is none)", "play"),
        (["play", "a.wav", "--auto-download", "-1"],
         "--auto-download '-1' is not a number of queue items from 0 to 100 (0 is none)", "play"),
        (["queue", "a.m3u", "--auto-download=101"],
         "--auto-download '101' is not a number of queue items from 0 to 100 (0 is none)", "queue"),
        (["download", "S1E02", "--auto-download", "2"], "download does not take --auto-download", "download"),
        (["cache", "--max-size", "lots"], "--max-size 'lots' is not a size (e.g. 2G, 500M)", "cache"),
        (["cache", "purge"], "cache purge is not an action: cache, cache --max-size SIZE, cache clear [REF]", "cache"),
        (["dance"], "unknown command 'dance': the commands are studio, play, queue, script, playlists, playlist, tracks, notes, download, cache, demo, speak, voice, chat, messages, reply, react, ctl, config, subscribe, unsubscribe, shows, refresh, episodes, export, watch, sync, render and help", nil),
        (["--json"], "no command given (studio, play, queue, script, playlists, playlist, tracks, notes, demo, voice, chat or config)", nil),
        (["queue"], "queue needs a list file (or - for standard input)", "queue"),
        (["queue", "a.m3u", "--save"], "--save needs a value", "queue"),
        (["script"], "script needs a script file (or - for standard input)", "script"),
        (["script", "a.txt", "b.txt"], "script takes one file, got 'b.txt' too", "script"),
        (["tracks", "--from-start"], "tracks does not take --from-start", "tracks"),
        (["help", "dance"], "no command 'dance': the commands are studio, play, queue, script, playlists, playlist, tracks, notes, download, cache, demo, speak, voice, chat, messages, reply, react, ctl, config, subscribe, unsubscribe, shows, refresh, episodes, export, watch, sync, render and help", "help"),
        (["help", "play", "chat"], "help takes one command, got 'chat' too", "help"),
        (["help", "--json"], "help does not take --json", "help"),
        (["play"], "play needs something to play: a URL, a path, an episode or playlist:NAME", "play"),
        (["voice"], "voice needs a URL, a path or a media path", "voice"),
        (["voice", "a.wav", "b.wav"], "voice takes one note, got 'b.wav' too", "voice"),
        (["reply", "pm-1"], "reply needs a message's id and your answer: alicia-player reply pm-77 \"yes\"", "reply"),
        (["chat", "  "], "chat needs a message: alicia-player chat \"hello\"", "chat"),
        (["chat", "a", "b"], "chat takes one message (quote it), got 'b' too", "chat"),
        (["chat", "a", "--react="], "--react needs an emoji", "chat"),
        (["tracks", "x"], "tracks takes no arguments, got 'x'", "tracks"),
        (["notes"], "notes needs an episode: a label, an index or a title", "notes"),
        (["notes", "a", "b"], "notes takes one episode, got 'b' too", "notes"),
        (["studio", "x"], "studio takes no arguments, got 'x'", "studio"),
        (["demo", "x"], "demo takes no arguments, got 'x'", "demo"),
        // Options a command does not take.
        (["studio", "--loop"], "studio does not take --loop", "studio"),
        (["tracks", "--start", "5"], "tracks does not take --start", "tracks"),
        (["notes", "a", "--json"], "notes does not take --json", "notes"),
        (["voice", "a.wav", "--speed", "2"], "voice does not take --speed", "voice"),
        (["chat", "hi", "--loop"], "chat does not take --loop", "chat"),
        (["demo", "--base-url", "http://h:1"], "demo does not take --base-url", "demo"),
        (["demo", "--serve", "--speed", "2"], "demo --serve does not take --speed", "demo"),
        (["play", "a.wav", "--serve"], "play does not take --serve", "play"),
        (["play", "a.wav", "--port", "1"], "play does not take --port", "play"),
        // Values.
        (["play", "a.wav", "--start", "abc"],
         "--start 'abc' is not a time: use seconds (90), m:ss, h:mm:ss or a percentage (50%)", "play"),
        (["play", "a.wav", "--speed", "4"], "--speed '4' is not a speed from 0.5 to 3 (1 is as recorded)", "play"),
        (["play", "a.wav", "--speed", "fast"], "--speed 'fast' is not a speed from 0.5 to 3 (1 is as recorded)", "play"),
        (["play", "a.wav", "--skip-silence=loud"], "--skip-silence 'loud' is not mild, medium, strong or off", "play"),
        (["voice", "a.wav", "--skip-silence"], "voice does not take --skip-silence", "voice"),
        (["play", "a.wav", "--sleep", "soon"], "--sleep 'soon' is not a time (30m, 1h, 90s), end (of the item), chapter or a number of items", "play"),
        (["play", "a.wav", "--sleep", "25h"], "--sleep '25h' is not a time (30m, 1h, 90s), end (of the item), chapter or a number of items", "play"),
        (["chat", "hi", "--sleep", "5m"], "chat does not take --sleep", "chat"),
        (["play", "a.wav", "--loudness", "loud"], "--loudness 'loud' is not off or a target from -40 to -5 (LUFS; -16 is usual for speech)", "play"),
        (["play", "a.wav", "--loudness", "-2"], "--loudness '-2' is not off or a target from -40 to -5 (LUFS; -16 is usual for speech)", "play"),
        (["play", "a.wav", "--volume", "151"], "--volume '151' is not a percentage from 0 to 150 (100 is as recorded)", "play"),
        (["play", "a.wav", "--volume", "-1"], "--volume '-1' is not a percentage from 0 to 150 (100 is as recorded)", "play"),
        (["play", "a.wav", "--volume", "loud"], "--volume 'loud' is not a percentage from 0 to 150 (100 is as recorded)", "play"),
        (["play", "a.wav", "--device="], "--device needs a sink name (or, for sync setup, a device id)", "play"),
        (["sync", "bogus"], "sync takes setup, status or nothing, not 'bogus'", "sync"),
        (["sync", "setup", "https://sync.example"], "sync setup needs --user NAME (the account on the server)", "sync"),
        (["sync", "setup", "ftp://sync.example", "--user", "ann"], "the sync server must be an http:// or https:// URL, not 'ftp://sync.example'", "sync"),
        (["sync", "setup", "https://ann:pw@sync.example", "--user", "ann"],
         "put no user or password in the sync server's URL: --user NAME, and the password when asked", "sync"),
        (["sync", "--user", "ann"], "--user and --device go with sync setup", "sync"),
        (["play", "a.wav", "--read-ahead", "0"], "--read-ahead '0' is not a number of seconds more than 0 and at most 600", "play"),
        (["play", "a.wav", "--read-ahead", "601"], "--read-ahead '601' is not a number of seconds more than 0 and at most 600", "play"),
        (["play", "a.wav", "--voice-focus", "loud"], "--voice-focus 'loud' is not pause, duck or mix", "play"),
        (["play", "a.wav", "--resume-rewind", "-1"], "--note-rewind '-1' is not a number of seconds between 0 and 600", "play"),
        (["play", "a.wav", "--voice-at", "nonsense"],
         "--voice-at 'nonsense' is not T=URL (e.g. --voice-at 1:30=http://host/note.wav)", "play"),
        (["play", "a.wav", "--voice-at", "x=n.wav"],
         "--voice-at 'x' is not a time: use seconds (90), m:ss, h:mm:ss or a percentage (50%)", "play"),
        (["play", "a.wav", "--voice-at", "5="], "--voice-at 5= needs a voice note after the =", "play"),
        (["demo", "--port", "0"], "--port '0' is not a port from 1 to 65535", "demo"),
        (["demo", "--port", "http"], "--port 'http' is not a port from 1 to 65535", "demo"),
        (["demo", "--token", "a b"], "--token for the demo must be printable ASCII without spaces", "demo"),
        (["watch", "now"], "watch takes no arguments, got 'now'", "watch"),
        (["watch", "--interval", "1s"], "--interval '1s' is not a duration from 2s to 24h (e.g. 60s, 5m)", "watch"),
        (["watch", "--interval", "soon"], "--interval 'soon' is not a duration from 2s to 24h (e.g. 60s, 5m)", "watch"),
        (["watch", "--json"], "watch does not take --json", "watch"),
        (["play", "a.wav", "--once"], "play does not take --once", "play"),
    ] as [([String], String, String?)])
    func refuses(arguments: [String], message: String, command: String?) {
        #expect(throws: UsageError(message, command: command)) { try Invocation.parse(arguments) }
    }

    @Test("watch: --once, --interval (down to 2 s) and the backend's options")
    func watch() throws {
        #expect(try Invocation.parse(["watch"]) == .watch(WatchOptions()))
        var options = WatchOptions(once: true, interval: 2)
        options.backend.baseURL = "http://h:1"
        #expect(try Invocation.parse(["watch", "--once", "--interval", "2s", "--base-url", "http://h:1"]) == .watch(options))
        #expect(try Invocation.parse(["watch", "--interval=5m"]) == .watch(WatchOptions(interval: 300)))
    }

    @Test("the line after a usage error names the command's own help", arguments: [
        (UsageError("x", command: "play"), "Try 'alicia-player play --help'."),
        (UsageError("x"), "Try 'alicia-player --help'."),
    ])
    func hint(error: UsageError, expected: String) {
        #expect(error.hint == expected)
    }

    @Test("the line names the command unless the message begins with it", arguments: [
        (UsageError("unknown option '--bogus'", command: "play"), "play: unknown option '--bogus'"),
        (UsageError("play needs a URL or a path", command: "play"), "play needs a URL or a path"),
        (UsageError("unknown option '--bogus'"), "unknown option '--bogus'"),
        (UsageError("no command 'x'", command: "help"), "no command 'x'"),
    ])
    func line(error: UsageError, expected: String) {
        #expect(error.line == expected)
    }

    @Test("every command has a usage of its own, which begins with its name")
    func everyCommandHasAUsage() {
        for command in ["play", "studio", "demo", "tracks", "notes", "speak", "voice", "chat", "help"] {
            let text = CommandUsage.text(for: command)
            #expect(text?.contains("alicia-player \(command == "studio" ? "[studio]" : command)") == true, "\(command)")
        }
    }
}

@Suite struct DemoServeLineTests {
    /// What `demo --serve` prints must be one word per value to a shell, whatever the token holds.
    @Test(arguments: [
        ("0123abcdef", "export ALICIA_BASE_URL=http://127.0.0.1:8766 ALICIA_TOKEN=0123abcdef"),
        ("it's$x", #"export ALICIA_BASE_URL=http://127.0.0.1:8766 ALICIA_TOKEN='it'\''s$x'"#),
        ("a;b", "export ALICIA_BASE_URL=http://127.0.0.1:8766 ALICIA_TOKEN='a;b'"),
    ])
    func theExportLineIsQuotedForAShell(token: String, expected: String) {
        #expect(DemoCommand.exportLine(baseURL: "http://127.0.0.1:8766", token: token) == expected)
    }
}
