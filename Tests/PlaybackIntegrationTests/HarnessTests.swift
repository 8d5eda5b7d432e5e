import AliciaTestSupport
import Foundation
import Testing

// Tests of the test harness itself (AliciaTestSupport), so that a red playback test means the player.

@Suite("Harness: WAVFixture")
struct WAVFixtureTests {
    private func le16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    private func le32(_ bytes: [UInt8], _ at: Int) -> Int { le16(bytes, at) | le16(bytes, at + 2) << 16 }
    private func tag(_ bytes: [UInt8], _ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }

    @Test("canonical 44-byte header", arguments: WAVFixture.SampleFormat.allCases)
    func header(_ format: WAVFixture.SampleFormat) {
        let fixture = WAVFixture(frames: 1000, sampleRate: 44_100, channels: 2, format: format, seed: 5)
        let bytes = fixture.bytes
        let width = format.bytesPerSample
        #expect(bytes.count == 44 + 1000 * 2 * width)
        #expect(tag(bytes, 0) == "RIFF" && le32(bytes, 4) == bytes.count - 8 && tag(bytes, 8) == "WAVE")
        #expect(tag(bytes, 12) == "fmt " && le32(bytes, 16) == 16)
        #expect(le16(bytes, 20) == (format == .float32 ? 3 : 1))
        #expect(le16(bytes, 22) == 2 && le32(bytes, 24) == 44_100)
        #expect(le32(bytes, 28) == 44_100 * 2 * width && le16(bytes, 32) == 2 * width && le16(bytes, 34) == 8 * width)
        #expect(tag(bytes, 36) == "data" && le32(bytes, 40) == 1000 * 2 * width)
    }

    @Test("noise never has a silent frame and stays within full scale", arguments: WAVFixture.SampleFormat.allCases)
    func noSilentFrame(_ format: WAVFixture.SampleFormat) {
        let fixture = WAVFixture(seconds: 0.5, sampleRate: 48_000, channels: 1, format: format, seed: 9)
        let samples = fixture.normalizedSamples
        #expect(samples.count == 24_000)
        #expect(AudioCompare.longestSilentRun(samples, channels: 1) == 0)
        // Every sample is at least one 16-bit LSB away from zero, and noise is loud.
        #expect(samples.allSatisfy { abs($0) >= 1 / 32_768 && abs($0) <= 1 })
        #expect(samples.map { abs($0) }.max()! > 0.9)
        #expect(samples.contains { $0 < 0 } && samples.contains { $0 > 0 })
    }

    @Test("the same seed gives the same bytes; another seed other bytes")
    func deterministic() {
        #expect(WAVFixture(seconds: 0.1, seed: 1).bytes == WAVFixture(seconds: 0.1, seed: 1).bytes)
        #expect(WAVFixture(seconds: 0.1, seed: 1).bytes != WAVFixture(seconds: 0.1, seed: 2).bytes)
        // Pinned: a change here changes every fixture.
        var generator = Xorshift64(seed: 1)
        #expect(generator.next() == 5_180_492_295_206_395_165)
    }

    @Test("samples16 are the data chunk's samples")
    func samples16() {
        let fixture = WAVFixture(frames: 3, sampleRate: 8_000, channels: 2, format: .pcm16, seed: 3)
        let samples = fixture.samples16
        #expect(samples.count == 6)
        for (index, sample) in samples.enumerated() {
            let raw = UInt16(fixture.bytes[44 + 2 * index]) | UInt16(fixture.bytes[45 + 2 * index]) << 8
            #expect(Int16(bitPattern: raw) == sample)
            #expect(sample != 0 && sample != .min)
        }
    }

    @Test("truncated: the header still claims every frame, the data stops early")
    func truncated() {
        let full = WAVFixture(frames: 1000, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 4)
        let cut = full.truncated(keepingFraction: 0.25)
        #expect(cut.frameCount == 1000 && cut.framesPresent == 250)
        #expect(cut.bytes.count == 44 + 250 * 4)
        #expect(le32(cut.bytes, 40) == 4000 && le32(cut.bytes, 4) == full.bytes.count - 8)
        #expect(cut.samples16 == Array(full.samples16.prefix(500)))
    }

