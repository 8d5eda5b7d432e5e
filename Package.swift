// swift-tools-version:6.0
import PackageDescription

/// How the executable is linked (DECISIONS.md, "Link order"), with lld from the toolchain:
/// - packed relative relocations (DT_RELR, glibc 2.36): with the Swift runtime linked in statically
///   the executable has ~36,000 relative relocations; as RELA entries they are 860 KiB the loader
///   reads at every start, as RELR 7 KiB;
/// - the functions that run while playing laid out first and together (`bench/link-order` writes
///   the list), so the kernel maps a few pages of code instead of 64 KiB around each of hundreds of
///   scattered functions. Names the list has and the binary lacks are skipped.
let executableLinkFlags = [
    "-use-ld=lld",
    "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/alicia-player/link-order.txt",
    "-Xlinker", "--no-warn-symbol-ordering",
]

/// Every Swift function in a section of its own, so that the link order can place the ones that run
/// while playing together instead of dragging whole files along (DECISIONS.md, "Link order").
let functionSections: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"])]

/// The engine's sample loops (the pitch stretcher, skip silence, loudness, gain, conversion) are
/// optimized in debug builds too: the tests run the player they build, beside a whole suite and
/// under the sanitizers, and at -Onone those loops cost six times the CPU of release, enough to
/// starve a stream on a loaded two-core machine (DECISIONS.md, "The engine is optimized in every
/// build").
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "alicia-player",
    products: [
        .executable(name: "alicia-player", targets: ["alicia-player"]),
        .library(name: "AliciaAudio", targets: ["AliciaAudio"]),
    ],
    targets: [
        // libcurl (libcurl4-openssl-dev for the header). No link line: it is dlopen'ed at the first
        // request, so a local file never maps its thirty libraries (Sources/CCurl/include/alicia_curl.h).
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        .systemLibrary(
            name: "CSndfile",
            pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]
        ),
        // MP3 decoding frame by frame (libsndfile links the same library).
        .systemLibrary(
            name: "CMpg123",
            pkgConfig: "libmpg123",
            providers: [.apt(["libmpg123-dev"])]
        ),
        // AAC (M4A, MP4, ADTS) through FFmpeg's LGPL decoders (libavformat-dev, libavcodec-dev for
        // the headers). No link line: the libraries are dlopen'ed when an item needs them, and the
        // av_log callback's va_list needs C (Sources/CFFmpeg/include/alicia_ffmpeg.h).
        .target(
            name: "CFFmpeg",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // No pkgConfig: libpulse.pc adds -D_REENTRANT and -pthread, which SwiftPM
        // rejects with a warning on every build; the headers are on the default path.
        .systemLibrary(
            name: "CPulse",
            providers: [.apt(["libpulse-dev"])]
        ),
        // Sample-rate conversion where an item in another format joins a running stream. No
        // pkgConfig and no link line: libsoxr is dlopen'ed on first use (Sources/CSoxr/shim.h).
        .systemLibrary(
            name: "CSoxr",
            providers: [.apt(["libsoxr-dev"])]
        ),
        // AAC in MP4/M4A, demuxed by the engine and decoded by faad2. No pkgConfig and no link line:
        // libfaad is dlopen'ed when an AAC item opens (Sources/CFaad/shim.h).
        .systemLibrary(
            name: "CFaad",
            providers: [.apt(["libfaad-dev"])]
        ),
        // Display width: utf8proc's character widths and grapheme breaking (the library tmux and
        // Julia use), for the terminal layer. No pkgConfig: libutf8proc.pc adds -DUTF8PROC_EXPORTS
        // (for Windows DLLs), which SwiftPM rejects with a warning; the header is on the default path.
        .systemLibrary(
            name: "CUtf8proc",
            providers: [.apt(["libutf8proc-dev"])]
        ),
        // Loudness (EBU R 128: integrated loudness and true peak) for matched loudness.
        .systemLibrary(
            name: "CEbur128",
            pkgConfig: "libebur128",
            providers: [.apt(["libebur128-dev"])]
        ),
        .systemLibrary(
            name: "CJSON",
            pkgConfig: "libcjson",
            providers: [.apt(["libcjson-dev"])]
        ),
        // Tags of rendered files: Ogg pages for an Opus file's comment header, FLAC's metadata
        // blocks (libogg-dev, libflac-dev). libsndfile links both already, so they cost no start-up.
        .systemLibrary(
            name: "COgg",
            providers: [.apt(["libogg-dev"])]
        ),
        .systemLibrary(
            name: "CFLAC",
            providers: [.apt(["libflac-dev"])]
        ),
        // The listener's library database (libsqlite3-dev for the header).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libmicrohttpd (libmicrohttpd-dev for the header), dlopen'ed when the demo backend starts:
        // no other command maps it or the GnuTLS it brings (Sources/CMicroHTTPD/include/alicia_mhd.h).
        .target(
            name: "CMicroHTTPD",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // MPRIS over sd-bus: the object vtables, written with sd-bus's macros (which Swift cannot
        // expand), and non-variadic wrappers.
        // libsystemd's sd-bus, dlopen'ed once for MPRIS and notifications alike, when a session bus
        // is first used: a player without one never maps it (headers from libsystemd-dev).
        .target(
            name: "CSystemd",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        .target(
            name: "CMPRIS",
            dependencies: ["CSystemd"]
        ),
        // Desktop notifications over sd-bus: Notify, GetCapabilities, GetNameOwner and the two signals,
        // whose variadic message calls Swift cannot make.
        .target(
            name: "CNotify",
            dependencies: ["CSystemd"]
        ),
        // libxml2 (libxml2-dev for the headers, which live under /usr/include/libxml2). No link line:
        // it is dlopen'ed when the first feed is read, so a player that only plays audio never maps
        // it or the ICU it brings (Sources/CXML2/include/alicia_xml.h).
        .target(
            name: "CXML2",
            cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])],
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // `Locked`: a value behind a pthread mutex, what every module uses instead of
        // Synchronization's `Mutex`, which ThreadSanitizer cannot see through on Linux.
        .target(
            name: "AliciaLocks",
            swiftSettings: functionSections
        ),
        // Owners of libcurl's handles and the one HTTP policy, shared (at `package` access) by the
        // engine's fetcher, the backend client and the downloader: one HTTP stack, and the only
        // target that imports CCurl.
        .target(
            name: "AliciaCurl",
            dependencies: ["AliciaLocks", "CCurl"],
            swiftSettings: functionSections
        ),
        // The engine: fetch → decode → play. No terminal code, no Foundation.
        .target(
            name: "AliciaAudio",
            dependencies: ["AliciaLocks", "AliciaCurl", "AliciaJSON", "CSndfile", "CMpg123", "CFFmpeg", "CFaad", "CPulse", "CSoxr", "CEbur128"],
            swiftSettings: functionSections + optimizedInDebug
        ),
        // `Codable` over cJSON: the JSON of Alicia's API, for the client and the demo backend,
        // without Foundation in the binary.
        .target(
            name: "AliciaJSON",
            dependencies: ["CJSON"],
            swiftSettings: functionSections
        ),
        // Offline listening: the download cache (resumable downloads over libcurl, eviction,
        // one cache for every instance under flock).
        .target(
            name: "AliciaCache",
            dependencies: ["AliciaLocks", "AliciaCurl", "AliciaJSON"],
            swiftSettings: functionSections
        ),
        // The listener's library in SQLite (`library.db`): shows, episodes, resume positions, played
        // marks, the downloads' index, small state; schema migrations; the import of the old state
        // files. The only target that imports CSQLite.
        .target(
            name: "AliciaStore",
            dependencies: ["AliciaLocks", "AliciaJSON", "CSQLite"],
            swiftSettings: functionSections
        ),
        // Alicia's backend: configuration, the API over libcurl, JSON through AliciaJSON.
        .target(
            name: "AliciaBackend",
            dependencies: ["AliciaLocks", "AliciaCurl", "AliciaJSON"],
            swiftSettings: functionSections
        ),
        // Podcast feeds (RSS 2.0, RSS 1.0, Atom, with iTunes and Podcasting 2.0), the web pages
        // that name them, and OPML lists, read with libxml2 into value types; OPML written.
        .target(
            name: "AliciaFeeds",
            dependencies: ["AliciaLocks", "CXML2"],
            swiftSettings: functionSections
        ),
        // Subscriptions: feeds fetched politely (many at once, a few a host, conditional, moves
        // followed by hand), read by AliciaFeeds and kept in the library database; shows and
        // episodes listed for people and scripts; OPML in and out.
        .target(
            name: "AliciaSubscriptions",
            dependencies: ["AliciaLocks", "AliciaCurl", "AliciaFeeds", "AliciaStore", "AliciaJSON"],
            swiftSettings: functionSections
        ),
        // One listener's playback: the episode player and its queue, the voice-note player, the
        // cues between them. What `play`, the Studio and the plain Studio share.
        .target(
            name: "AliciaSession",
            dependencies: ["AliciaLocks", "AliciaAudio", "AliciaJSON"],
            swiftSettings: functionSections
        ),
        // Remote control of a listening session: the mpv-compatible JSON IPC socket and MPRIS,
        // on one thread with one poll loop.
        .target(
            name: "AliciaControl",
            dependencies: ["AliciaLocks", "AliciaAudio", "AliciaSession", "AliciaJSON", "CMPRIS"],
            swiftSettings: functionSections
        ),
        // The terminal layer of the interactive UI: raw mode, keys, display width, diffed screens.
        .target(
            name: "AliciaTerminal",
            dependencies: ["AliciaLocks", "CUtf8proc"],
            swiftSettings: functionSections
        ),
        // What a reference names and where it plays from: the backend's library (offline too),
        // paths, lists and playlists as queue items, the download cache's policy, auto-download.
        .target(
            name: "AliciaLibrary",
            dependencies: ["AliciaLocks", "AliciaAudio", "AliciaSession", "AliciaBackend", "AliciaCache", "AliciaTerminal",
                           "AliciaCurl", "AliciaStore", "AliciaFeeds", "AliciaJSON"],
            swiftSettings: functionSections
        ),
        // `render`: a queue played into a file as fast as it decodes (the engine's fixed-format
        // output), encoded by libsndfile, its chapters and tags written after.
        .target(
            name: "AliciaRender",
            dependencies: ["AliciaLocks", "AliciaAudio", "CSndfile", "COgg", "CFLAC"],
            swiftSettings: functionSections
        ),
        // Listening reports (`POST /api/episode_day`): the app's rules over what the host sees each
        // turn, and an outbox in the library database with a sender thread of its own.
        .target(
            name: "AliciaReports",
            dependencies: ["AliciaLocks", "AliciaAudio", "AliciaSession", "AliciaBackend", "AliciaStore", "AliciaJSON"],
            swiftSettings: functionSections
        ),
        // What every playing command shares: the session host (socket, signals, control server,
        // auto-download, one poll loop), the session's options, `play`'s front end.
        .target(
            name: "AliciaHost",
            dependencies: ["AliciaLocks", "AliciaAudio", "AliciaSession", "AliciaControl", "AliciaBackend", "AliciaLibrary",
                           "AliciaTerminal", "AliciaReports", "AliciaSync"],
            swiftSettings: functionSections
        ),
        // The interactive Studio (a front end of the host) and the plain one off a terminal.
        .target(
            name: "AliciaStudio",
            dependencies: ["AliciaLocks", "AliciaAudio", "AliciaSession", "AliciaBackend", "AliciaLibrary", "AliciaHost",
                           "AliciaTerminal", "AliciaStore"],
            swiftSettings: functionSections
        ),
        // Desktop notifications (org.freedesktop.Notifications): the bus connection's owner and the
        // gate that lets only the server's own signals about our notifications through.
        .target(
            name: "AliciaNotify",
            dependencies: ["CNotify"],
            swiftSettings: functionSections
        ),
        // `watch`: her proactive messages, new tracks and feed episodes as notifications, the seen ids
        // in the library database, back-off, one ppoll between rounds.
        .target(
            name: "AliciaWatch",
            dependencies: ["AliciaLocks", "AliciaNotify", "AliciaBackend", "AliciaStore", "AliciaSubscriptions"],
            swiftSettings: functionSections
        ),
        // Sync with the listener's phone: subscriptions and episode actions over the gpodder.net API or
        // Nextcloud's GPodder Sync, the state in the library database, a pass on a thread of its own.
        .target(
            name: "AliciaSync",
            dependencies: ["AliciaLocks", "AliciaCurl", "AliciaJSON", "AliciaBackend", "AliciaAudio", "AliciaSession", "AliciaStore",
                           "AliciaSubscriptions", "AliciaCache"],
            swiftSettings: functionSections
        ),
        // `ctl`, the control socket's client front end: a command line's words as one socket command,
        // the reply as text for a shell; `follow`, `idle`, `watch`, `wait`, and the running players.
        .target(
            name: "AliciaControlClient",
            dependencies: ["AliciaLocks", "AliciaJSON", "AliciaAudio", "AliciaSession", "AliciaControl"],
            swiftSettings: functionSections
        ),
        // The command line: its options table, usages, and the commands.
        .target(
            name: "AliciaPlayerCLI",
            dependencies: ["AliciaLocks", "AliciaAudio", "AliciaSession", "AliciaControl", "AliciaControlClient", "AliciaBackend", "AliciaCache",
                           "AliciaCurl", "AliciaDemoBackend", "AliciaTerminal", "AliciaLibrary", "AliciaHost", "AliciaStudio",
                           "AliciaStore", "AliciaSubscriptions", "AliciaWatch", "AliciaRender", "AliciaSync"],
            swiftSettings: functionSections
        ),
        .executableTarget(
            name: "alicia-player",
            dependencies: ["AliciaPlayerCLI"],
            exclude: ["link-order.txt"],
            swiftSettings: functionSections,
            linkerSettings: [.unsafeFlags(executableLinkFlags)]
        ),
        // libFuzzer's driver entry, declared for alicia-fuzz (no link line: -sanitize=fuzzer links it).
        .systemLibrary(name: "CLibFuzzer"),
        // Hostile input, one entry point per parser (DECISIONS.md, "Fuzzing"): what `alicia-fuzz`
        // hands to libFuzzer and what the corpus-replay test feeds every seed in Tests/Fuzz to.
        .target(
            name: "AliciaFuzzTargets",
            dependencies: ["AliciaLocks", "AliciaAudio", "AliciaBackend", "AliciaCache", "AliciaControl", "AliciaCurl",
                           "AliciaDemoBackend", "AliciaFeeds", "AliciaJSON", "AliciaPlayerCLI", "AliciaSession", "AliciaLibrary",
                           "AliciaHost"]
        ),
        // Thin: replays files through a target; built by scripts/fuzz with -sanitize=fuzzer and
        // -DALICIA_FUZZ, it hands its command line to libFuzzer's driver instead.
        .executableTarget(
            name: "alicia-fuzz",
            dependencies: ["AliciaFuzzTargets", "CLibFuzzer"]
        ),
        // A stand-in for Alicia's backend on loopback (libmicrohttpd): the `demo` command's
        // library and the tests' server, with fault settings.
        .target(
            name: "AliciaDemoBackend",
            dependencies: ["AliciaLocks", "AliciaJSON", "CMicroHTTPD"],
            swiftSettings: functionSections
        ),
        // Fixtures and harnesses shared by the test targets: WAV generation,
        // a PulseAudio pipe-sink capture, an nginx on loopback, running the binary.
        .target(
            name: "AliciaTestSupport",
            dependencies: ["AliciaLocks"],
            path: "Tests/AliciaTestSupport"
        ),
        .testTarget(
            name: "AliciaAudioTests",
            dependencies: ["AliciaAudio", "AliciaCurl", "AliciaLocks", "AliciaSession", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaRenderTests",
            dependencies: ["AliciaRender", "AliciaAudio", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaSessionTests",
            dependencies: ["AliciaSession", "AliciaAudio", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaPlayerCLITests",
            dependencies: ["AliciaPlayerCLI", "AliciaControlClient", "AliciaSession", "AliciaLibrary", "AliciaHost", "AliciaStudio",
                           "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaLibraryTests",
            dependencies: ["AliciaLibrary", "AliciaBackend", "AliciaSession", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaStudioTests",
            dependencies: ["AliciaStudio", "AliciaSession", "AliciaAudio", "AliciaTerminal", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaControlClientTests",
            dependencies: ["AliciaControlClient", "AliciaJSON", "AliciaLocks"]
        ),
        .testTarget(
            name: "AliciaControlTests",
            dependencies: ["AliciaControl", "AliciaAudio", "AliciaJSON"]
        ),
        .testTarget(
            name: "AliciaTerminalTests",
            dependencies: ["AliciaTerminal", "AliciaLocks"]
        ),
        .testTarget(
            name: "AliciaBackendTests",
            dependencies: ["AliciaBackend", "AliciaJSON", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaCacheTests",
            dependencies: ["AliciaCache", "AliciaDemoBackend", "AliciaLocks", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaJSONTests",
            dependencies: ["AliciaJSON"]
        ),
        .testTarget(
            name: "AliciaStoreTests",
            dependencies: ["AliciaStore", "AliciaLocks", "AliciaJSON"]
        ),
        .testTarget(
            name: "AliciaReportsTests",
            dependencies: ["AliciaReports", "AliciaAudio", "AliciaSession", "AliciaBackend", "AliciaStore", "AliciaDemoBackend",
                           "AliciaJSON", "AliciaLocks", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaDemoBackendTests",
            dependencies: ["AliciaDemoBackend", "AliciaBackend", "AliciaTestSupport"]
        ),
        // Fixtures/ (text feeds and real OPML exports) and Generators/make_feeds.py are read by
        // the tests, not compiled.
        .testTarget(
            name: "AliciaFeedsTests",
            dependencies: ["AliciaFeeds"],
            exclude: ["Fixtures", "Generators"]
        ),
        .testTarget(
            name: "AliciaSubscriptionsTests",
            dependencies: ["AliciaSubscriptions", "AliciaStore", "AliciaFeeds", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaSyncTests",
            dependencies: ["AliciaSync", "AliciaStore", "AliciaSession", "AliciaAudio", "AliciaLocks", "AliciaJSON", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaWatchTests",
            dependencies: ["AliciaWatch", "AliciaNotify"]
        ),
        .testTarget(
            name: "AliciaFuzzTargetsTests",
            dependencies: ["AliciaFuzzTargets"]
        ),
        .testTarget(
            name: "PlaybackIntegrationTests",
            dependencies: ["AliciaTestSupport", "AliciaDemoBackend", "AliciaLocks"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
