/// The 4-byte header of an MPEG-1/2/2.5 audio frame (layers I, II, III): enough to find the frame's
/// length, its samples and its kind, so that frames can be walked, counted and resynchronised on
/// without decoding them (ISO/IEC 11172-3 2.4.1.3, 13818-3 2.4.2.3).
struct MPEGAudioHeader: Equatable, Sendable {
    enum Version: Equatable, Sendable { case mpeg1, mpeg2, mpeg25 }

    let version: Version
    /// 1, 2 or 3.
    let layer: Int
    /// Bits per second; 0 is "free format", which the walker does not take (its frame length is
    /// not in the header).
    let bitrate: Int
    let sampleRate: Int
    let padding: Bool
    /// Mono (channel mode 3) or two channels.
    let channels: Int
    /// The CRC follows the header.
    let protected: Bool

    /// Parses `bytes[0..<4]`; nil for anything that is not a frame header the walker can use.
    init?(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        // 11 sync bits.
        guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        switch (b1 >> 3) & 0x3 {
        case 0: version = .mpeg25
        case 2: version = .mpeg2
        case 3: version = .mpeg1
        default: return nil
        }
        switch (b1 >> 1) & 0x3 {
        case 1: layer = 3
        case 2: layer = 2
        case 3: layer = 1
        default: return nil  // reserved: ADTS AAC has 00 here
        }
        protected = b1 & 1 == 0
        let bitrateIndex = Int(b2 >> 4), rateIndex = Int((b2 >> 2) & 0x3)
        guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let kilobits = Self.bitrates(version, layer)[bitrateIndex]
        bitrate = kilobits * 1000
        let base = [44_100, 48_000, 32_000][rateIndex]
        switch version {
        case .mpeg1: sampleRate = base
        case .mpeg2: sampleRate = base / 2
        case .mpeg25: sampleRate = base / 4
        }
        padding = (b2 >> 1) & 1 == 1
        channels = (b3 >> 6) == 3 ? 1 : 2
        // Emphasis 2 is reserved: a false sync more often than a real file.
        guard b3 & 0x3 != 2 else { return nil }
    }

    init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count >= 4 else { return nil }
        var i = bytes.startIndex
        let b0 = bytes[i]; i = bytes.index(after: i)
        let b1 = bytes[i]; i = bytes.index(after: i)
        let b2 = bytes[i]; i = bytes.index(after: i)
        self.init(b0, b1, b2, bytes[i])
    }

    /// PCM frames one audio frame decodes to.
    var samplesPerFrame: Int {
        switch layer {
        case 1: return 384
        case 2: return 1152
        default: return version == .mpeg1 ? 1152 : 576
        }
    }

    /// The frame's length in bytes, header included.
    var frameBytes: Int {
        if layer == 1 { return (12 * bitrate / sampleRate + (padding ? 1 : 0)) * 4 }
        return Self.slotFactor(version, layer) * bitrate / sampleRate + (padding ? 1 : 0)
    }

    /// The mean length of frames at this bitrate, padding spread out: what a constant-bitrate
    /// stream's frames average to, exactly (LAME pads a frame whenever the fraction carried over
    /// reaches a whole byte).
    var meanFrameBytes: Double {
        if layer == 1 { return 48 * Double(bitrate) / Double(sampleRate) }
        return Double(Self.slotFactor(version, layer)) * Double(bitrate) / Double(sampleRate)
    }

    /// Bytes of side information after the header (and its CRC): where a Xing/Info tag starts.
    var sideInfoBytes: Int {
        guard layer == 3 else { return 0 }
        if version == .mpeg1 { return channels == 1 ? 17 : 32 }
        return channels == 1 ? 9 : 17
    }

    /// Whether `other` can be the next frame of the same stream: the fields a stream keeps.
    func isCompatible(with other: MPEGAudioHeader) -> Bool {
        other.version == version && other.layer == layer && other.sampleRate == sampleRate && other.channels == channels
    }

    private static func slotFactor(_ version: Version, _ layer: Int) -> Int {
        layer == 3 && version != .mpeg1 ? 72 : 144
    }

    private static func bitrates(_ version: Version, _ layer: Int) -> [Int] {
        switch (version, layer) {
        case (.mpeg1, 1): return [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 0]
        case (.mpeg1, 2): return [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 0]
        case (.mpeg1, _): return [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0]
        case (_, 1): return [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256, 0]
        default: return [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0]
        }
    }
}
