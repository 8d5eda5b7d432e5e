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
        // The engine: fetch → decode → play. No terminal code, no Foundation.
        .target(
            name: "AliciaAudio",
            dependencies: ["CCurl", "CSndfile", "CPulse"]
        ),
        // Option parsing, time formats, the progress line and the `play` loop:
        // everything the executable does, where tests can reach it.
        .target(
            name: "AliciaPlayerCLI",
            dependencies: ["AliciaAudio"]
        ),
        .executableTarget(
            name: "alicia-player",
            dependencies: ["AliciaPlayerCLI"]
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
            name: "PlaybackIntegrationTests",
            dependencies: ["AliciaTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