    @Test("trailing LIST chunk after the data, sizes consistent, pad byte after odd data")
    func trailingChunk() {
        for (channels, format) in [(2, WAVFixture.SampleFormat.pcm16), (1, .pcm24)] {
            let plain = WAVFixture(frames: 101, sampleRate: 48_000, channels: channels, format: format, seed: 6)
            let tagged = plain.withTrailingChunk()
            let dataSize = 101 * channels * format.bytesPerSample
            let listAt = 44 + dataSize + dataSize % 2
            #expect(tagged.bytes.prefix(4) == plain.bytes.prefix(4))
            #expect(le32(tagged.bytes, 4) == tagged.bytes.count - 8)
            #expect(le32(tagged.bytes, 40) == dataSize)
            #expect(Array(tagged.bytes[44..<44 + dataSize]) == Array(plain.bytes[44...]))
            #expect(tag(tagged.bytes, listAt) == "LIST" && tag(tagged.bytes, listAt + 8) == "INFO")
            #expect(le32(tagged.bytes, listAt + 4) == tagged.bytes.count - listAt - 8)
            #expect(tagged.normalizedSamples == plain.normalizedSamples)
        }
    }

    @Test("write(to:) writes the bytes")
    func write() throws {
        let directory = try TemporaryDirectory(prefix: "harness")
        let fixture = WAVFixture(frames: 10)
        try fixture.write(to: directory.file("a.wav"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("a.wav"))) == fixture.data)
    }
}

@Suite("Harness: AudioCompare")
struct AudioCompareTests {
    @Test func decodesLittleEndian() {
        #expect(AudioCompare.int16Samples(littleEndian: [0x01, 0x80, 0xFF, 0x7F, 0x09]) == [-32_767, 32_767])
        #expect(AudioCompare.float32Samples(littleEndian: [0, 0, 0x80, 0x3F, 0, 0, 0, 0xBF]) == [1, -0.5])
        // A slice (contiguous, not at index 0) and a collection that is not contiguous decode alike.
        let bytes: [UInt8] = [0x09, 0x01, 0x80, 0xFF, 0x7F, 0x02, 0x00, 0x00, 0x80]
        #expect(AudioCompare.int16Samples(littleEndian: bytes[1...]) == [-32_767, 32_767, 2, -32_768])
        #expect(AudioCompare.int16Samples(littleEndian: bytes.reversed()) == [0x0080, 0x0200, -129, 0x0180])
        #expect(AudioCompare.int32Samples(littleEndian: bytes[1...]) == [0x7FFF_8001, Int32(bitPattern: 0x8000_0002)])
    }

    @Test func findsNonZeroBytes() {
        #expect(!AudioCompare.containsNonZeroByte([UInt8](repeating: 0, count: 1000)))
        #expect(!AudioCompare.containsNonZeroByte([]))
        for position in [0, 7, 8, 500, 999] {
            var bytes = [UInt8](repeating: 0, count: 1000)
            bytes[position] = 0x40
            #expect(AudioCompare.containsNonZeroByte(bytes), "byte \(position)")
        }
    }

    @Test("audible frames are counted as frame by frame, for every frame size, across silent blocks")
    func countsAudibleFrames() {
        var generator = SystemRandomNumberGenerator()
        for frameBytes in [1, 2, 4, 6, 8, 12] {
            // Long silent runs (skipped whole) between short sounds, and a partial frame at the end.
            var bytes = [UInt8](repeating: 0, count: frameBytes * 5_000 + frameBytes / 2)
            for _ in 0..<40 {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                for offset in at..<min(bytes.count, at + Int.random(in: 1...300, using: &generator)) {
                    bytes[offset] = UInt8.random(in: 0...3, using: &generator)
                }
            }
            let naive = stride(from: 0, to: bytes.count / frameBytes * frameBytes, by: frameBytes)
                .filter { frame in bytes[frame..<frame + frameBytes].contains { $0 != 0 } }.count
            let counted = bytes.withUnsafeBytes { AudioCompare.audibleFrames($0, frameBytes: frameBytes) }
            #expect(counted == naive, "\(frameBytes)-byte frames")
            #expect(naive > 0)
        }
        #expect([UInt8](repeating: 0, count: 1 << 20).withUnsafeBytes { AudioCompare.audibleFrames($0, frameBytes: 2) } == 0)
    }

