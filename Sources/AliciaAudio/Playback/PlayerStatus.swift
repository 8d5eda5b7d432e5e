/// What the feeder publishes about playback, as MPD's player thread publishes its state and
/// error in `PlayerControl`: where the listener is (the frame map over the sink's played frames),
/// the entry heard, what is open, what failed, and the figures the snapshot shows.
///
/// Who may touch it: the feeder writes it under the core's lock (and its loudness analyzer, for
/// `measured`); anyone reads it there. Three commands write what must show before the feeder can
/// act on them, all in `PlayerCore+Commands.swift`: a pause or resume sets `state` at once, a play
/// asked of a player at rest shows as `.loading`, a new queue drops the old one's `errors`; and a
/// hold records the exact frame it stopped at (`lastHeardPlace`).
struct PlayerStatus {
    // Structs, not labelled tuples: an optional tuple is handled through tuple metadata made at run
    // time from its mangled name, and the labels go through libstdc++'s strings, 128 KiB of its code
    // pages for these two fields.
    struct Opened {
        var entry: QueueEntryID
        var format: AudioFormat
        var byteRate: Double
    }

    struct Resting {
        var entry: QueueEntryID
        var frame: Int64
        var format: AudioFormat?
    }

    struct Measurement {
        var figures: LoudnessFigures?
    }

    /// The feeder waits for a request (after a stop, the end of the queue, or before the first play).
    var idle = true
    var state: PlayerState = .idle
    /// The entry's reader ran dry while playing: the sink is corked until it has refilled.
    var starving = false
    /// The sound server went away: what is tried (nil while it answers).
    var soundServerLost: String?
    /// Where the listener was at the last look at the sink (after every write): where to go on
    /// from if the server goes away, whose last timing info cannot be trusted then.
    var lastHeardPlace: Resting?
    /// Seconds of skipped silence the listener has passed, per entry and in all.
    var silenceSaved: [QueueEntryID: Double] = [:]
    var silenceSavedTotal = 0.0
    /// The sink's rate, for the sleep timer's frames (0 without a sink).
    var sinkRate = 0
    /// Whole-item measurements done, by entry (nil figures: it could not be measured).
    var measured: [QueueEntryID: Measurement] = [:]
    /// The loudness gain (dB) set for the entry being written, and the limiter's deepest
    /// reduction so far in it (dB, 0 or less).
    var loudnessGain = 0.0
    var limiterReduction = 0.0
    var sink: (any AudioSink)?
    /// The entry being decoded and the one fetched ahead, for interrupting their reads (their
    /// other fields are the feeder's: read `opened` instead).
    var item: ItemSource?
    var prefetch: ItemSource?
    /// What the feeder knows of the entry it decodes, once it has opened.
    var opened: Opened?
    /// What each entry opened so far is about (its tags, chapters, transcript), for the entries
    /// still in the queue: what the snapshot shows beside the format.
    var metadata: [QueueEntryID: ItemMetadata] = [:]
    var map = FrameMap()
    /// The entry heard now; nil before anything played.
    var heard: QueueEntryID?
    /// Where playback rests when no sink holds a position (stopped, failed before playing).
    var resting: Resting?
    var errors: [QueueEntryID: PlaybackError] = [:]
    var truncated: Set<QueueEntryID> = []
    /// Cues posted since they were last set (`PlayerCommands.cueChanges` at `cuesArmed`).
    var firedCues: Set<Int> = []
    var cuesArmed = 0
    /// Frame the decoder of `item` produces next.
    var decodedFrame: Int64 = 0
    /// A jump or seek the feeder has taken and not yet begun (it is flushing, opening or moving
    /// the decoder, and the map holds nothing of it yet). A seek asked meanwhile starts from it:
    /// presses that arrive together add up, and a seek pressed right after `n` or enter is
    /// about the entry jumped to, instead of starting from the frame heard before.
    var taken: (entry: QueueEntryID, start: PlayerCore.Start)?

    /// The sink frame played now (of this segment): every frame written once it has drained.
    func played() -> Int64 {
        guard let sink else { return 0 }
        return map.playedOut ? map.written : sink.playedFrames()
    }

    /// Where playback stands: the heard entry and its frame (takes PulseAudio's lock after the
    /// core's, as the lock order allows).
    func location() -> FrameMap.Location? {
        guard let sink else { return nil }
        return map.locate(sink.playedFrames())
    }

    /// What the listener hears at `location`, as the place to go on from.
    static func place(_ location: FrameMap.Location) -> Resting {
        Resting(entry: location.entry, frame: location.sourceFrame, format: location.format)
    }
}
