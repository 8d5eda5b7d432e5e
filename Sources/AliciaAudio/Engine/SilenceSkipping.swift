/// How hard pauses are shortened (`--skip-silence`, key `s`). A pause is a run of frames in which
/// every channel is under the silence threshold (set from the item's noise floor). Runs shorter
/// than `minimum` are kept whole (gaps between words, under about 150 ms, are never touched); a
/// longer one keeps `retention` of its length, at most `maximumKept` seconds, half at its start and
/// half at its end, the rest cut out.
public enum SilenceSkipping: String, Sendable, Equatable, CaseIterable {
    case off, mild, medium, strong

    /// Seconds a run must last before it is shortened.
    public var minimum: Double {
        switch self {
        case .off: return .infinity
        case .mild: return 0.5
        case .medium: return 0.3
        case .strong: return 0.15
        }
    }

    /// The share of a shortened run that is kept.
    public var retention: Double {
        switch self {
        case .off: return 1
        case .mild: return 0.5
        case .medium: return 0.3
        case .strong: return 0.1
        }
    }

    /// Seconds a shortened run keeps at most.
    public var maximumKept: Double {
        switch self {
        case .off: return .infinity
        case .mild: return 1
        case .medium: return 0.6
        case .strong: return 0.3
        }
    }

    /// Seconds of a run of `seconds` that are kept: the rule above, as the tests predict it.
    public func kept(ofRun seconds: Double) -> Double {
        guard self != .off, seconds >= minimum else { return seconds }
        return min(seconds * retention, maximumKept)
    }

    /// The level after this one, as key `s` cycles: off, mild, medium, strong, off.
    public var next: SilenceSkipping {
        switch self {
        case .off: return .mild
        case .mild: return .medium
        case .medium: return .strong
        case .strong: return .off
        }
    }
}
