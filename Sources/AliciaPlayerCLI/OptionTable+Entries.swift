#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaCache
import AliciaControl
import AliciaDemoBackend
import AliciaHost
import AliciaLibrary
import AliciaLocks
import AliciaSession

/// The options, by what they are about.
extension OptionTable {
    static let queueOptions: [CommandOption] = [
        option("--loop", .none, queueing, "start the queue again after its last item") { _, line in line.play.loop = true },
        option("--shuffle", .none, queueing, "shuffle the queue once before it plays") { _, line in line.play.shuffle = true },
        option("--keep-going", .none, ["queue", "render"], "skip lines that cannot be played, with a warning each") { _, line in
            line.play.keepGoing = true
        },
        option("--save", .required("FILE"), ["queue"], "write the queue as M3U8 (episodes by label) instead of playing it") { value, line in
            guard !value.isEmpty else { throw UsageError("--save needs a file name") }
            line.play.saveQueue = value
        },
        option("--check", .none, ["script"], "only check the script") { _, line in line.check = true },
        option("--text", .required("TEXT"), ["playlist"], "playlist add: a text read aloud instead of an episode") { value, line in
            line.playlistText = value
        },
        option("--file", .required("FILE"), ["speak", "playlist"], "read the text to read aloud from FILE (- for standard input)") { value, line in
            guard !value.isEmpty else { throw UsageError("--file needs a file name (or - for standard input)") }
            line.speakFile = value
        },
        option("--from-start", .none, ["play", "queue", "script", "studio", "demo"],
               "every episode from its beginning, not where it was left") { _, line in line.play.fromStart = true },
        option("--start", .required("T"), queueing.union(["render"]), "begin the first item at T: seconds (90), m:ss, h:mm:ss or 50%") { value, line in
            guard let parsed = TimeSpec.parse(value) else {
                throw UsageError("--start '\(value)' is not a time: use seconds (90), m:ss, h:mm:ss or a percentage (50%)")
            }
            line.play.start = parsed
            line.play.startText = value
        },
    ]