    @Test func trimsOnlyWhollySilentFramesAtTheEnds() {
        #expect(AudioCompare.trimmingSilentFrames([0, 0, 1, 2, 0, 0, 3, 4, 0, 0, 0, 0], channels: 2) == [1, 2, 0, 0, 3, 4])
        #expect(AudioCompare.trimmingSilentFrames([0, 5, 0, 0] as [Int16], channels: 2) == [0, 5])
        #expect(AudioCompare.trimmingSilentFrames([0, 0, 0] as [Int16], channels: 1).isEmpty)
        #expect(AudioCompare.trimmingSilentFrames([0, 0, 0.5, 0] as [Float], channels: 2) == [0.5, 0])
        // A trailing partial frame is dropped.
        #expect(AudioCompare.trimmingSilentFrames([1, 2, 3] as [Int16], channels: 2) == [1, 2])
    }

    @Test func removesSilentRunsOfAtLeastTheLengthGivenWhereverTheyAre() {
        let samples: [Int16] = [0, 0, 0, 0, 1, 2, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 4, 5, 0, 0, 0, 0]
        // Runs of 2, 1, 3 and 2 frames: with 2 and more going, the lone zero frame stays.
        #expect(AudioCompare.removingSilentRuns(samples, channels: 2, minFrames: 2) == [1, 2, 0, 0, 3, 0, 4, 5])
        #expect(AudioCompare.removingSilentRuns(samples, channels: 2, minFrames: 3) == [0, 0, 0, 0, 1, 2, 0, 0, 3, 0, 4, 5, 0, 0, 0, 0])
        #expect(AudioCompare.removingSilentRuns([0, 0, 0] as [Int16], channels: 1, minFrames: 1).isEmpty)
        #expect(AudioCompare.removingSilentRuns([7, 0] as [Int16], channels: 1, minFrames: 2) == [7, 0])
    }

    @Test func firstMismatch() {
        #expect(AudioCompare.firstMismatch(expected: [1, 2, 3], actual: [1, 2, 3]) == nil)
        #expect(AudioCompare.firstMismatch(expected: [1, 2, 3], actual: [1, 9, 3]) == 1)
        #expect(AudioCompare.firstMismatch(expected: [1, 2, 3], actual: [1, 2]) == 2)
        #expect(AudioCompare.firstMismatch(expected: [1, 2], actual: [1, 2, 3]) == 2)
        #expect(AudioCompare.firstMismatch(expected: [0.5, 0.25], actual: [0.5001, 0.25], tolerance: 0.001) == nil)
        #expect(AudioCompare.firstMismatch(expected: [0.5, 0.25], actual: [0.5, 0.3], tolerance: 0.001) == 1)
    }

    @Test func seekJoin() {
        let source: [Int16] = (1...20).map { Int16($0) }  // 10 stereo frames
        let jumped = Array(source[0..<6] + source[14...])  // 3 frames, then from frame 7
        #expect(AudioCompare.seekJoin(capture: jumped, source: source, channels: 2, target: 7) == 3)
        #expect(AudioCompare.seekJoin(capture: Array(source[10...]), source: source, channels: 2, target: 5) == 0)
        #expect(AudioCompare.seekJoin(capture: source, source: source, channels: 2, target: 10) == 10)
        #expect(AudioCompare.seekJoin(capture: jumped, source: source, channels: 2, target: 6) == nil)
        #expect(AudioCompare.seekJoin(capture: [], source: source, channels: 2, target: 3) == nil)
    }

