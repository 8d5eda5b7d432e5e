// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "alicia-player",
    products: [
        .executable(name: "alicia-player", targets: ["alicia-player"]),
        .library(name: "AliciaAudio", targets: ["AliciaAudio"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CSndfile",
            pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]
        ),
        // No pkgConfig: libpulse.pc adds -D_REENTRANT and -pthread, which SwiftPM
        // rejects with a warning on every build; the headers are on the default path.
        .systemLibrary(
            name: "CPulse",
            providers: [.apt(["libpulse-dev"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // Owners of libcurl's handles, shared (at `package` access) by the engine's
        // fetcher and the backend client: one HTTP stack.
        .target(
            name: "AliciaCurl",
            dependencies: ["CCurl"]
        ),
        // The engine: fetch → decode → play. No terminal code, no Foundation.
        .target(
            name: "AliciaAudio",
            dependencies: ["AliciaCurl", "CCurl", "CSndfile", "CPulse"]
        ),
        // Alicia's backend: configuration, the API over libcurl, JSON through FoundationEssentials.
        .target(
            name: "AliciaBackend",
            dependencies: ["AliciaCurl", "CCurl"]
        ),
        // The terminal layer of the interactive UI: raw mode, keys, display width, diffed screens.
        .target(
            name: "AliciaTerminal"
        ),
        // Option parsing, time formats, the progress line and the `play` loop:
        // everything the executable does, where tests can reach it.
        .target(
            name: "AliciaPlayerCLI",
            dependencies: ["AliciaAudio", "AliciaBackend", "AliciaDemoBackend", "AliciaTerminal"]
        ),
        .executableTarget(
            name: "alicia-player",
            dependencies: ["AliciaPlayerCLI"]
        ),
        // A stand-in for Alicia's backend on loopback (libmicrohttpd): the `demo` command's
        // library and the tests' server, with fault settings.
        .target(
            name: "AliciaDemoBackend",
            dependencies: ["CMicroHTTPD"]
        ),
        // Fixtures and harnesses shared by the test targets: WAV generation,
        // a PulseAudio pipe-sink capture, an nginx on loopback, running the binary.
        .target(
            name: "AliciaTestSupport",
            path: "Tests/AliciaTestSupport"
        ),
        .testTarget(
            name: "AliciaAudioTests",
            dependencies: ["AliciaAudio", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaPlayerCLITests",
            dependencies: ["AliciaPlayerCLI", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaTerminalTests",
            dependencies: ["AliciaTerminal"]
        ),
        .testTarget(
            name: "AliciaBackendTests",
            dependencies: ["AliciaBackend", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "AliciaDemoBackendTests",
            dependencies: ["AliciaDemoBackend", "AliciaTestSupport"]
        ),
        .testTarget(
            name: "PlaybackIntegrationTests",
            dependencies: ["AliciaTestSupport", "AliciaDemoBackend"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