    static let playbackOptions: [CommandOption] = [
        option("--speed", .required("X"), playing.union(["", "render"]), "play X times as fast, 0.5 to 3 (1.5, or 1.5x); the pitch stays") { value, line in
            guard case .set(let speed)? = LevelText.speed(value) else {
                throw UsageError("--speed '\(value)' is not a speed from 0.5 to 3 (1 is as recorded)")
            }
            line.play.speedGiven = speed
        },
        option("--volume", .required("N"), playing.union(["voice", "chat", ""]),
               "volume in percent, 0 to 150, as mixers show it (default 100)") { value, line in
            guard case .set(let percent)? = LevelText.volume(value) else {
                throw UsageError("--volume '\(value)' is not a percentage from 0 to 150 (100 is as recorded)")
            }
            line.play.volume = percent
        },
        // One option, two meanings by command: the sink a player plays to; the device id sync setup
        // names this machine by (gpodder.net's word for it).
        option("--device", .required("SINK|ID"), playing.union(["voice", "chat", "sync", ""]),
               "the PulseAudio sink to play to (see: pactl list short sinks); for sync setup, this machine's device id") { value, line in
            guard !value.isEmpty else { throw UsageError("--device needs a sink name (or, for sync setup, a device id)") }
            line.play.device = value
            line.sync.device = value
        },
        option("--read-ahead", .required("SECONDS"), playing.union(["voice"]),
               "audio to fetch ahead, more than 0 and at most 600 (default 10)") { value, line in
            guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 600 else {
                throw UsageError("--read-ahead '\(value)' is not a number of seconds more than 0 and at most 600")
            }
            line.play.readAheadSeconds = seconds
        },
        option("--skip-silence", .inline("LEVEL"), playing.union(["render"]), "shorten pauses: mild, medium (default), strong or off") { value, line in
            // Bare, the middle level: noticeably shorter pauses, still far from the gaps between words.
            guard let level = value.isEmpty ? .medium : SilenceSkipping(rawValue: value) else {
                throw UsageError("--skip-silence '\(value)' is not mild, medium, strong or off")
            }
            line.play.skipSilence = level
        },
        option("--sleep", .required("30m|end|chapter|N"), playing,
               "fade out over 10 s and pause after 30 min of playing (90s, 1h), at the end of the item, of this chapter, or of the Nth item; "
                + "off the Studio the command then exits 0") { value, line in
            guard let timer = Invocation.sleepTimer(value) else {
                throw UsageError("--sleep '\(value)' is not a time (30m, 1h, 90s), end (of the item), chapter or a number of items")
            }
            line.play.sleep = timer
        },
        option("--loudness", .required("off|TARGET"), playing.union(["voice", "render"]),
               "match every item to TARGET LUFS (default -16, or ALICIA_LOUDNESS), true peaks under -1 dBTP") { value, line in
            guard let matching = LevelText.loudness(value) else {
                throw UsageError("--loudness '\(value)' is not off or a target from -40 to -5 (LUFS; -16 is usual for speech)")
            }
            line.play.loudness = matching
        },
        option("--auto-download", .required("N"), ["play", "queue", "script", "studio"],
               "download the next N queue items into the cache while playing (default: auto_download in the config file, else 0)") { value, line in
            guard let count = AutoDownloader.parse(value) else {
                throw UsageError("--auto-download '\(value)' is not a number of queue items from 0 to \(AutoDownloader.maximum) (0 is none)")
            }
            line.play.autoDownload = count
        },
        option("--quiet", .none, ["studio", "demo", "refresh", ""], "no status lines when stdout is not a terminal; refresh: only failures") { _, line in line.play.quiet = true },
        option("--accessible", .none, playing.union(["tracks", ""]),
               "linear text for screen readers: one line per event, in words, nothing redrawn (or ACCESSIBLE=1)") { _, line in
            line.play.accessible = true
        },
        option("--progress-every", .required("T"), playing.union([""]),
               "with --accessible, say where playback is each T of the item (5m, 90s; default: only on Tab)") { value, line in
            guard let seconds = Invocation.duration(value), seconds >= 1 else {
                throw UsageError("--progress-every '\(value)' is not a time of at least a second: 90s, 5m, 1h")
            }
            line.play.progressEvery = seconds
        },
    ]

    static let networkOptions: [CommandOption] = [
        option("--ipc", .required("PATH"), playing.union([""]),
               "the control socket (default $XDG_RUNTIME_DIR/alicia-player/socket)") { value, line in
            guard !value.isEmpty else { throw UsageError("--ipc needs a socket path") }
            line.play.ipcPath = value
        },
        option("--ipc-name", .required("NAME"), playing.union([""]),
               "the control socket NAME beside the default one, for several players (ctl --player NAME)") { value, line in
            if let problem = ControlSocket.problem(withName: value) { throw UsageError("--ipc-name \(problem)") }
            line.play.ipcName = value
        },
        option("--no-ipc", .none, playing.union([""]), "no control socket (see: alicia-player ctl --help)") { _, line in line.play.noIPC = true },
        option("--no-report", .none, playing.union([""]),
               "tell Alicia's backend nothing of what is heard (or report = off in the config file)") { _, line in line.play.noReport = true },
        option("--no-sync", .none, playing.union([""]),
               "no sync with the server alicia-player sync setup named, this run") { _, line in line.play.noSync = true },
        option("--give-up-after", .required("T"), ["play", "queue", "script", "studio", "demo"],
               "retry an unreachable server this long (default 2m; 0: never give up)") { value, line in
            guard let seconds = Invocation.duration(value), seconds >= 0 else {
                throw UsageError("--give-up-after '\(value)' is not a time: seconds (90), m:ss, or 2m; 0 never gives up")
            }
            line.play.network.giveUpAfter = seconds
        },
        option("--stall-timeout", .required("S"), ["play", "queue", "script", "studio", "demo"],
               "drop and remake a transfer silent for S seconds (default 10)") { value, line in
            guard let seconds = Double(value.hasSuffix("s") ? String(value.dropLast()) : value), seconds >= 1, seconds <= 600 else {
                throw UsageError("--stall-timeout '\(value)' is not a number of seconds from 1 to 600")
            }
            line.play.network.stallTimeout = seconds
        },
        option("--cacert", .required("FILE"), networkCommands, "trust this CA bundle for HTTPS (a private CA; or ca_file in the config file)") { value, line in
            guard !value.isEmpty, access(value, R_OK) == 0 else {
                throw UsageError("--cacert '\(value)' is not a readable file (a PEM bundle of CA certificates)")
            }
            line.play.network.caFile = value
            line.caFile = value
        },
    ]

