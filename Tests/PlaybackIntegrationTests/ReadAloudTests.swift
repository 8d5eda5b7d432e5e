import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Synchronization
import Testing

/// Read-aloud that speaks as it renders: `speak TEXT` against a demo backend whose voice renders in
/// time (`DemoBackend.Voicing`), captured at the chunks' own format (24 kHz mono 16-bit), where
/// the player passes samples through untouched.
@Suite("Read-aloud as it renders")
struct ReadAloudTests {
    /// The samples of a WAV body (after its `data` chunk's header).
    static func dataSamples(_ bytes: [UInt8]) -> [Int16] {
        guard let at = (0..<max(0, bytes.count - 8)).first(where: { bytes[$0..<$0 + 4].elementsEqual("data".utf8) }) else { return [] }
        return AudioCompare.int16Samples(littleEndian: bytes[(at + 8)...])
    }

    /// A chunk's samples, fetched with curl (a client that is not ours).
    static func chunk(_ backend: DemoBackend, _ text: String, _ index: Int) throws -> [Int16] {
        let url = backend.baseURL + DemoBackend.spokenChunkPath(of: text, index: index) + "?token=" + backend.token
        let download = try ChildProcess.runBlocking(try ChildProcess.resolve("curl"), ["-sf", url], timeout: .seconds(30))
        return dataSamples(download.stdout)
    }

    static func trimmed(_ samples: [Int16]) -> [Int16] {
        guard let first = samples.firstIndex(where: { $0 != 0 }), let last = samples.lastIndex(where: { $0 != 0 }) else { return [] }
        return Array(samples[first...last])
    }

    /// A text of its own per test (the demo voices each text once, from its first ask).
    static func text(_ what: String) -> String { "Read aloud as it renders, \(what), \(UInt32.random(in: 1000...9999))." }

    /// Where the first audible frame arrived, on the test's clock.
    final class FirstAudio: Sendable {
        let at = Mutex<ContinuousClock.Instant?>(nil)
        init(_ capture: PipeSinkCapture) {
            capture.whenAudible { [self] in at.withLock { $0 = $0 ?? .now } }
        }
    }

    /// `captured` (trimmed) is `first`'s audio then, after silence only, `second`'s, bit-exact:
    /// the frames of silence between them beyond the chunks' own.
    static func silenceBetween(_ captured: [Int16], _ first: [Int16], _ second: [Int16]) -> Int? {
        let head = trimmed(first)
        guard let lead = first.firstIndex(where: { $0 != 0 }) else { return nil }
        let firstPart = Array(first[lead...])
        guard captured.count > firstPart.count, Array(captured.prefix(firstPart.count)) == firstPart, !head.isEmpty else { return nil }
        let rest = captured[firstPart.count...]
        guard let resume = rest.firstIndex(where: { $0 != 0 }) else { return nil }
        let secondLead = second.firstIndex(where: { $0 != 0 }) ?? 0
        guard Array(rest[resume...]) == trimmed(second) else { return nil }
        return (resume - firstPart.count) - secondLead
    }

