/// What a player tells its subscribers. Every event names the queue entry it is about (nil only
/// for what concerns the player as a whole), so an event about one entry can never be taken for
/// another's: ids are never reused.
public struct PlayerEvent: Sendable, Equatable, CustomStringConvertible {
    public var entry: QueueEntryID?
    public var kind: Kind

    public enum Kind: Sendable, Equatable {
        /// The player's state changed (about the entry heard now).
        case stateChanged(PlayerState)
        /// The entry is now the one heard (after a join, a jump, or the start).
        case entryStarted
        /// The entry's decoder opened: its format and length.
        case formatKnown(AudioFormat)
        /// Playback of the entry goes on from this frame (a seek, a speed change).
        case seeked(toFrame: Int64)
        /// Skipped silence: the position heard jumped from `fromFrame` to `toFrame` of the entry
        /// (the frames between were cut out of a pause). For subscribers that extrapolate the position
        /// (MPRIS `Seeked`).
        case silenceSkipped(fromFrame: Int64, toFrame: Int64)
        /// The entry's loudness was measured over all of it (matched loudness): figures to keep, so
        /// that its next play starts at the right level (`QueueItem.loudness`).
        case loudnessMeasured(LoudnessFigures)
        /// The sleep timer ended: the output faded to silence and the player paused (posted before
        /// its `.stateChanged(.paused)`).
        case sleepTimerEnded
        /// The entry was heard to its end (`truncated`: the end of what the file held).
        case ended(truncated: Bool)
        /// The entry could not be played (the queue goes on with the next one).
        case failed(PlaybackError)
        /// A position cue of the entry was passed (see `Player.setCues`).
        case cueReached(Int)
        /// The queue was edited (entries added, removed, moved).
        case queueChanged
        /// The last entry ended and nothing follows.
        case queueEnded
        /// `stop()` ended playback.
        case stopped
        /// The output moved to another device (its sink went away: the server moved the stream to
        /// the default one; or a mixer moved it). Playback goes on there.
        case outputMoved(SinkMove)
        /// What the entry is about changed as it played (a live stream's title): its metadata is
        /// read again.
        case metadataChanged
        /// Something its owner keeps beside the player changed (the listener's volume, mute,
        /// shuffle): subscribers that show it read it again. Posted by `announceChange()`.
        case ownerChanged
    }

    public init(entry: QueueEntryID?, kind: Kind) {
        self.entry = entry
        self.kind = kind
    }

    public var description: String { "\(entry.map(\.description) ?? "-") \(kind)" }
}
