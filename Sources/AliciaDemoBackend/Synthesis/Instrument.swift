#if canImport(Glibc)
import Glibc
#endif

/// A timbre and an envelope: a few sine partials, a raised-cosine attack, an exponential decay and a
/// raised-cosine release that reaches zero exactly at the note's end, so notes never click.
struct Instrument: Sendable {
    /// One sine at `ratio` times the note's frequency; `damping` (per second) makes it fade faster
    /// than the note, as the upper partials of a struck or plucked sound do.
    struct Partial: Sendable {
        var ratio: Double
        var gain: Double
        var damping: Double = 0
    }

    var partials: [Partial]
    /// Seconds from silence to full level.
    var attack: Double
    /// The decay's time constant in seconds; nil for a sustained sound (pads).
    var decay: Double?
    /// Seconds over which the note fades out before its end.
    var release: Double

    /// The level at `age` seconds into a note lasting `length` seconds: 0 outside the note.
    func envelope(age: Double, length: Double) -> Double {
        guard age > 0, age < length else { return 0 }
        var level = 1.0
        if age < attack {
            level = 0.5 - 0.5 * cos(Double.pi * age / attack)
        }
        if let decay {
            level *= exp(-age / decay)
        }
        let releaseStart = length - release
        if age > releaseStart {
            level *= 0.5 + 0.5 * cos(Double.pi * (age - releaseStart) / release)
        }
        return level
    }

    /// The sum of the partials' gains: the most one note can add to a sample, per unit of its gain.
    var peakGain: Double {
        partials.reduce(0) { $0 + $1.gain }
    }
}

extension Instrument {
    /// A soft electric piano: a strong fundamental with a bell-like second partial that fades first.
    static let electricPiano = Instrument(
        partials: [.init(ratio: 1, gain: 1), .init(ratio: 2, gain: 0.3, damping: 2.5), .init(ratio: 3, gain: 0.1, damping: 5)],
        attack: 0.004, decay: 0.9, release: 0.25
    )

    /// A thumb piano: the tine's inharmonic overtones ring briefly above a round fundamental.
    static let kalimba = Instrument(
        partials: [.init(ratio: 1, gain: 1), .init(ratio: 5.4, gain: 0.16, damping: 12), .init(ratio: 8.9, gain: 0.05, damping: 20)],
        attack: 0.003, decay: 0.7, release: 0.2
    )

    /// A glassy bell with a long ring, for slow music.
    static let softBell = Instrument(
        partials: [.init(ratio: 1, gain: 1), .init(ratio: 2, gain: 0.28, damping: 0.8), .init(ratio: 2.76, gain: 0.16, damping: 1.5), .init(ratio: 5.4, gain: 0.05, damping: 4)],
        attack: 0.006, decay: 2.2, release: 0.8
    )

    /// A music box: a high, quick comb tooth.
    static let musicBox = Instrument(
        partials: [.init(ratio: 1, gain: 1), .init(ratio: 3, gain: 0.14, damping: 6), .init(ratio: 5.8, gain: 0.05, damping: 12)],
        attack: 0.002, decay: 0.6, release: 0.2
    )

    /// A warm sustained pad; its attack and release are the crossfade between chords.
    static let warmPad = Instrument(
        partials: [.init(ratio: 1, gain: 1), .init(ratio: 2, gain: 0.24)],
        attack: 1.2, decay: nil, release: 1.2
    )

    /// The pad with a slower breath, for "Slow Tide".
    static let tidePad = Instrument(
        partials: [.init(ratio: 1, gain: 1), .init(ratio: 2, gain: 0.2)],
        attack: 2.5, decay: nil, release: 2.5
    )

    /// A round bass note.
    static let softBass = Instrument(
        partials: [.init(ratio: 1, gain: 1), .init(ratio: 2, gain: 0.3, damping: 1.5), .init(ratio: 3, gain: 0.08, damping: 3)],
        attack: 0.02, decay: 1.2, release: 0.15
    )

    /// A soft low thump where a kick drum would be.
    static let thump = Instrument(
        partials: [.init(ratio: 1, gain: 1), .init(ratio: 2, gain: 0.2, damping: 25)],
        attack: 0.004, decay: 0.11, release: 0.08
    )

    /// A short wooden tick for the off-beats.
    static let tick = Instrument(
        partials: [.init(ratio: 1, gain: 1), .init(ratio: 2.63, gain: 0.35, damping: 20)],
        attack: 0.0015, decay: 0.03, release: 0.03
    )
}
