#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaLocks
import CSndfile

/// A file being written by libsndfile: WAV, FLAC, Ogg Opus or MP3 (through LAME), frames handed
/// to it as the player makes them (on the player's thread), closed when the queue has ended.
final class FileEncoder: Sendable {
    private struct State {
        var file: OpaquePointer?
        var frames: Int64 = 0
        var error: PlaybackError?
    }

    let path: String
    let format: AudioFormat
    private let state: Locked<State>

    /// Opens `path` for `format` as `render` says; the error names the file.
    init(path: String, format: AudioFormat, render: RenderFormat) throws(RenderProblem) {
        self.path = path
        self.format = format
        var info = SF_INFO()
        info.samplerate = Int32(format.sampleRate)
        info.channels = Int32(format.channels)
        info.format = render.sndfileFormat(for: format.sampleType)
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            let why = String(cString: sf_strerror(nil))
            throw RenderProblem("\(path): cannot be written as \(render.kind.rawValue.uppercased()) (\(format.sampleRate) Hz, \(format.channels) ch): \(why)")
        }
        Self.configure(file, render: render, channels: format.channels)
        state = Locked(State(file: file))
    }

    /// The encoder's effort, as libsndfile's commands take it.
    private static func configure(_ file: OpaquePointer, render: RenderFormat, channels: Int) {
        var clip = Int32(SF_TRUE)
        _ = sf_command(file, Int32(SFC_SET_CLIPPING), &clip, Int32(MemoryLayout<Int32>.size))
        switch render.kind {
        case .wav: break
        case .flac:
            var level = Double(render.quality ?? 5) / 10
            _ = sf_command(file, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size))
        case .opus:
            // libsndfile spreads its level over 6 to 256 kb/s per channel.
            let perChannel = Double(render.effectiveBitrate * 1000) / Double(channels)
            var level = min(1, max(0, 1 - (perChannel - 6000) / 250_000))
            _ = sf_command(file, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size))
        case .mp3:
            if let quality = render.quality {
                var mode = Int32(SF_BITRATE_MODE_VARIABLE)
                _ = sf_command(file, Int32(SFC_SET_BITRATE_MODE), &mode, Int32(MemoryLayout<Int32>.size))
                var level = Double(quality) / 10
                _ = sf_command(file, Int32(SFC_SET_VBR_ENCODING_QUALITY), &level, Int32(MemoryLayout<Double>.size))
            } else {
                var mode = Int32(SF_BITRATE_MODE_CONSTANT)
                _ = sf_command(file, Int32(SFC_SET_BITRATE_MODE), &mode, Int32(MemoryLayout<Int32>.size))
                // libsndfile spreads its level over 320 down to 32 kb/s.
                var level = Double(320 - render.effectiveBitrate) / 288
                _ = sf_command(file, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size))
            }
        }
    }

    /// Frames in the output's format, encoded; nil, or why they could not be.
    func write(_ bytes: UnsafeRawBufferPointer) -> PlaybackError? {
        state.withLock { s -> PlaybackError? in
            if let error = s.error { return error }
            guard let file = s.file, let base = bytes.baseAddress else { return nil }
            let frames = bytes.count / format.bytesPerFrame
            let written: sf_count_t
            switch format.sampleType {
            case .int16: written = sf_writef_short(file, base.assumingMemoryBound(to: Int16.self), sf_count_t(frames))
            case .int32: written = sf_writef_int(file, base.assumingMemoryBound(to: Int32.self), sf_count_t(frames))
            case .float32: written = sf_writef_float(file, base.assumingMemoryBound(to: Float.self), sf_count_t(frames))
            }
            s.frames += Int64(written)
            guard written == frames else {
                let error = PlaybackError.audioOutput(reason: "\(path): \(String(cString: sf_strerror(file)))")
                s.error = error
                return error
            }
            return nil
        }
    }

    /// Frames written so far.
    var frames: Int64 { state.withLock { $0.frames } }

    /// Finishes the file (the encoder's last frames, its header); nil, or why it failed.
    func close() -> RenderProblem? {
        state.withLock { s -> RenderProblem? in
            guard let file = s.file else { return nil }
            s.file = nil
            let status = sf_close(file)
            if let error = s.error { return RenderProblem(error.message) }
            return status == 0 ? nil : RenderProblem("\(path): the encoder could not finish the file (\(String(cString: sf_error_number(status))))")
        }
    }
}