    @Test func silentRuns() {
        let samples: [Int16] = [1, 1, 0, 0, 0, 0, 2, 0, 0, 0, 3, 3]
        #expect(AudioCompare.longestSilentRun(samples, channels: 2) == 2)
        #expect(AudioCompare.longestSilentRunFrames(samples, channels: 2) == 1..<3)
        #expect(AudioCompare.longestSilentRunFrames([0, 1, 0, 0, 1, 0, 0] as [Int16], channels: 1) == 2..<4)
        #expect(AudioCompare.longestSilentRunFrames([1, 2, 3] as [Int16], channels: 1).isEmpty)
        #expect(AudioCompare.containsSilentRun(samples, channels: 2, minFrames: 2))
        #expect(!AudioCompare.containsSilentRun(samples, channels: 2, minFrames: 3))
        #expect(!AudioCompare.containsSilentRun([1, 2, 3] as [Int16], channels: 1, minFrames: 1))
    }

    @Test func describesTheFirstDifference() {
        let text = AudioCompare.describeDifference(expected: [1, 2, 3, 4], actual: [1, 2, 3, 5], channels: 2)
        #expect(text.contains("frame 1 channel 1") && text.contains("expected 4, got 5"))
    }
}

@Suite("Harness: ChildProcess")
struct ChildProcessTests {
    @Test func capturesStatusAndBothStreams() async throws {
        let result = try await ChildProcess.run("/bin/sh", ["-c", "printf out; printf err >&2; exit 3"])
        #expect(result.status == 3 && result.signal == nil && !result.timedOut)
        #expect(result.stdoutText == "out" && result.stderrText == "err")
    }

    @Test func passesEnvironment() async throws {
        let result = try await ChildProcess.run(
            "sh", ["-c", "printf '%s/%s' \"$ALICIA_A\" \"${HOME:-unset}\""],
            environment: ["ALICIA_A": "42"], unsetting: ["HOME"]
        )
        #expect(result.stdoutText == "42/unset")
    }

    /// Guards against the classic deadlock: the child blocks on a full stderr pipe while we read stdout.
    @Test func drainsLargeOutputOnBothPipes() async throws {
        let result = try await ChildProcess.run(
            "/bin/sh", ["-c", "head -c 3000000 /dev/zero >&2; head -c 2000000 /dev/zero; head -c 1000000 /dev/zero >&2"],
            timeout: .seconds(20)
        )
        #expect(result.status == 0 && result.stdout.count == 2_000_000 && result.stderr.count == 4_000_000)
    }

    @Test func killsAfterTimeout() async throws {
        let child = try ChildProcess("sleep", ["30"])
        let result = await child.wait(timeout: .milliseconds(300))
        #expect(result.timedOut && result.signal == SIGKILL && result.status == 128 + SIGKILL)
        // Not a figure for the kill: only that it came before `sleep 30` would have ended by itself.
        #expect(result.duration < .seconds(30))
        await #expect(throws: HarnessError.self) {
            _ = try await ChildProcess.run("sleep", ["30"], timeout: .milliseconds(200))
        }
    }

    @Test func deliversSignals() async throws {
        let child = try ChildProcess("sleep", ["300"])
        try await Task.sleep(for: .milliseconds(100))
        child.send(SIGINT)
        // A hang guard: under a sanitizer and a busy suite the reaping thread can wait for seconds.
        let result = await child.wait(timeout: .seconds(60))
        #expect(!result.timedOut && result.signal == SIGINT && result.status == 130)
    }

    @Test func missingExecutableIsAReadableError() {
        #expect(throws: HarnessError.self) { try ChildProcess("alicia-no-such-command", []) }
    }
}

@Suite("Harness: loopback and nginx")
struct NginxServerTests {
    @Test func unusedPortRefusesConnections() throws {
        #expect(!LoopbackPort.isAccepting(try LoopbackPort.unused()))
        let refusing = try LoopbackPort.refusing()
        #expect(!LoopbackPort.isAccepting(refusing.port))
    }

