import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// A reference written as a path is a file first: with a backend configured, a mistyped file name
/// is "no such file", not a list of episodes.
@Suite("Paths first")
struct PathsFirstTests {
    @Test("play nothere.wav with a backend says no such file; a name that is also an episode says so on a second line")
    func noSuchFile() async throws {
        let backend = try DemoBackend(token: BackendCommandTests.token)
        defer { backend.stop() }
        let environment = try BackendCommandTests.isolatedEnvironment(backend)
        let missing = try await Playback.run(["play", "nothere.wav"], environment: environment)
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderrLines == ["alicia-player: no such file 'nothere.wav'"], "\(missing)")

        let alsoEpisode = try await Playback.run(["play", "sounds/s1e01.wav"], environment: environment)
        #expect(alsoEpisode.status == 1, "\(alsoEpisode)")
        #expect(alsoEpisode.stderrLines.first == "alicia-player: no such file 'sounds/s1e01.wav'", "\(alsoEpisode)")
        #expect(alsoEpisode.stderrLines.count == 2 && alsoEpisode.stderrLines.last?.contains("S1E01") == true, "\(alsoEpisode)")
    }
}
