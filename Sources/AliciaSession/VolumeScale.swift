#if canImport(Glibc)
import Glibc
#endif

/// The listener's volume as a person sees it: a percentage on the cubic scale PulseAudio's mixers
/// (pavucontrol, `pactl`) and mpv use, so the Studio's "vol 80%" is what pavucontrol would show
/// for the same loudness. The engine takes a linear amplitude factor (its software gain); this is
/// the one place where the two meet.
///
/// `pa_sw_volume_from_linear` maps an amplitude `a` to `cbrt(a) × 100 %`, so a percentage `p` is
/// the amplitude `(p / 100)³`: 80 % is 0.512 (−5.81 dB), 50 % is 0.125 (−18.06 dB), 150 % is 3.375
/// (+10.57 dB). Equal steps of percent then sound like roughly equal steps of loudness, which
/// equal steps of amplitude do not.
public enum VolumeScale {
    /// The percentages `--volume` and the keys take (150 %: PulseAudio's own ceiling in pavucontrol).
    public static let percentRange = 0.0...150.0
    /// One press of `+` or `-`.
    public static let step = 5.0

    /// The amplitude factor for `percent` (clamped to the range).
    public static func linear(percent: Double) -> Double {
        let fraction = min(max(percent, percentRange.lowerBound), percentRange.upperBound) / 100
        return fraction * fraction * fraction
    }

    /// The percentage for an amplitude factor, as `pa_sw_volume_from_linear` gives it.
    public static func percent(linear: Double) -> Double {
        linear > 0 ? cbrt(linear) * 100 : 0
    }

    /// `percent` moved `steps` steps up (positive) or down, landing on a multiple of the step: from
    /// 83 % one step up is 85 %, one down 80 %. Clamped to the range.
    public static func stepped(_ percent: Double, by steps: Int) -> Double {
        guard steps != 0 else { return percent }
        let position = percent / step
        let base = steps > 0 ? (position + 1e-9).rounded(.down) : (position - 1e-9).rounded(.up)
        let moved = (base + Double(steps)) * step
        return min(max(moved, percentRange.lowerBound), percentRange.upperBound)
    }

    /// `80%`: the percentage rounded to a whole number.
    public static func text(_ percent: Double) -> String {
        "\(Int(percent.rounded()))%"
    }
}
