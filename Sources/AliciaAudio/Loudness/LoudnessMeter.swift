internal import CEbur128
#if canImport(Glibc)
import Glibc
#endif

/// A libebur128 state measuring integrated loudness (EBU R 128 / ITU-R BS.1770) and the peak of
/// interleaved frames: the sample peak, or the true peak (4× oversampled, as BS.1770 defines it).
/// The player measures sample peaks: libebur128's true-peak mode resamples every channel 4× and
/// made matched loudness cost 9 times plain playback's CPU, and the limiter finds the true peaks
/// itself. Blocks are kept in libebur128's histogram (1,000 bins of 0.1 LU): without it, it keeps
/// every 100 ms block in a list, 2 MiB more for a two-hour episode and a walk over all of them per
/// estimate. One thread at a time.
final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?
    let channels: Int
    private(set) var frames: Int64 = 0
    let sampleRate: Int
    private let truePeak: Bool

    /// Nil when libebur128 refuses the format or memory runs out. Wraps `ebur128_init`.
    init?(channels: Int, sampleRate: Int, truePeak: Bool = false) {
        let peakMode = truePeak ? EBUR128_MODE_TRUE_PEAK.rawValue : EBUR128_MODE_SAMPLE_PEAK.rawValue
        let mode = Int32(EBUR128_MODE_I.rawValue | peakMode | EBUR128_MODE_HISTOGRAM.rawValue)
        guard channels > 0, let made = ebur128_init(UInt32(channels), UInt(sampleRate), mode) else { return nil }
        state = made
        self.channels = channels
        self.sampleRate = sampleRate
        self.truePeak = truePeak
    }

    deinit { ebur128_destroy(&state) }

    /// Adds `count` frames of `type` at `samples`. Wraps `ebur128_add_frames_short`, `_int` and `_float`.
    func add(_ samples: UnsafeRawPointer, frames count: Int, type: SampleType) {
        guard count > 0 else { return }
        switch type {
        case .int16: _ = ebur128_add_frames_short(state, samples.assumingMemoryBound(to: Int16.self), count)
        case .int32: _ = ebur128_add_frames_int(state, samples.assumingMemoryBound(to: Int32.self), count)
        case .float32: _ = ebur128_add_frames_float(state, samples.assumingMemoryBound(to: Float.self), count)
        }
        frames += Int64(count)
    }

    /// Seconds measured.
    var seconds: Double { Double(frames) / Double(sampleRate) }

    /// Integrated (gated) loudness in LUFS; nil while nothing above the gate was heard. Wraps
    /// `ebur128_loudness_global`.
    var integrated: Double? {
        var value = 0.0
        guard ebur128_loudness_global(state, &value) == Int32(EBUR128_SUCCESS.rawValue), value.isFinite else { return nil }
        return value
    }

    /// The highest peak over the channels, in dBFS (dBTP when measuring true peaks; −infinity for
    /// silence). Wraps `ebur128_sample_peak` and `ebur128_true_peak`.
    var peak: Double {
        var peak = 0.0
        for channel in 0..<channels {
            var value = 0.0
            let status = truePeak ? ebur128_true_peak(state, UInt32(channel), &value)
                : ebur128_sample_peak(state, UInt32(channel), &value)
            if status == Int32(EBUR128_SUCCESS.rawValue) { peak = max(peak, value) }
        }
        return peak > 0 ? 20 * log10(peak) : -.infinity
    }

    /// What was measured, once there is a loudness to speak of.
    var figures: LoudnessFigures? {
        integrated.map { LoudnessFigures(integrated: $0, peak: peak) }
    }
}
