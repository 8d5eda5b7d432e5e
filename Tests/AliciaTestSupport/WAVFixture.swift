import Foundation

/// A deterministic noise WAV file, generated in memory.
///
/// Every sample's magnitude is at least one 16-bit LSB (two for the wider formats, so a player that
/// goes through 16-bit still never makes it zero): no frame is ever all zeros, so trimming the silence a
/// sink adds before and after playback is unambiguous, and a silent frame in the middle of a capture
/// can only be a gap. The header is the canonical 44-byte one (`fmt ` of 16 bytes, then `data`);
/// float32 uses format tag 3, the integer formats tag 1.
public struct WAVFixture: Sendable {
    public enum SampleFormat: String, Sendable, CaseIterable {
        case pcm16, pcm24, pcm32, float32

        public var bytesPerSample: Int {
            switch self {
            case .pcm16: 2
            case .pcm24: 3
            case .pcm32, .float32: 4
            }
        }

        /// `wFormatTag`: 1 = integer PCM, 3 = IEEE float.
        public var formatTag: UInt16 {
            self == .float32 ? 3 : 1
        }
    }

    /// Where the sample data starts in ``bytes`` (the canonical header's size).
    public static let dataOffset = 44

    public let sampleRate: Int
    public let channels: Int
    public let format: SampleFormat
    /// The frames the header claims.
    public let frameCount: Int
    /// The frames whose bytes are really in the file (less than ``frameCount`` when truncated).
    public let framesPresent: Int
    /// The complete file.
    public let bytes: [UInt8]

    /// Noise of `frames` frames from `seed`.
    public init(frames: Int, sampleRate: Int = 48_000, channels: Int = 2, format: SampleFormat = .pcm16, seed: UInt64 = 1) {
        precondition(frames >= 0 && sampleRate > 0 && channels > 0, "WAVFixture.init: bad parameters")
        self.sampleRate = sampleRate
        self.channels = channels
        self.format = format
        frameCount = frames
        framesPresent = frames
        var generator = Xorshift64(seed: seed)
        let sampleBytes = Self.noise(samples: frames * channels, format: format, using: &generator)
        bytes = Self.header(dataSize: sampleBytes.count, sampleRate: sampleRate, channels: channels, format: format, riffExtra: 0) + sampleBytes
    }

    /// Noise lasting `seconds` (rounded to whole frames).
    public init(seconds: Double, sampleRate: Int = 48_000, channels: Int = 2, format: SampleFormat = .pcm16, seed: UInt64 = 1) {
        self.init(frames: Int((seconds * Double(sampleRate)).rounded()), sampleRate: sampleRate, channels: channels, format: format, seed: seed)
    }

    private init(copying other: WAVFixture, framesPresent: Int, bytes: [UInt8]) {
        sampleRate = other.sampleRate
        channels = other.channels
        format = other.format
        frameCount = other.frameCount
        self.framesPresent = framesPresent
        self.bytes = bytes
    }

    public var bytesPerFrame: Int { format.bytesPerSample * channels }

    /// The size the header gives the data chunk.
    public var dataSize: Int { frameCount * bytesPerFrame }

    public var duration: Double { Double(frameCount) / Double(sampleRate) }

    public var data: Data { Data(bytes) }

    /// A file whose header still claims every frame but whose data stops after
    /// `fraction` of the frames (cut at a frame boundary), as an interrupted download leaves it.
    public func truncated(keepingFraction fraction: Double) -> WAVFixture {
        precondition((0...1).contains(fraction), "WAVFixture.truncated: fraction \(fraction) outside 0...1")
        let kept = min(framesPresent, Int(Double(frameCount) * fraction))
        let end = Self.dataOffset + kept * bytesPerFrame
        return WAVFixture(copying: self, framesPresent: kept, bytes: Array(bytes[0..<end]))
    }

    /// The same file with a `LIST`/`INFO` chunk after the data chunk, as taggers write it: a reader
    /// that trusts "data runs to the end of the file" plays the tag as noise, and a reader that
    /// looks for chunks must fetch the file's tail.
    public func withTrailingChunk() -> WAVFixture {
        precondition(framesPresent == frameCount, "WAVFixture.withTrailingChunk: not for truncated files")
        var info: [UInt8] = Array("INFO".utf8)
        for (id, text) in [("ISFT", "alicia-player test fixture"), ("ICMT", "trailing chunk after data")] {
            var value = Array(text.utf8) + [0]
            let size = value.count
            if value.count % 2 == 1 { value.append(0) }
            info += Array(id.utf8) + Self.le32(size) + value
        }
        var trailer: [UInt8] = []
        // RIFF chunks are word aligned: an odd-sized data chunk is followed by a pad byte.
        if dataSize % 2 == 1 { trailer.append(0) }
        trailer += Array("LIST".utf8) + Self.le32(info.count) + info
        var header = Self.header(dataSize: dataSize, sampleRate: sampleRate, channels: channels, format: format, riffExtra: trailer.count)
        header += bytes[Self.dataOffset...]
        return WAVFixture(copying: self, framesPresent: framesPresent, bytes: header + trailer)
    }

    /// The interleaved samples present in the file; pcm16 only.
    public var samples16: [Int16] {
        precondition(format == .pcm16, "WAVFixture.samples16: the fixture is \(format)")
        let end = Self.dataOffset + framesPresent * bytesPerFrame
        return AudioCompare.int16Samples(littleEndian: bytes[Self.dataOffset..<end])
    }

