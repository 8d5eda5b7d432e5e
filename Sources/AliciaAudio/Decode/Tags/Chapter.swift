/// A chapter of an item: a title and where it starts, in seconds of the item's own time (as
/// positions are: speed and skipped silence do not move it). From ID3 CHAP/CTOC, MP4 chapters,
/// RIFF cue points with their `LIST/adtl` labels, or a Podcasting 2.0 `NAME.chapters.json` beside
/// a local file. Carried in the item's `AudioFormat`, in order of their start.
public struct Chapter: Sendable, Equatable {
    public var title: String
    public var start: Double
    /// Where it ends, when the file says (else where the next one starts).
    public var end: Double?

    public init(title: String, start: Double, end: Double? = nil) {
        self.title = title
        self.start = start
        self.end = end
    }

    /// `chapters` in order of their start, the ones starting before 0 or at a non-finite time left out.
    static func ordered(_ chapters: [Chapter]) -> [Chapter] {
        chapters.filter { $0.start.isFinite && $0.start >= 0 }.sorted { $0.start < $1.start }
    }
}
