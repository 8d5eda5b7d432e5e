import AliciaTestSupport
import Testing

/// `alicia-player play` into a pipe sink of the source's own sample spec: what comes out must be the
/// source's samples exactly (100 % volume, no resampling, no conversion), without gaps.
@Suite("Bit-exact playback")
struct BitExactPlaybackTests {
    /// 3 s of 48 kHz 16-bit stereo: 144 000 frames, 576 044 bytes.
    static let noise = WAVFixture(seconds: 3, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xA11C1A)

    @Test("HTTP URL plays bit-exact")
    func httpURL() async throws {
        let server = try NginxServer()
        try server.serve(Self.noise, as: "noise.wav")
        let (result, captured) = try await Playback.playCapturing16(server.url("/media/noise.wav"))
        expectSuccess(result)
        expectBitExact(captured: captured, expected: Self.noise.samples16, channels: 2)
    }

    @Test("file:// URL plays bit-exact")
    func fileURL() async throws {
        let directory = try TemporaryDirectory(prefix: "play")
        let path = try directory.write(Self.noise.bytes, as: "noise.wav")
        let (result, captured) = try await Playback.playCapturing16("file://" + path)
        expectSuccess(result)
        expectBitExact(captured: captured, expected: Self.noise.samples16, channels: 2)
    }

    @Test("plain path plays bit-exact")
    func plainPath() async throws {
        let directory = try TemporaryDirectory(prefix: "play")
        let path = try directory.write(Self.noise.bytes, as: "noise.wav")
        let (result, captured) = try await Playback.playCapturing16(path)
        expectSuccess(result)
        expectBitExact(captured: captured, expected: Self.noise.samples16, channels: 2)
    }

    /// Guards against playing a trailing chunk as audio, or failing to open a file whose tail must be read.
    @Test("WAV with a LIST chunk after the data plays exactly the data")
    func trailingChunk() async throws {
        let fixture = Self.noise.withTrailingChunk()
        let server = try NginxServer()
        try server.serve(fixture, as: "tagged.wav")
        let (result, captured) = try await Playback.playCapturing16(server.url("/media/tagged.wav"))
        expectSuccess(result)
        expectBitExact(captured: captured, expected: fixture.samples16, channels: 2)
    }

    @Test(
        "--start begins at the exact frame",
        arguments: [("1.5", 72_000), ("50%", 72_000), ("0:01", 48_000), ("0:00:02", 96_000)]
    )
    func start(_ start: String, frame: Int) async throws {
        let server = try NginxServer()
        try server.serve(Self.noise, as: "noise.wav")
        let (result, captured) = try await Playback.playCapturing16(server.url("/media/noise.wav"), ["--start", start])
        expectSuccess(result)
        expectBitExact(captured: captured, expected: Array(Self.noise.samples16[(frame * 2)...]), channels: 2)
    }

    @Test("44.1 kHz mono into a 44.1 kHz mono sink plays bit-exact")
    func mono44100() async throws {
        let fixture = WAVFixture(seconds: 2.5, sampleRate: 44_100, channels: 1, format: .pcm16, seed: 44_100)
        let server = try NginxServer()
        try server.serve(fixture, as: "mono.wav")
        let (result, captured) = try await Playback.playCapturing16(server.url("/media/mono.wav"), rate: 44_100, channels: 1)
        expectSuccess(result)
        expectBitExact(captured: captured, expected: fixture.samples16, channels: 1)
    }

    /// libsndfile hands these over as float (or as 16-bit, if the player asks for shorts): allow a
    /// few 16-bit LSBs, far below the ~0.5 typical difference between unrelated noise samples.
    @Test("24-bit and float WAVs into a float sink play within 3 LSB16", arguments: [WAVFixture.SampleFormat.pcm24, .float32])
    func wideFormats(_ format: WAVFixture.SampleFormat) async throws {
        let fixture = WAVFixture(seconds: 2.5, sampleRate: 48_000, channels: 2, format: format, seed: 24)
        let server = try NginxServer()
        try server.serve(fixture, as: "wide.wav")
        let (result, captured) = try await Playback.playCapturingFloat(server.url("/media/wide.wav"))
        expectSuccess(result)
        expectClose(captured: captured, expected: fixture.normalizedSamples, channels: 2, tolerance: 3 / 32_768)
    }

    /// A server that ignores Range answers 200 with the whole file. Playing it correctly and refusing
    /// it with a clear error are both fine; wrong audio is not.
    @Test("server ignoring Range: correct audio or a clear error")
    func serverIgnoringRange() async throws {
        let server = try NginxServer()
        try server.serve(Self.noise, as: "noise.wav")
        let (result, captured) = try await Playback.playCapturing16(server.url("/norange/noise.wav"))
        #expect(result.signal == nil, "crashed: \(result)")
        if result.status == 0 {
            expectSuccess(result)
            expectBitExact(captured: captured, expected: Self.noise.samples16, channels: 2)
        } else {
            expectErrorLine(result)
            expectPrefix(captured: captured, of: Self.noise.samples16, channels: 2)
        }
    }

    /// nginx sends at 256 KB/s, a third more than the 192 KB/s the file plays at: no gaps.
    @Test("rate-limited server plays bit-exact without gaps")
    func slowServer() async throws {
        let server = try NginxServer(slowRate: "256k")
        try server.serve(Self.noise, as: "noise.wav")
        let (result, captured) = try await Playback.playCapturing16(server.url("/slow/noise.wav"))
        expectSuccess(result)
        expectBitExact(captured: captured, expected: Self.noise.samples16, channels: 2)
    }
}