    static let voiceOptions: [CommandOption] = [
        option("--voice-at", .required("T=REF"), ["play"], "at position T of the first item, play the voice note REF; repeatable") { value, line in
            line.play.voiceAt.append(try Invocation.trigger(value))
        },
        option("--voice-focus", .required("MODE"), ["play", "script", "studio", "demo", "chat"],
               "the episode during a voice note: pause (default; it resumes at the exact frame), duck (12 dB lower) or mix") { value, line in
            switch value {
            case "pause": line.play.voiceFocus = .pause
            case "duck": line.play.voiceFocus = .duck(decibels: -12)
            case "mix": line.play.voiceFocus = .mix
            default: throw UsageError("--voice-focus '\(value)' is not pause, duck or mix")
            }
        },
        option("--note-rewind", .required("S"), ["play", "script", "studio", "demo"],
               "step the episode back S seconds when a voice note gives it the focus back", aliases: ["--resume-rewind"]) { value, line in
            guard let seconds = Double(value), seconds.isFinite, seconds >= 0, seconds <= 600 else {
                throw UsageError("--note-rewind '\(value)' is not a number of seconds between 0 and 600")
            }
            line.play.noteRewind = seconds
        },
    ]

    static let renderOptions: [CommandOption] = [
        option("--output", .required("FILE"), ["render"], "the file to make; its extension names the format: .wav, .flac, .opus (.ogg) or .mp3",
               aliases: ["-o"]) { value, line in
            guard !value.isEmpty else { throw UsageError("--output needs a file name") }
            line.render.output = value
        },
        option("--bitrate", .required("K"), ["render"], "kb/s of an .opus (6 to 256, default 64) or a constant-rate .mp3 (32 to 320, default 128)") { value, line in
            guard let kbps = Int(value.hasSuffix("k") ? String(value.dropLast()) : value), kbps > 0 else {
                throw UsageError("--bitrate '\(value)' is not a number of kb/s (64, or 64k)")
            }
            line.render.bitrate = kbps
        },
        option("--script", .required("FILE"), ["render"], "the queue a script builds, in the order its lines load it") { value, line in
            guard !value.isEmpty else { throw UsageError("--script needs a script file (or - for standard input)") }
            line.render.script = value
        },
        option("--quality", .required("Q"), ["render"], "0 (smallest) to 10 (best): a variable-rate .mp3, or a .flac's effort") { value, line in
            guard let quality = Int(value), (0...10).contains(quality) else { throw UsageError("--quality '\(value)' is not a number from 0 to 10") }
            line.render.quality = quality
        },
    ]

