import AliciaAudio
import CSndfile

/// What a rendered file is, from its name's extension: the container and codec, and how hard the
/// encoder works (`--bitrate`, `--quality`).
public struct RenderFormat: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case wav, flac, opus, mp3
    }

    public var kind: Kind
    /// Kilobits per second (Opus, MP3: a constant rate for MP3); nil: the kind's default.
    public var bitrate: Int?
    /// 0 (smallest) to 10 (best): MP3's variable rate, FLAC's compression effort (10 is level 8).
    public var quality: Int?

    public static let extensions: [String: Kind] = ["wav": .wav, "flac": .flac, "opus": .opus, "ogg": .opus, "mp3": .mp3]

    /// The format `path`'s extension names, or why none.
    public static func forPath(_ path: String, bitrate: Int?, quality: Int?) -> Result<RenderFormat, RenderProblem> {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), let kind = extensions[name[name.index(after: dot)...].lowercased()] else {
            return .failure(RenderProblem("\(path): the file's extension names no format render writes: use .wav, .flac, .opus (or .ogg) or .mp3"))
        }
        if let bitrate {
            switch kind {
            case .opus where !(6...256).contains(bitrate):
                return .failure(RenderProblem("--bitrate \(bitrate): Opus takes 6 to 256 kb/s"))
            case .mp3 where !(32...320).contains(bitrate):
                return .failure(RenderProblem("--bitrate \(bitrate): MP3 takes 32 to 320 kb/s"))
            case .wav, .flac:
                return .failure(RenderProblem("--bitrate is for .opus and .mp3; \(kind.rawValue.uppercased()) is lossless"))
            default: break
            }
        }
        if quality != nil, kind == .wav || kind == .opus {
            return .failure(RenderProblem("--quality is for .mp3 and .flac; \(kind == .wav ? "WAV has none" : "Opus takes --bitrate")"))
        }
        if bitrate != nil, quality != nil {
            return .failure(RenderProblem("--bitrate and --quality cannot go together"))
        }
        return .success(RenderFormat(kind: kind, bitrate: bitrate, quality: quality))
    }

    /// The output's format for a queue whose first item streams as `first`: its own where the
    /// encoder takes it; Opus at 48 kHz (it takes only 8 to 48 kHz steps), MP3 at most stereo and
    /// 48 kHz.
    public func outputFormat(for first: AudioFormat) -> AudioFormat {
        var format = first
        switch kind {
        case .wav, .flac: break
        case .opus:
            if ![8_000, 12_000, 16_000, 24_000, 48_000].contains(format.sampleRate) { format.sampleRate = 48_000 }
            format.channels = min(format.channels, 2)
        case .mp3:
            let rates = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000]
            if !rates.contains(format.sampleRate) { format.sampleRate = 48_000 }
            format.channels = min(format.channels, 2)
        }
        format.frames = nil
        return format
    }

    /// libsndfile's format code for an output of `sampleType`.
    func sndfileFormat(for sampleType: SampleType) -> Int32 {
        switch kind {
        case .wav:
            switch sampleType {
            case .int16: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            case .int32: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_32)
            case .float32: return Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
            }
        case .flac: return Int32(SF_FORMAT_FLAC) | Int32(sampleType == .int16 ? SF_FORMAT_PCM_16 : SF_FORMAT_PCM_24)
        case .opus: return Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)
        case .mp3: return Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
        }
    }

    /// Opus's default: 64 kb/s for stereo speech and music alike; MP3's: 128 kb/s, constant, which
    /// every old player and car stereo reads.
    var effectiveBitrate: Int { bitrate ?? (kind == .opus ? 64 : 128) }
}

/// Why a render cannot be made or was not: one line.
public struct RenderProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
