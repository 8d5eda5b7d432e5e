import AliciaAudio

/// What every front end shows of the item heard: its title, who it is by, its album, date and
/// comment, its cover, and its chapters, from the queue's item and what it is about
/// (`ItemMetadata`: the file's tags, its chapters wherever they came from). One reading, so the socket's `media-title`, MPRIS, the Studio
/// and `ctl` never disagree. Alicia's episodes (those with a label) keep the backend's title, and
/// only they are "Alicia"'s when nothing else names an artist or album.
public struct ItemDetails: Sendable, Equatable {
    public let item: QueueItem
    public let tags: MediaTags
    public let chapters: [Chapter]

    public init(_ item: QueueItem, metadata: ItemMetadata) {
        self.item = item
        tags = metadata.tags
        chapters = metadata.chapters
    }

    /// The item heard in `snapshot`, with what it is about.
    public init?(_ snapshot: PlayerSnapshot) {
        guard let item = snapshot.item else { return nil }
        self.init(item, metadata: snapshot.metadata)
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
    /// The cover as a `file://` URL (extracted to the cache when the item opened), else the one the
    /// queue knows (a feed's image).
    public var artURL: String? { tags.coverArt.map(Self.fileURL) ?? item.artURL }

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