    @Test func servesRangesStatusesAndLogsThem() async throws {
        let server = try NginxServer()
        var generator = Xorshift64(seed: 77)
        let blob = (0..<100_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        try server.serve(blob, as: "blob.bin")

        let ranged = try await LoopbackHTTP.get(port: server.port, path: "/media/blob.bin", headers: ["Range": "bytes=10-19"])
        #expect(ranged.status == 206 && ranged.body == Array(blob[10...19]))
        #expect(ranged.headers["content-range"] == "bytes 10-19/100000")

        let ignored = try await LoopbackHTTP.get(port: server.port, path: "/norange/blob.bin", headers: ["Range": "bytes=10-19"])
        #expect(ignored.status == 200 && ignored.body == blob)

        let whole = try await LoopbackHTTP.get(port: server.port, path: "/slow/blob.bin")
        #expect(whole.status == 200 && whole.body == blob)

        for code in [401, 403, 404, 410, 500, 502, 503] {
            let answer = try await LoopbackHTTP.get(port: server.port, path: "/status/\(code)/episode.wav?token=x")
            #expect(answer.status == code)
        }

        let redirect = try await LoopbackHTTP.get(port: server.port, path: "/redirect/blob.bin")
        #expect(redirect.status == 302 && redirect.headers["location"] == server.url("/media/blob.bin"))

        let log = await server.settledAccessLog()
        #expect(log.count == 11, "\(log)")
        #expect(log.first == NginxServer.Entry(method: "GET", uri: "/media/blob.bin", status: 206, bytesSent: 10, range: "bytes=10-19",
                                               host: "127.0.0.1:\(server.port)"))
        #expect(log.dropFirst().first == NginxServer.Entry(method: "GET", uri: "/norange/blob.bin", status: 200, bytesSent: 100_000, range: "bytes=10-19",
                                                           host: "127.0.0.1:\(server.port)"))
        #expect(log.contains { $0.uri == "/status/404/episode.wav?token=x" && $0.status == 404 && $0.range == nil })
        #expect(server.url("/media/x.wav") == "http://127.0.0.1:\(server.port)/media/x.wav")
    }

    @Test func slowLocationIsRateLimited() async throws {
        let server = try NginxServer(slowRate: "100k")
        try server.serve([UInt8](repeating: 7, count: 200_000), as: "blob.bin")
        let start = ContinuousClock.now
        let answer = try await LoopbackHTTP.get(port: server.port, path: "/slow/blob.bin")
        #expect(answer.body.count == 200_000)
        // 200 000 bytes at 102 400 B/s: about 2 s (nginx may send the first burst at once).
        #expect(ContinuousClock.now - start > .seconds(1))
    }

    @Test func stopClosesThePort() throws {
        let server = try NginxServer()
        #expect(LoopbackPort.isAccepting(server.port))
        server.stop()
        #expect(!LoopbackPort.isAccepting(server.port))
    }
}

@Suite("Harness: PipeSinkCapture")
struct PipeSinkCaptureTests {
    /// Plays `fixture` with paplay into a fresh capture sink in `format` at the fixture's rate and
    /// channel count; the capture, for the test to finish.
    private func paplay(_ fixture: WAVFixture, into format: PipeSinkCapture.SampleFormat) async throws -> PipeSinkCapture {
        let directory = try TemporaryDirectory(prefix: "harness")
        let path = try directory.write(fixture.bytes, as: "noise.wav")
        let capture = try await PipeSinkCapture(format: format, rate: fixture.sampleRate, channels: fixture.channels)
        let result = try await ChildProcess.run("paplay", ["--device=\(capture.sinkName)", path])
        #expect(result.status == 0, "paplay: \(result.stderrText)")
        return capture
    }

