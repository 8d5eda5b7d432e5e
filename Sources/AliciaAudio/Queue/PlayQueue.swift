/// What a queue entry plays: a location and how to name it.
public struct QueueItem: Sendable, Equatable {
    public var location: MediaLocation
    /// Shown to the listener (and as the stream's `media.name`).
    public var title: String
    /// The episode's label (S11E04), when it is one of Alicia's.
    public var label: String?
    /// Where to begin the first time it plays (nil: the start).
    public var start: StartPosition?
    /// Under what its resume position is kept (nil: none is, as for voice notes).
    public var positionKey: String?
    /// How a saved queue names it again (a label, a path, `voice:/api/audio/…`): never with a token.
    public var reference: String?
    /// Files heard after `location` as the same item, with nothing between them (a synthesis read
    /// aloud in chunks): one title, one length, one position.
    public var moreParts: [MediaLocation] = []
    /// Parts still being made while it plays (a synthesis voiced as it is heard): they follow
    /// `location` and `moreParts`, and the item's length is unknown until they are all there.
    public var growth: GrowingParts?
    /// What it belongs to, for media keys and status bars (MPRIS `xesam:album`): an episode's
    /// collection.
    public var album: String?
    /// Who it is by (MPRIS `xesam:artist`): an episode's series.
    public var artist: String?
    /// Its loudness, when measured before (cached per episode): matched loudness starts at the
    /// right level at once.
    public var loudness: LoudnessFigures?
    /// Its length in seconds when known before it plays (an episode's stated duration, a list's
    /// `#EXTINF`): a saved queue keeps it.
    public var duration: Double?
    /// Played once through, from its start (standard input): seeking is refused.
    public var isOnceThrough = false
    /// What it says when the queue knows it already (a synthesis's own text, split by its chunks):
    /// the transcript when the file has none beside it.
    public var transcript: [TranscriptCue] = []
    /// Chapters the item brings (a feed's `podcast:chapters`, fetched): used when the file has none.
    public var chapters: [Chapter] = []
    /// A cover the queue knows (a feed's `itunes:image`, an http(s) URL): MPRIS `artUrl` when the
    /// file has none of its own.
    public var artURL: String?

    public init(location: MediaLocation, title: String, label: String? = nil, start: StartPosition? = nil,
                positionKey: String? = nil, reference: String? = nil) {
        self.location = location
        self.title = title
        self.label = label
        self.start = start
        self.positionKey = positionKey
        self.reference = reference
    }
}

/// A queue entry's identity: given once, never reused, kept across edits (moves, removals of
/// others, shuffles), so that an event about an entry can never be taken for another's.
public struct QueueEntryID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}

public struct QueueEntry: Sendable, Equatable, Identifiable {
    public let id: QueueEntryID
    public var item: QueueItem
}

/// What follows the last entry.
public enum LoopMode: String, Sendable, Equatable, CaseIterable {
    /// The queue ends.
    case off
    /// The current entry plays again.
    case entry
    /// The first entry follows the last.
    case queue
}

/// The entries a player plays, in order, with the one playing now. A value type: the player keeps
/// one under its lock and hands out copies. Pure: no I/O, no threads.
public struct PlayQueue: Sendable, Equatable {
    public private(set) var entries: [QueueEntry] = []
    /// The entry playing (heard) now, if any.
    public private(set) var currentID: QueueEntryID?
    public var loop: LoopMode = .off
    /// Entries are removed once they have played (the voice-note player's queue).
    public var consume = false
    private var lastID: UInt64 = 0

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    public var currentIndex: Int? { currentID.flatMap(index(of:)) }
    public var current: QueueEntry? { currentIndex.map { entries[$0] } }

    public func index(of id: QueueEntryID) -> Int? { entries.firstIndex { $0.id == id } }
    public func entry(_ id: QueueEntryID) -> QueueEntry? { index(of: id).map { entries[$0] } }

    /// Adds `item` at the end; returns its id.
    @discardableResult
    public mutating func append(_ item: QueueItem) -> QueueEntryID {
        let entry = make(item)
        entries.append(entry)
        return entry.id
    }

