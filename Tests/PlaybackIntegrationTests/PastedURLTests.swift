import AliciaTestSupport
import Testing

/// URLs as people paste them: a raw space, letters beyond ASCII. Browsers, curl and mpv encode
/// them; libcurl alone refuses them ("URL using bad/illegal format").
@Suite("Pasted URLs")
struct PastedURLTests {
    @Test("a URL with a raw space and an accented letter plays, bit-exact; an encoded one still does")
    func rawSpaceAndAccent() async throws {
        let server = try NginxServer()
        let fixture = WAVFixture(seconds: 1, sampleRate: 48_000, channels: 2, seed: 0x5E)
        try server.serve(fixture, as: "my café episode.wav")
        for url in [server.url("/media/my café episode.wav"), server.url("/media/my%20caf%C3%A9%20episode.wav")] {
            let (result, captured) = try await Playback.playCapturing16(url, ["--loudness", "off"])
            expectSuccess(result)
            expectBitExact(captured: AudioCompare.trimmingSilentFrames(captured, channels: 2), expected: fixture.samples16, channels: 2)
        }
        let asked = await server.settledAccessLog().map(\.uri)
        #expect(asked.contains("/media/my%20caf%C3%A9%20episode.wav"), "\(asked)")
    }
}
