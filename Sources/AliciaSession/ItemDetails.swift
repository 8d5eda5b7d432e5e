import AliciaAudio

/// What every front end shows of the item heard: its title, who it is by, its album, date and
/// comment, its cover, and its chapters, from the queue's item and the tags its file carries
/// (`AudioFormat.tags`, `.chapters`). One reading, so the socket's `media-title`, MPRIS, the Studio
/// and `ctl` never disagree. Alicia's episodes (those with a label) keep the backend's title, and
/// only they are "Alicia"'s when nothing else names an artist or album.
public struct ItemDetails: Sendable, Equatable {
    public let item: QueueItem
    public let tags: MediaTags
    public let chapters: [Chapter]

    public init(_ item: QueueItem, format: AudioFormat?) {
        self.item = item
        tags = format?.tags ?? MediaTags()
        chapters = format?.chapters ?? []
    }

    /// The item heard in `snapshot`, with what its file says.
    public init?(_ snapshot: PlayerSnapshot) {
        guard let item = snapshot.item else { return nil }
        self.init(item, format: snapshot.format)
    }

    /// One of Alicia's episodes (the backend named it).
    public var isAlicias: Bool { item.label != nil }

    /// The file's title, else the queue's (a file name); Alicia's episodes keep the backend's.
    public var title: String { isAlicias ? item.title : tags.title ?? item.title }
    /// Who it is by, only when known: the queue's (an episode's series), else the file's.
    public var artist: String? { item.artist ?? tags.artist }
    public var album: String? { item.album ?? tags.album }
    /// For MPRIS: "Alicia" for her episodes when nothing else is known, else only what is.
    public var mediaArtist: String? { artist ?? (isAlicias ? "Alicia" : nil) }
    public var mediaAlbum: String? { album ?? (isAlicias ? "Alicia" : nil) }
    public var date: String? { tags.year }
    public var comment: String? { tags.comment }
    /// The cover as a `file://` URL (extracted to the cache when the item opened).
    public var artURL: String? { tags.coverArt.map(Self.fileURL) }

    /// `file://` and the path, with what a URL cannot hold as it is escaped.
    static func fileURL(_ path: String) -> String {
        var url = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                url.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = Array("0123456789ABCDEF")
                url += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return url
    }
}

/// Where chapters start and which one a position is in: in seconds of the item's own time, as
/// positions are, so speed and skipped silence change nothing.
public enum ChapterMap {
    /// A position this close before a chapter's start counts as in it (a seek to a start can land
    /// a rounding short of it).
    public static let tolerance = 0.01

    /// The index of the chapter `position` is in; -1 before the first (as mpv's `chapter`); nil
    /// when there are none.
    public static func index(of position: Double, in chapters: [Chapter]) -> Int? {
        guard !chapters.isEmpty else { return nil }
        return (chapters.lastIndex { $0.start <= position + tolerance }) ?? -1
    }

    /// Where chapter `index` ends: its own end when the file says, else where the next starts,
    /// else the item's end (nil when that is not known).
    public static func end(of index: Int, in chapters: [Chapter], duration: Double?) -> Double? {
        guard chapters.indices.contains(index) else { return nil }
        if let end = chapters[index].end, end > chapters[index].start { return end }
        return index + 1 < chapters.count ? chapters[index + 1].start : duration
    }

    /// The chapter a step of `steps` from `position` goes to: within `restart` seconds of a
    /// chapter's start, -1 is the chapter before; later it is this chapter's start again (as
    /// "previous" does for items). Before the first chapter, -1 is the item's start (-1 is
    /// returned); past the last, nil.
    public static func step(_ steps: Int, from position: Double, in chapters: [Chapter], restart: Double) -> Int? {
        guard let current = index(of: position, in: chapters) else { return nil }
        var target = current + steps
        if steps < 0, current >= 0, position - chapters[current].start > restart { target += 1 }
        guard target < chapters.count else { return nil }
        return max(-1, target)
    }
}