    /// The interleaved samples present in the file as floats in -1...1 (integer samples divided by
    /// 2^(bits-1), as libsndfile normalises them).
    public var normalizedSamples: [Float] {
        let end = Self.dataOffset + framesPresent * bytesPerFrame
        let data = bytes[Self.dataOffset..<end]
        switch format {
        case .pcm16:
            return AudioCompare.int16Samples(littleEndian: data).map { Float($0) / 32_768 }
        case .float32:
            return AudioCompare.float32Samples(littleEndian: data)
        case .pcm24:
            return stride(from: data.startIndex, to: data.endIndex - 2, by: 3).map { index in
                let raw = Int32(data[index]) << 8 | Int32(data[index + 1]) << 16 | Int32(data[index + 2]) << 24
                return Float(raw >> 8) / 8_388_608
            }
        case .pcm32:
            return AudioCompare.int32Samples(littleEndian: data).map { Float(Double($0) / 2_147_483_648) }
        }
    }

    /// Writes ``bytes`` to `path`, replacing any file there.
    public func write(to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw HarnessError("cannot write fixture \(path): \(error)")
        }
    }

    /// A 16-bit PCM WAV file of the given interleaved samples, with the canonical header (the
    /// tone, speech-like and loudness fixtures are written through it).
    ///
    /// Stored into one buffer: an array of two bytes per sample crawls in debug and ASan builds.
    public static func pcm16File(_ samples: [Int16], sampleRate: Int, channels: Int) -> [UInt8] {
        var data = [UInt8](repeating: 0, count: 2 * samples.count)
        data.withUnsafeMutableBytes { bytes in
            samples.withUnsafeBufferPointer { samples in
                for index in 0..<samples.count {
                    bytes.storeBytes(of: samples[index].littleEndian, toByteOffset: 2 * index, as: Int16.self)
                }
            }
        }
        return header(dataSize: data.count, sampleRate: sampleRate, channels: channels, format: .pcm16, riffExtra: 0) + data
    }

    private static func header(dataSize: Int, sampleRate: Int, channels: Int, format: SampleFormat, riffExtra: Int) -> [UInt8] {
        let blockAlign = channels * format.bytesPerSample
        var header: [UInt8] = []
        header += Array("RIFF".utf8) + le32(36 + dataSize + riffExtra) + Array("WAVE".utf8)
        header += Array("fmt ".utf8) + le32(16)
        header += le16(Int(format.formatTag)) + le16(channels) + le32(sampleRate)
        header += le32(sampleRate * blockAlign) + le16(blockAlign) + le16(format.bytesPerSample * 8)
        header += Array("data".utf8) + le32(dataSize)
        return header
    }

    /// Samples stored little-endian into one buffer: an array of bytes per sample, appended, crawls
    /// in debug and ASan builds (a 20 s fixture has two million samples).
    private static func noise(samples: Int, format: SampleFormat, using generator: inout Xorshift64) -> [UInt8] {
        let width = format.bytesPerSample
        var out = [UInt8](repeating: 0, count: samples * width)
        out.withUnsafeMutableBytes { out in
            for index in 0..<samples {
                let random = generator.next()
                let offset = index * width
                switch format {
                case .pcm16:
                    // Never 0, never -32768 (so the range is symmetric).
                    let value = signed(random, magnitudeIn: 1...32_767)
                    out.storeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian, toByteOffset: offset, as: UInt16.self)
                case .pcm24:
                    // At least two 16-bit LSBs (2 × 256).
                    let value = UInt32(truncatingIfNeeded: signed(random, magnitudeIn: 512...8_388_607))
                    out[offset] = UInt8(truncatingIfNeeded: value)
                    out[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
                    out[offset + 2] = UInt8(truncatingIfNeeded: value >> 16)
                case .pcm32:
                    // At least two 16-bit LSBs (2 × 65536).
                    let value = signed(random, magnitudeIn: 131_072...2_147_483_647)
                    out.storeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian, toByteOffset: offset, as: UInt32.self)
                case .float32:
                    // 2/32768 ... 0.99: clear of zero after any 16-bit path, clear of clipping at ±1.
                    let unit = Float(random >> 40) / Float(1 << 24)
                    let magnitude = 2 / Float(32_768) + unit * (0.99 - 2 / Float(32_768))
                    let value = random & 1 == 1 ? -magnitude : magnitude
                    out.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: offset, as: UInt32.self)
                }
            }
        }
        return out
    }

    /// A value whose magnitude is drawn from `magnitudes` by the high bits of `random` and whose
    /// sign is its lowest bit.
    private static func signed(_ random: UInt64, magnitudeIn magnitudes: ClosedRange<Int>) -> Int {
        let span = UInt64(magnitudes.upperBound - magnitudes.lowerBound + 1)
        let magnitude = magnitudes.lowerBound + Int((random >> 1) % span)
        return random & 1 == 1 ? -magnitude : magnitude
    }

    private static func le16(_ value: Int) -> [UInt8] {
        let bits = UInt16(truncatingIfNeeded: value)
        return [UInt8(bits & 0xFF), UInt8(bits >> 8)]
    }

    private static func le32(_ value: Int) -> [UInt8] {
        let bits = UInt32(truncatingIfNeeded: value)
        return [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24)]
    }
}
