import AliciaTestSupport

/// A WAV header read as a strict reader reads it: `RIFF`/`WAVE`, then chunks walked up to `data`.
struct WAVHeader: Equatable {
    let formatTag: Int
    let channels: Int
    let sampleRate: Int
    let byteRate: Int
    let blockAlign: Int
    let bitsPerSample: Int
    /// The RIFF chunk's size field: the file's length minus 8.
    let riffSize: Int
    /// Where the samples start, and how many bytes of them there are.
    let dataOffset: Int
    let dataSize: Int

    var frameCount: Int { dataSize / blockAlign }
    var duration: Double { Double(frameCount) / Double(sampleRate) }

    init(_ bytes: [UInt8]) throws {
        guard bytes.count >= 12, Self.tag(bytes, 0) == "RIFF", Self.tag(bytes, 8) == "WAVE" else {
            throw HarnessError("not a RIFF/WAVE file: \(bytes.prefix(12))")
        }
        riffSize = Self.le32(bytes, 4)
        var offset = 12
        var format: (tag: Int, channels: Int, rate: Int, byteRate: Int, align: Int, bits: Int)?
        while offset + 8 <= bytes.count {
            let id = Self.tag(bytes, offset)
            let size = Self.le32(bytes, offset + 4)
            if id == "fmt " {
                guard size >= 16, offset + 8 + 16 <= bytes.count else { throw HarnessError("short fmt chunk") }
                let base = offset + 8
                format = (Self.le16(bytes, base), Self.le16(bytes, base + 2), Self.le32(bytes, base + 4), Self.le32(bytes, base + 8), Self.le16(bytes, base + 12), Self.le16(bytes, base + 14))
            } else if id == "data" {
                guard let format else { throw HarnessError("data chunk before fmt") }
                formatTag = format.tag
                channels = format.channels
                sampleRate = format.rate
                byteRate = format.byteRate
                blockAlign = format.align
                bitsPerSample = format.bits
                dataOffset = offset + 8
                dataSize = size
                return
            }
            offset += 8 + size + size % 2
        }
        throw HarnessError("no data chunk in the first \(bytes.count) bytes")
    }

    private static func tag(_ bytes: [UInt8], _ offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    private static func le16(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    private static func le32(_ bytes: [UInt8], _ offset: Int) -> Int {
        le16(bytes, offset) | le16(bytes, offset + 2) << 16
    }
}
