import AliciaTestSupport
import Testing

/// What the player asks the server for, read from nginx's access log.
@Suite("Range requests")
struct RangeRequestTests {
    static let noise = WAVFixture(seconds: 3, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0x5EED)
    /// Slack for header probes and read-ahead past what was needed.
    static let slack = 64 * 1024

    @Test("a plain play uses only 206 answers and fetches the file about once")
    func plainPlay() async throws {
        let server = try NginxServer()
        try server.serve(Self.noise, as: "noise.wav")
        let (result, captured) = try await Playback.playCapturing16(server.url("/media/noise.wav"))
        expectSuccess(result)
        expectBitExact(captured: captured, expected: Self.noise.samples16, channels: 2)

        let entries = await server.settledAccessLog().filter { $0.uri.hasPrefix("/media/noise.wav") }
        #expect(!entries.isEmpty, "no request for the file in the access log")
        #expect(entries.allSatisfy { $0.status == 206 }, "not all answers were 206: \(entries)")
        let sent = entries.map(\.bytesSent).reduce(0, +)
        #expect(sent <= Self.noise.bytes.count + Self.slack, "\(sent) bytes sent for a \(Self.noise.bytes.count)-byte file: \(entries)")
    }

    /// Guards against downloading from byte 0 and discarding up to the start position.
    @Test("--start 50% does not download the first half")
    func startHalfway() async throws {
        let server = try NginxServer()
        try server.serve(Self.noise, as: "noise.wav")
        let (result, captured) = try await Playback.playCapturing16(server.url("/media/noise.wav"), ["--start", "50%"])
        expectSuccess(result)
        expectBitExact(captured: captured, expected: Array(Self.noise.samples16[(72_000 * 2)...]), channels: 2)

        let entries = await server.settledAccessLog().filter { $0.uri.hasPrefix("/media/noise.wav") }
        #expect(!entries.isEmpty, "no request for the file in the access log")
        #expect(!entries.contains { $0.status == 200 }, "a request was answered with the whole file: \(entries)")
        let sent = entries.map(\.bytesSent).reduce(0, +)
        let limit = Self.noise.bytes.count / 2 + Self.slack
        #expect(sent <= limit, "\(sent) bytes sent, more than half the file + 64 KiB (\(limit)): \(entries)")
    }
}
