internal import CSoxr

/// Owns one libsoxr resampler: interleaved float in, interleaved float out, high quality
/// (`SOXR_HQ`: 20-bit precision, a pass band to 91 % of Nyquist). Its output is delay-compensated:
/// the first frame out is the first frame in, so a converted item's length is kept. Feeder thread only.
final class SoxrResampler {
    private let handle: soxr_t
    let channels: Int

    /// Nil (with libsoxr's reason) when the rates or channel count are not accepted. Wraps `soxr_create`.
    init(from inputRate: Int, to outputRate: Int, channels: Int) throws(PlaybackError) {
        self.channels = channels
        var error: soxr_error_t?
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        let made = soxr_create(Double(inputRate), Double(outputRate), UInt32(channels), &error, &io, &quality, nil)
        guard let made, error == nil else {
            let reason = error.map { String(cString: $0) } ?? "unknown error"
            throw .audioOutput(reason: "cannot convert \(inputRate) Hz to \(outputRate) Hz: \(reason)")
        }
        handle = made
    }

    deinit { soxr_delete(handle) }

    /// Resamples up to `inputFrames` frames (nil input: the end, flush what is held) into `output`
    /// (room for `outputFrames`); returns the frames consumed and produced. Wraps `soxr_process`.
    func process(_ input: UnsafePointer<Float>?, inputFrames: Int,
                 into output: UnsafeMutablePointer<Float>, outputFrames: Int) -> (consumed: Int, produced: Int) {
        var consumed = 0
        var produced = 0
        _ = soxr_process(handle, input, input == nil ? 0 : inputFrames, &consumed, output, outputFrames, &produced)
        return (consumed, produced)
    }

    /// Ready for a new signal, same rates. Wraps `soxr_clear`.
    func clear() {
        _ = soxr_clear(handle)
    }
}
