/// A 16-bit PCM WAV file whose bytes are computed from a ``SoundSource`` on demand.
///
/// The file is the canonical 44-byte header (`RIFF`, a 16-byte `fmt ` chunk, `data`) followed by the
/// samples; nothing is stored, so a 45-minute episode costs no memory and a read at any offset costs
/// only the frames it covers (see ``WAVCursor``).
struct SynthesizedWAV: Sendable {
    static let headerSize = 44

    let source: any SoundSource
    let header: [UInt8]

    init(_ source: any SoundSource) {
        self.source = source
        let blockAlign = source.channels * 2
        let dataSize = source.frameCount * blockAlign
        var header: [UInt8] = []
        header += Array("RIFF".utf8) + Self.le32(36 + dataSize) + Array("WAVE".utf8)
        header += Array("fmt ".utf8) + Self.le32(16)
        header += Self.le16(1) + Self.le16(source.channels) + Self.le32(source.sampleRate)
        header += Self.le32(source.sampleRate * blockAlign) + Self.le16(blockAlign) + Self.le16(16)
        header += Array("data".utf8) + Self.le32(dataSize)
        self.header = header
    }

    var bytesPerFrame: Int { source.channels * 2 }
    var dataSize: Int { source.frameCount * bytesPerFrame }
    /// The size of the whole file.
    var byteCount: Int { Self.headerSize + dataSize }
    /// Seconds, as `/api/tracks` reports it.
    var duration: Double { Double(source.frameCount) / Double(source.sampleRate) }

    /// A sample as 16-bit PCM, through a soft limiter: transparent up to 0.42 of full scale, then
    /// bending smoothly (slope 1 at the knee) towards 0.5, which it never reaches, so no sample
    /// exceeds −6 dBFS whatever the notes add up to.
    static func pcm16(_ sample: Float) -> Int16 {
        let knee: Float = 0.42
        let ceiling: Float = 0.5
        let magnitude = abs(sample)
        var limited = magnitude
        if magnitude > knee {
            let over = (magnitude - knee) / (ceiling - knee)
            limited = knee + (ceiling - knee) * over / (1 + over)
        }
        let scaled = (limited * 32_767).rounded()
        return Int16(sample < 0 ? -scaled : scaled)
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