    /// Adds `item` right after the current entry (at the front when none is current).
    @discardableResult
    public mutating func insertNext(_ item: QueueItem) -> QueueEntryID {
        let entry = make(item)
        entries.insert(entry, at: currentIndex.map { $0 + 1 } ?? 0)
        return entry.id
    }

    /// Removes an entry; false when there is no such entry. Removing the current one leaves no
    /// entry current (the player moves on to what followed it).
    @discardableResult
    public mutating func remove(_ id: QueueEntryID) -> Bool {
        guard let index = index(of: id) else { return false }
        let removed = entries.remove(at: index)
        if currentID == id { currentID = nil }
        abandonGrowth(of: removed)
        return true
    }

    /// An item still being voiced that has left the queue: its maker stops asking (unless another
    /// entry holds the same parts).
    private func abandonGrowth(of entry: QueueEntry) {
        guard let growth = entry.item.growth, !entries.contains(where: { $0.item.growth === growth }) else { return }
        growth.abandon()
    }

    /// Moves an entry to `position` (clamped), counted in the queue as it is after the entry left
    /// its place; false when there is no such entry.
    @discardableResult
    public mutating func move(_ id: QueueEntryID, to position: Int) -> Bool {
        guard let index = index(of: id) else { return false }
        let entry = entries.remove(at: index)
        entries.insert(entry, at: min(max(0, position), entries.count))
        return true
    }

    /// Removes every entry.
    /// Items still being voiced stop growing, but those of `keeping` (a queue replaced by one
    /// that holds them again).
    public mutating func clear(keeping: [QueueItem] = []) {
        let removed = entries
        entries.removeAll()
        currentID = nil
        for entry in removed where !keeping.contains(where: { $0.growth != nil && $0.growth === entry.item.growth }) {
            abandonGrowth(of: entry)
        }
    }

    /// Plays `id` from `location` from now on, the rest of its item unchanged; false when there is
    /// no such entry.
    @discardableResult
    public mutating func relocate(_ id: QueueEntryID, to location: MediaLocation) -> Bool {
        guard let index = index(of: id) else { return false }
        entries[index].item.location = location
        return true
    }

    /// Makes `id` the current entry (nil: none); false when there is no such entry.
    @discardableResult
    public mutating func setCurrent(_ id: QueueEntryID?) -> Bool {
        guard let id else {
            currentID = nil
            return true
        }
        guard index(of: id) != nil else { return false }
        currentID = id
        return true
    }

    /// Shuffles the entries once (the current one, if any, first), with `generator`.
    public mutating func shuffle<G: RandomNumberGenerator>(using generator: inout G) {
        var rest = entries.filter { $0.id != currentID }
        rest.shuffle(using: &generator)
        entries = (current.map { [$0] } ?? []) + rest
    }

    /// The entry that plays after `id` ends by itself, by the loop mode.
    public func entry(after id: QueueEntryID) -> QueueEntry? {
        guard let index = index(of: id) else { return nil }
        switch loop {
        case .entry: return entries[index]
        case .off: return index + 1 < entries.count ? entries[index + 1] : nil
        case .queue: return entries[(index + 1) % entries.count]
        }
    }

    /// The entry a listener's "next" goes to from `id`: as `entry(after:)`, except that looping
    /// one entry still moves on (a listener who presses next wants the next one).
    public func skipTarget(after id: QueueEntryID) -> QueueEntry? {
        guard let index = index(of: id) else { return nil }
        if index + 1 < entries.count { return entries[index + 1] }
        return loop == .off ? nil : entries.first
    }

    /// The entry a listener's "previous" goes to from `id`.
    public func skipTarget(before id: QueueEntryID) -> QueueEntry? {
        guard let index = index(of: id) else { return nil }
        if index > 0 { return entries[index - 1] }
        return loop == .off ? nil : entries.last
    }

    private mutating func make(_ item: QueueItem) -> QueueEntry {
        lastID += 1
        return QueueEntry(id: QueueEntryID(rawValue: lastID), item: item)
    }
}
