/// What a file says about itself (ID3v2, Vorbis comments, MP4 atoms, RIFF INFO): read when its
/// decoder opens and carried beside its format (`ItemMetadata`), so every front end shows the same words.
/// Empty fields are nil, never "".
public struct MediaTags: Sendable, Equatable {
    public var title: String?
    /// The artist, or for a podcast the show or its host (ID3's album artist when no artist is set).
    public var artist: String?
    public var album: String?
    /// The year (or the date, as the file gives it: `2024`, `2024-03-15`).
    public var year: String?
    public var comment: String?
    /// The cover art, extracted once to the cache directory (`$XDG_CACHE_HOME/alicia-player/art/`),
    /// as an absolute path: what MPRIS offers as `mpris:artUrl` (`file://` + it).
    public var coverArt: String?

    public init(title: String? = nil, artist: String? = nil, album: String? = nil, year: String? = nil,
                comment: String? = nil, coverArt: String? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
        self.year = year
        self.comment = comment
        self.coverArt = coverArt
    }

    public var isEmpty: Bool { self == MediaTags() }

    /// These tags, with every field nil here taken from `other`.
    func filled(from other: MediaTags) -> MediaTags {
        MediaTags(title: title ?? other.title, artist: artist ?? other.artist, album: album ?? other.album,
                  year: year ?? other.year, comment: comment ?? other.comment, coverArt: coverArt ?? other.coverArt)
    }
}

extension String {
    /// Nil for text that is empty once trimmed of spaces and NULs; else the trimmed text.
    var tagValue: String? {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace && $0 != "\0" }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace && $0 != "\0" }) else { return nil }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
