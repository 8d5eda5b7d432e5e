/// An item's measured loudness (EBU R 128): what matched loudness needs, and what is cached per
/// episode so that its second play starts at the right level.
public struct LoudnessFigures: Sendable, Equatable, Codable {
    /// Integrated loudness, LUFS.
    public var integrated: Double
    /// The highest sample peak, dBFS (the limiter finds the peaks between samples itself).
    public var peak: Double

    public init(integrated: Double, peak: Double) {
        self.integrated = integrated
        self.peak = peak
    }

    /// The true peak never goes over this, dBTP.
    public static let ceiling = -1.0
    /// The limiter takes at most this much off the peaks; past it the gain is lowered instead.
    public static let limiterRange = 6.0

    /// The gain (dB) that brings these figures to `target` LUFS, lowered where the limiter would
    /// have to take more than `limiterRange` off the peaks to keep them under `ceiling`.
    public func gain(toward target: Double) -> Double {
        let wanted = target - integrated
        guard peak.isFinite else { return wanted }
        return min(wanted, Self.ceiling + Self.limiterRange - peak)
    }
}

/// Matched loudness (`--loudness`): the target in LUFS, or off.
public enum LoudnessMatching: Sendable, Equatable {
    case off
    case target(Double)

    /// The usual target for spoken audio.
    public static let standard = LoudnessMatching.target(-16)
}