    static let commandOptions: [CommandOption] = [
        option("--json", .none, ["playlists", "playlist", "tracks", "messages", "chat", "shows", "episodes"], "the list as JSON, for scripts") { _, line in line.json = true },
        option("--download", .required("N"), ["refresh"], "keep the newest N unplayed episodes of each show downloaded") { value, line in
            guard let count = Int(value), (1...100).contains(count) else { throw UsageError("--download '\(value)' is not a count from 1 to 100") }
            line.downloadNewest = count
        },
        option("--new", .none, ["episodes"], "only new episodes: found by a refresh and not yet started") { _, line in line.newOnly = true },
        option("--voice", .none, ["chat"], "ask for a voice note too, and play it") { _, line in line.chatVoice = true },
        option("--react", .required("EMOJI"), ["chat"], "react to her reply") { value, line in
            guard !value.isEmpty else { throw UsageError("--react needs an emoji") }
            line.react = value
        },
        option("--queue", .required("FILE"), ["download", "render"], "every episode of a queue file; repeatable") { value, line in
            line.download.queueFiles.append(value)
        },
        option("--pin", .none, ["download"], "keep these until removed by hand (cache clear REF)") { _, line in line.download.pin = true },
        option("--rate", .required("LIMIT"), ["download"], "at most LIMIT bytes a second in all (500k, 2M)") { value, line in
            let number = value.lowercased().hasSuffix("/s") ? String(value.dropLast(2)) : value
            guard let rate = ByteSize.parse(number), rate >= 1024 else {
                throw UsageError("--rate '\(value)' is not a rate of at least 1k a second (e.g. 500k, 2M)")
            }
            line.download.rate = rate
        },
        option("--max-size", .required("SIZE"), ["cache"], "the cache's bound (2G, 500M; default 2G)") { value, line in
            guard ByteSize.parse(value) != nil else { throw UsageError("--max-size '\(value)' is not a size (e.g. 2G, 500M)") }
            line.cache.maxSize = value
        },
        option("--path", .none, ["config"], "print the config file's path only") { _, line in line.path = true },
        option("--reveal", .none, ["config"], "config get token: print the token itself (only to a terminal)") { _, line in line.reveal = true },
        option("--serve", .none, ["demo"], "run the backend only, until Ctrl-C") { _, line in line.demo.serve = true },
        option("--voicing", .required("S,S..."), ["demo"],
               "/api/speak voices a text in time: chunk n the nth number of seconds after the first ask (1,7)") { value, line in
            let seconds = value.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0).trimmingWhitespace()) }
            let all = seconds.compactMap { $0 }
            guard (1...16).contains(seconds.count), all.count == seconds.count, all.allSatisfy({ $0.isFinite && $0 >= 0 }),
                  zip(all, all.dropFirst()).allSatisfy({ $0 <= $1 }) else {
                throw UsageError("--voicing '\(value)' is not 1 to 16 seconds in order, by commas (0.5,2,7)")
            }
            line.demo.voicing = all
        },
        option("--dialect", .required("v1|v2"), ["demo"], "which form of Alicia's API the demo speaks: v2 (Alicia 2.0, the default) or v1") { value, line in
            guard let dialect = DemoBackend.Dialect(rawValue: value) else { throw UsageError("--dialect '\(value)' is not v1 or v2") }
            line.demo.dialect = dialect
        },
        option("--user", .required("NAME"), ["sync"], "sync setup: the account's user name") { value, line in line.sync.user = value },
        option("--once", .none, ["watch"], "one round, then exit (1 when anything failed): for cron") { _, line in line.watch.once = true },
        option("--interval", .required("DURATION"), ["watch"], "how often to ask the backend (60s, 5m; at least 2s; default 60s)") { value, line in
            guard let seconds = Invocation.duration(value), seconds >= 2, seconds <= 86_400 else {
                throw UsageError("--interval '\(value)' is not a duration from 2s to 24h (e.g. 60s, 5m)")
            }
            line.watch.interval = seconds
        },
        option("--port", .required("N"), ["demo"], "the port on 127.0.0.1 (default: a free one)") { value, line in
            guard let port = Int(value), (1...65535).contains(port) else {
                throw UsageError("--port '\(value)' is not a port from 1 to 65535")
            }
            line.demo.port = port
        },
    ]

    static let backendOptions: [CommandOption] = [
        option("--base-url", .required("URL"), backendCommands, "Alicia's backend, e.g. http://alicia.local:8766 (or ALICIA_BASE_URL)") { value, line in
            line.backend.baseURL = value
        },
        option("--token", .required("TOKEN"), backendCommands.union(["demo"]),
               "the backend's token (or ALICIA_TOKEN); for demo, the token it accepts (default: a random one)") { value, line in
            line.backend.token = value
            line.token = value
        },
        option("--token-file", .required("PATH"), backendCommands, "a file holding the backend's token") { value, line in
            line.backend.tokenFile = value
        },
    ]
}
