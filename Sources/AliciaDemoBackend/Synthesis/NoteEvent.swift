/// One note of a score, in frames of the sound it belongs to.
struct NoteEvent: Sendable {
    /// A slow swell of the level, on the sound's absolute clock (so it flows across notes): the
    /// level dips by `depth` and comes back every `period` seconds.
    struct Swell: Sendable {
        var period: Double
        var depth: Double
    }

    /// The first frame (may be negative: a pad that fades in across the start).
    var start: Int
    var length: Int
    var frequency: Double
    var gain: Double
    /// −1 (left) … 1 (right), equal power.
    var pan: Double
    var instrument: Instrument
    var swell: Swell?

    var end: Int { start + length }
}