    @Test("voice behind: first chunk after 1 s, second after 7 s — heard from the first chunk, in order, bit-exact, silent only while waiting")
    func voiceBehind() async throws {
        let voicing = DemoBackend.Voicing(chunkDelays: [.seconds(1), .seconds(7)])
        let backend = try DemoBackend(token: "ra-\(UInt32.random(in: 1000...9999))", faults: .init(voicing: voicing))
        defer { backend.stop() }
        let capture = try PipeSinkCapture(format: .s16le, rate: 24_000, channels: 1)
        let first = FirstAudio(capture)
        let text = Self.text("behind")
        let result = try await Playback.run(["speak", text, "--device", capture.sinkName],
                                            environment: BackendCommandTests.isolatedEnvironment(backend), timeout: .seconds(60))
        let captured = Self.trimmed(await capture.finishInt16())
        #expect(result.status == 0, "\(result)")
        let start = try #require(backend.voicingStart(of: text))
        let heard = try #require(first.at.withLock { $0 })
        // The first chunk is voiced 1 s after the first ask: heard within about one polling interval.
        let latency = heard - (start + .seconds(1))
        #expect(latency < .milliseconds(1800), "first audio \(latency) after the first chunk was voiced")
        let chunks = try [Self.chunk(backend, text, 0), Self.chunk(backend, text, 1)]
        let silence = Self.silenceBetween(captured, chunks[0], chunks[1])
        #expect(silence != nil, "not chunk 1, silence, chunk 2 bit-exact: \(captured.count) samples")
        if let silence {
            // The second chunk comes 7 s after the first ask; the first lasts 2–5 s from about 1 s on.
            let chunk0Seconds = Double(chunks[0].count) / 24_000
            let behind = 7 - 1 - chunk0Seconds
            #expect(silence > 0 && Double(silence) / 24_000 < behind + 2.0, "\(silence) frames of silence; the voice was \(behind) s behind")
        }
        #expect(result.stderr.contains("could not be voiced") == false, "\(result.stderr)")
    }

    @Test("voice ahead: chunks listed while the first plays are joined with 0 frames of silence, bit-exact")
    func voiceAhead() async throws {
        let voicing = DemoBackend.Voicing(chunkDelays: [.zero, .seconds(1), .milliseconds(1500)])
        let backend = try DemoBackend(token: "ra-\(UInt32.random(in: 1000...9999))", faults: .init(voicing: voicing))
        defer { backend.stop() }
        let capture = try PipeSinkCapture(format: .s16le, rate: 24_000, channels: 1)
        let text = Self.text("ahead")
        let result = try await Playback.run(["speak", text, "--device", capture.sinkName],
                                            environment: BackendCommandTests.isolatedEnvironment(backend), timeout: .seconds(60))
        let captured = Self.trimmed(await capture.finishInt16())
        #expect(result.status == 0, "\(result)")
        // The first ask found one chunk: the item was a growing one (not all there at once).
        let speaks = backend.requests.filter { $0.path.hasPrefix("/api/speak") }.count
        #expect(speaks >= 2, "\(speaks) asks of /api/speak")
        let expected = Self.trimmed(try (0..<3).flatMap { try Self.chunk(backend, text, $0) })
        #expect(captured.count == expected.count, "\(captured.count) samples played, \(expected.count) in the chunks")
        #expect(AudioCompare.firstMismatch(expected: expected, actual: captured) == nil,
                "not the chunks back to back: \(AudioCompare.describeDifference(expected: expected, actual: captured, channels: 1))")
    }

    @Test("a voicing that fails after one chunk: that chunk plays, one line says so, the next item plays")
    func failsAfterOneChunk() async throws {
        let voicing = DemoBackend.Voicing(chunkDelays: [.zero, .seconds(2)], failAfter: 1)
        let backend = try DemoBackend(token: "ra-\(UInt32.random(in: 1000...9999))", faults: .init(voicing: voicing))
        defer { backend.stop() }
        let directory = try TemporaryDirectory(prefix: "readaloud")
        let after = WAVFixture(seconds: 1.5, sampleRate: 24_000, channels: 1, seed: 24)
        let path = directory.file("after.wav")
        try after.data.write(to: URL(fileURLWithPath: path))
        let capture = try PipeSinkCapture(format: .s16le, rate: 24_000, channels: 1)
        let text = Self.text("failing")
        let result = try await Playback.run(["play", "speak:" + text, path, "--device", capture.sinkName],
                                            environment: BackendCommandTests.isolatedEnvironment(backend), timeout: .seconds(60))
        let captured = Self.trimmed(await capture.finishInt16())
        #expect(result.status == 0, "\(result)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("could not be voiced") }
        #expect(lines.count == 1, "\(result.stderr)")
        let chunk = try Self.chunk(backend, text, 0)
        let silence = Self.silenceBetween(captured, chunk, after.samples16)
        #expect(silence != nil, "not the one chunk, then the next item, bit-exact: \(captured.count) samples")
    }
}
