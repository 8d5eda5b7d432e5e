internal import CSoxr

/// Owns one libsoxr resampler: interleaved float in, interleaved float out, high quality
/// (`SOXR_HQ`: 20-bit precision, a pass band to 91 % of Nyquist). Its output is delay-compensated:
/// the first frame out is the first frame in, so a converted item's length is kept. libsoxr is
/// loaded on first use (see CSoxr's shim). Feeder thread only.
final class SoxrResampler {
    private let api: UnsafePointer<alicia_soxr_api>
    private let handle: soxr_t
    let channels: Int

    /// Throws (with libsoxr's or the loader's reason) when the rates or channel count are not
    /// accepted, or the library is missing. Wraps `soxr_create`.
    init(from inputRate: Int, to outputRate: Int, channels: Int) throws(PlaybackError) {
        self.channels = channels
        var reason: UnsafePointer<CChar>?
        guard let api = alicia_soxr(&reason) else {
            throw .audioOutput(reason: "cannot convert \(inputRate) Hz to \(outputRate) Hz: \(reason.map { String(cString: $0) } ?? "no libsoxr")")
        }
        self.api = api
        var error: soxr_error_t?
        var io = api.pointee.io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var quality = api.pointee.quality_spec(UInt(SOXR_HQ), 0)
        let made = api.pointee.create(Double(inputRate), Double(outputRate), UInt32(channels), &error, &io, &quality, nil)
        guard let made, error == nil else {
            let detail = error.map { String(cString: $0) } ?? "unknown error"
            throw .audioOutput(reason: "cannot convert \(inputRate) Hz to \(outputRate) Hz: \(detail)")
        }
        handle = made
    }

    deinit { api.pointee.destroy(handle) }

    /// Resamples up to `inputFrames` frames (nil input: the end, flush what is held) into `output`
    /// (room for `outputFrames`); returns the frames consumed and produced. Wraps `soxr_process`.
    func process(_ input: UnsafePointer<Float>?, inputFrames: Int,
                 into output: UnsafeMutablePointer<Float>, outputFrames: Int) -> (consumed: Int, produced: Int) {
        var consumed = 0
        var produced = 0
        _ = api.pointee.process(handle, input, input == nil ? 0 : inputFrames, &consumed, output, outputFrames, &produced)
        return (consumed, produced)
    }

    /// Ready for a new signal, same rates. Wraps `soxr_clear`.
    func clear() {
        _ = api.pointee.clear(handle)
    }
}
