import AliciaAudio

/// How a `load` puts items in the queue and starts them: everything a front end decides about a
/// start (which entry first, from where, looping, shuffled, voice notes cued at positions of the
/// first) in one value the session carries out, so no front end starts a queue its own way.
public struct LoadPlan: Sendable, Equatable {
    public var items: [QueueItem]
    public var mode: TransportCommand.LoadMode
    /// `replace` only: the entry that plays first.
    public var index: Int
    /// `replace` only: where the first entry starts (nil: where it was left, as every other entry).
    public var start: StartPosition?
    /// `replace` only: the loop mode from now on (nil: as it was).
    public var loop: LoopMode?
    /// `replace` only: the entries but the first in a random order.
    public var shuffle: Bool
    /// `replace` only: voice notes played when the first entry reaches each position (`--voice-at`).
    public var voiceCues: [VoiceCue]

    public init(_ items: [QueueItem], mode: TransportCommand.LoadMode = .replace, index: Int = 0,
                start: StartPosition? = nil, loop: LoopMode? = nil, shuffle: Bool = false, voiceCues: [VoiceCue] = []) {
        self.items = items
        self.mode = mode
        self.index = index
        self.start = start
        self.loop = loop
        self.shuffle = shuffle
        self.voiceCues = voiceCues
    }
}

/// A voice note cued at a position of the first entry (`--voice-at T=REF`).
public struct VoiceCue: Sendable, Equatable {
    public var at: StartPosition
    public var note: QueueItem

    public init(at: StartPosition, note: QueueItem) {
        self.at = at
        self.note = note
    }
}
