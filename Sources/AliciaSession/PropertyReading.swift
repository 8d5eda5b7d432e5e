import AliciaAudio

/// The session as the property table reads it at one moment, from any thread. The queue and the
/// voice note are read only when a property needs them (a status bar's `time-pos` needs neither).
public final class PropertyReading {
    public let snapshot: PlayerSnapshot
    public let view: SessionView
    /// What `mpv-version` names.
    public let version: String

    public init(_ view: SessionView, version: String) {
        snapshot = view.snapshot()
        self.view = view
        self.version = version
    }

    public lazy var queue: PlayQueue = view.queue
    /// The voice note playing, if any.
    public lazy var voice: String? = view.voice.title
    public lazy var levels: ListenerLevels = view.levels
    /// The item heard with what its file says (title, artist, chapters…).
    public lazy var details: ItemDetails? = ItemDetails(snapshot)

    /// An item is loaded and not stopped.
    public var hasItem: Bool { snapshot.item != nil && snapshot.state != .idle }

    /// Seconds into the item heard, while there is one: where a seek asked for lands, once asked
    /// (as mpv's `time-pos` reads after a `seek`), so a read right after a seek is never its origin.
    public var position: Double? {
        guard hasItem, snapshot.format != nil else { return nil }
        return snapshot.seekTarget ?? snapshot.position
    }

    /// The chapter heard now (-1 before the first), while there is an item with chapters.
    public var chapter: Int? {
        guard let position, let details else { return nil }
        return ChapterMap.index(of: position, in: details.chapters)
    }

    /// The queue entry playing now (or the current one, before it plays; or the one a jump asked
    /// for goes to, as mpv's `playlist-pos` reads right after `playlist-next`).
    public var current: QueueEntryID? { snapshot.pendingEntry ?? queue.currentID ?? snapshot.entry }
}
