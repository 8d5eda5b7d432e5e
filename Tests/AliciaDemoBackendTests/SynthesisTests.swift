@testable import AliciaDemoBackend
import AliciaTestSupport
import Synchronization
import Testing

/// The synthesized WAVs without HTTP: any byte range is a pure function of its offset.
@Suite("Synthesis")
struct SynthesisTests {
    static let interlude = DemoLibrary.standard.episodes.first { $0.label == "INTERLUDE" }?.sound

    static func bytes(_ wav: SynthesizedWAV, _ range: Range<Int>, chunk: Int = 1 << 20) -> [UInt8] {
        let cursor = WAVCursor(wav)
        var bytes = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < range.count {
            let count = min(chunk, range.count - done)
            let read = bytes.withUnsafeMutableBytes { buffer in
                cursor.read(at: range.lowerBound + done, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done..<done + count]))
            }
            if read == 0 { break }
            done += read
        }
        return Array(bytes[0..<done])
    }

    @Test("reads at any offset and in any chunk size give the same bytes")
    func offsetIndependent() throws {
        let wav = SynthesizedWAV(try #require(Self.interlude))
        let reference = Self.bytes(wav, 0..<400_000)
        var generator = Xorshift64(seed: 42)
        for _ in 0..<40 {
            let start = Int(generator.next() % 390_000)
            let count = 1 + Int(generator.next() % 9_999)
            let chunk = 1 + Int(generator.next() % 3_000)
            #expect(Self.bytes(wav, start..<start + count, chunk: chunk) == Array(reference[start..<start + count]), "\(start)+\(count) in \(chunk)-byte reads")
        }
    }

    @Test("the file ends where the header says, and reads stop there")
    func endOfFile() throws {
        let wav = SynthesizedWAV(try #require(Self.interlude))
        #expect(wav.byteCount == 44 + 45 * 48_000 * 2)
        let tail = Self.bytes(wav, wav.byteCount - 100..<wav.byteCount + 100)
        #expect(tail.count == 100)
        let header = try WAVHeader(Self.bytes(wav, 0..<44))
        #expect(header.dataOffset + header.dataSize == wav.byteCount)
    }

    /// A source that counts the frames it is asked to render: the work a read costs, seen without a
    /// clock (a timed read says more about the machine than about the synthesis).
    final class CountingSource: SoundSource {
        let inner: any SoundSource
        let framesRendered = Atomic<Int>(0)

        init(_ inner: any SoundSource) { self.inner = inner }

        var sampleRate: Int { inner.sampleRate }
        var channels: Int { inner.channels }
        var frameCount: Int { inner.frameCount }

        func render(firstFrame: Int, into buffer: UnsafeMutableBufferPointer<Float>) {
            framesRendered.add(buffer.count / channels, ordering: .relaxed)
            inner.render(firstFrame: firstFrame, into: buffer)
        }
    }

    @Test("a 45-minute episode reads anywhere without synthesizing what comes before")
    func longEpisode() throws {
        let slowTide = try #require(DemoLibrary.standard.episodes.first { $0.label == "NIGHTS-1" }?.sound)
        let source = CountingSource(slowTide)
        let wav = SynthesizedWAV(source)
        #expect(wav.byteCount > 500_000_000)
        let tail = Self.bytes(wav, wav.byteCount - 200_000..<wav.byteCount)
        #expect(tail.count == 200_000)
        // The frames of those 200 kB, rounded out to whole blocks, not the 130 million before them.
        let frames = source.framesRendered.load(ordering: .relaxed)
        #expect(frames <= 200_000 / wav.bytesPerFrame + 2 * WAVCursor.blockFrames, "\(frames) frames synthesized for 200 kB")
    }

    @Test("voice notes last 2 to 5 s and differ from one another")
    func voiceNotes() {
        var firstBytes: Set<[UInt8]> = []
        for number in 1...30 {
            let sound = VoiceNoteSound(number: number)
            let seconds = Double(sound.frameCount) / Double(sound.sampleRate)
            #expect((2.0...5.0).contains(seconds), "voice-\(number): \(seconds) s")
            firstBytes.insert(Self.bytes(SynthesizedWAV(sound), 44..<20_044))
        }
        #expect(firstBytes.count == 30)
    }

    @Test("the encoder's limiter never lets a sample past -6 dBFS", arguments: [0, 0.3, 0.42, 0.45, 0.5, 0.9, 1, 5, 1e9])
    func limiter(sample: Float) {
        for value in [sample, -sample] {
            let pcm = SynthesizedWAV.pcm16(value)
            #expect(abs(Int(pcm)) <= 16_384, "\(value) → \(pcm)")
            if abs(value) <= 0.42 {
                #expect(pcm == Int16((value * 32_767).rounded()), "below the knee the limiter is transparent")
            }
        }
    }

    @Test("the request log redacts token values only")
    func redaction() {
        #expect(RequestLog.redacted("/api/audio/a.wav?token=abc") == "/api/audio/a.wav?token=***")
        #expect(RequestLog.redacted("/api/x?a=1&token=abc&b=2") == "/api/x?a=1&token=***&b=2")
        #expect(RequestLog.redacted("/api/x?tokens=1&mytoken=2") == "/api/x?tokens=1&mytoken=2")
        #expect(RequestLog.redacted("/api/x") == "/api/x")
        #expect(RequestLog.redacted("/api/x?token") == "/api/x?token=***")
    }

    @Test("injected failures follow the seed and the rate")
    func failureSchedule() {
        func draws(_ rate: Double, _ seed: UInt64) -> [Bool] {
            var schedule = FailureSchedule(rate: rate, seed: seed)
            return (0..<1000).map { _ in schedule.nextFails() }
        }
        #expect(draws(0.3, 5) == draws(0.3, 5))
        #expect(draws(0.3, 5) != draws(0.3, 6))
        #expect((250...350).contains(draws(0.3, 5).filter { $0 }.count))
        #expect(!draws(0, 5).contains(true))
        #expect(!draws(1, 5).contains(false))
    }
}
