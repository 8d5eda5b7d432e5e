import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// libsndfile over the virtual I/O seam, with generated fixtures in memory.
@Suite struct SndFileTests {
    private func decodeAll<T>(_ decoder: SndFile, as: T.Type) -> [T] {
        let channels = decoder.format.channels
        var out: [T] = []
        let chunk = 1000
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk * decoder.format.bytesPerFrame, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let frames = decoder.read(into: buffer, frames: chunk)
            let typed = buffer.bindMemory(to: T.self, capacity: frames * channels)
            out.append(contentsOf: UnsafeBufferPointer(start: typed, count: frames * channels))
            if frames < chunk { return out }
        }
    }

    @Test(arguments: [(48_000, 2), (44_100, 1), (24_000, 1)])
    func sixteenBitPCMDecodesBitExact(rate: Int, channels: Int) throws {
        let fixture = WAVFixture(seconds: 0.5, sampleRate: rate, channels: channels, format: .pcm16, seed: 7)
        // Reads that return a few bytes at a time must still decode exactly.
        let decoder = try SndFile(source: MemoryByteSource(fixture.bytes, chunk: 333))
        #expect(decoder.format.sampleRate == rate)
        #expect(decoder.format.channels == channels)
        #expect(decoder.format.sampleType == .int16)
        #expect(decoder.format.frames == Int64(fixture.frameCount))
        #expect(decodeAll(decoder, as: Int16.self) == fixture.samples16)
        #expect(!decoder.isTruncated)
    }

    @Test func twentyFourBitDecodesToLeftJustifiedInt32() throws {
        let fixture = WAVFixture(frames: 4800, format: .pcm24, seed: 3)
        let decoder = try SndFile(source: MemoryByteSource(fixture.bytes))
        #expect(decoder.format.sampleType == .int32)
        let samples = decodeAll(decoder, as: Int32.self)
        let expected = stride(from: WAVFixture.dataOffset, to: fixture.bytes.count, by: 3).map { i -> Int32 in
            Int32(bitPattern: UInt32(fixture.bytes[i]) << 8 | UInt32(fixture.bytes[i + 1]) << 16 | UInt32(fixture.bytes[i + 2]) << 24)
        }
        #expect(samples == expected)
    }

    @Test func floatDecodesToFloat() throws {
        let fixture = WAVFixture(frames: 4800, format: .float32, seed: 5)
        let decoder = try SndFile(source: MemoryByteSource(fixture.bytes))
        #expect(decoder.format.sampleType == .float32)
        let samples = decodeAll(decoder, as: Float.self)
        #expect(samples.count == fixture.normalizedSamples.count)
        #expect(zip(samples, fixture.normalizedSamples).allSatisfy { abs($0 - $1) < 1e-6 })
    }

    @Test func seeksToAnExactFrame() throws {
        let fixture = WAVFixture(frames: 48_000, format: .pcm16, seed: 9)
        let decoder = try SndFile(source: MemoryByteSource(fixture.bytes))
        #expect(decoder.seek(toFrame: 12_345))
        let rest = decodeAll(decoder, as: Int16.self)
        #expect(rest == Array(fixture.samples16[(12_345 * 2)...]))
    }

    @Test func aTruncatedFileSaysSo() throws {
        let fixture = WAVFixture(frames: 48_000, format: .pcm16).truncated(keepingFraction: 0.5)
        let decoder = try SndFile(source: MemoryByteSource(fixture.bytes))
        #expect(decoder.isTruncated)
        #expect(decodeAll(decoder, as: Int16.self).count == fixture.framesPresent * 2)
    }

    @Test func aTrailingChunkIsNotAudio() throws {
        let fixture = WAVFixture(frames: 4800, format: .pcm16).withTrailingChunk()
        let decoder = try SndFile(source: MemoryByteSource(fixture.bytes))
        #expect(decoder.format.frames == 4800)
        #expect(decodeAll(decoder, as: Int16.self) == fixture.samples16)
    }

    @Test func notAudioIsACleanError() {
        let text = Array("<html>not audio at all</html>".utf8) + [UInt8](repeating: 32, count: 200)
        #expect(throws: SndfileError.self) { try SndFile(source: MemoryByteSource(text)) }
    }

    @Test func anInterruptedReadIsReportedNotTakenForTheEnd() throws {
        let fixture = WAVFixture(frames: 48_000, format: .pcm16)
        let source = MemoryByteSource(fixture.bytes)
        let decoder = try SndFile(source: source)
        source.interruptReader()
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 4096 * 4, alignment: 16)
        defer { buffer.deallocate() }
        #expect(decoder.read(into: buffer, frames: 4096) < 4096)
        #expect(decoder.interrupted)
    }
}