    /// paplay (libsndfile + libpulse, as the player) is the reference the capture is checked against.
    @Test("paplay into the capture sink comes out bit-exact")
    func paplayBitExact() async throws {
        let fixture = WAVFixture(seconds: 1.5, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 31)
        let captured = try await paplay(fixture, into: .s16le).finishInt16()
        expectBitExact(captured: captured, expected: fixture.samples16, channels: 2)
    }

    @Test("float sink: paplay of a float WAV comes out exact")
    func paplayFloat() async throws {
        let fixture = WAVFixture(seconds: 1, sampleRate: 44_100, channels: 1, format: .float32, seed: 32)
        let captured = try await paplay(fixture, into: .float32le).finishFloat32()
        expectClose(captured: captured, expected: fixture.normalizedSamples, channels: 1, tolerance: 0)
    }

    @Test("two captures at once each get their own stream")
    func parallelCaptures() async throws {
        let directory = try TemporaryDirectory(prefix: "harness")
        let first = WAVFixture(seconds: 1, seed: 41)
        let second = WAVFixture(seconds: 1, seed: 42)
        let firstPath = try directory.write(first.bytes, as: "1.wav")
        let secondPath = try directory.write(second.bytes, as: "2.wav")
        let firstCapture = try await PipeSinkCapture()
        let secondCapture = try await PipeSinkCapture()
        #expect(firstCapture.sinkName != secondCapture.sinkName)
        async let one = ChildProcess.run("paplay", ["--device=\(firstCapture.sinkName)", firstPath])
        async let two = ChildProcess.run("paplay", ["--device=\(secondCapture.sinkName)", secondPath])
        _ = try await (one, two)
        async let firstCaptured = firstCapture.finishInt16()
        async let secondCaptured = secondCapture.finishInt16()
        expectBitExact(captured: await firstCaptured, expected: first.samples16, channels: 2)
        expectBitExact(captured: await secondCaptured, expected: second.samples16, channels: 2)
    }

    @Test("finish without playback takes the idle sink's silence as quiet and returns only silence")
    func finishWithoutPlayback() async throws {
        let capture = try await PipeSinkCapture()
        let start = ContinuousClock.now
        let bytes = await capture.finish(quietFor: .milliseconds(200), timeout: .seconds(600))
        // Silence counts as quiet (the idle sink keeps writing zeros): it returns before the timeout.
        // Not a speed check: the bound only tells "quiet was seen" from "timed out".
        #expect(ContinuousClock.now - start < .seconds(600))
        #expect(!AudioCompare.containsNonZeroByte(bytes))
    }

    @Test("the sink is gone after finish")
    func unloadsTheSink() async throws {
        let capture = try await PipeSinkCapture()
        #expect(try Pactl.sinkNames().contains(capture.sinkName))
        _ = await capture.finish(quietFor: .milliseconds(100))
        // PulseAudio unloads a module from its main loop after `pactl unload-module` has returned; a
        // loaded machine can take seconds. The bound is a hang guard (30 s), not a figure.
        var present = true
        for _ in 0..<300 where present {
            // A pactl that fails for a moment (a busy server) is asked again.
            // Whole names: a substring match found another test's `…_12` where `…_1` had gone.
            present = (try? Pactl.sinkNames())?.contains(capture.sinkName) ?? true
            if present { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(!present, "\(capture.sinkName) still listed 30 s after finish")
    }
}

@Suite("Harness: environment")
struct EnvironmentTests {
    @Test func requireThrowsAReadableError() {
        #expect(throws: HarnessError.self) { try TestEnvironment.require(false, "nothing") }
        #expect(throws: Never.self) { try TestEnvironment.require(true, "nothing") }
    }

    /// Under CI every service the tests need must be there: this fails loudly if one is missing.
    @Test func servicesArePresent() throws {
        try TestEnvironment.requirePulseAudio()
        try TestEnvironment.requireNginx()
    }

    @Test func playerBinaryIsFound() throws {
        let path = try PlayerProcess.executablePath()
        #expect(access(path, X_OK) == 0, "\(path) is not executable")
    }
}
