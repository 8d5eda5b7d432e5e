/// What an item is about, beside how its samples are laid out (MPD keeps `Tag` apart from
/// `AudioFormat`; mpv loads external chapters and subtitles where a file is loaded, not in the
/// demuxer): its tags, chapters and transcript. The decoder reads what the file says of itself;
/// what lies beside a local file, and what the queue item brings (the backend's word cues, a
/// feed's chapters and transcript), are gathered where the item is loaded (`gathered(…)`).
public struct ItemMetadata: Sendable, Equatable {
    /// What the file says of itself (title, artist, cover art…).
    public var tags = MediaTags()
    /// The item's chapters, in order, in its own time; empty when it has none.
    public var chapters: [Chapter] = []
    /// Its transcript, in order; empty when there is none.
    public var transcript: [TranscriptCue] = []

    public init(tags: MediaTags = MediaTags(), chapters: [Chapter] = [], transcript: [TranscriptCue] = []) {
        self.tags = tags
        self.chapters = chapters
        self.transcript = transcript
    }

    /// The file's own metadata with what lies beside a local file and what `item` brings: a
    /// Podcasting 2.0 chapters file beside it wins over the chapters inside it, a transcript beside
    /// it over the item's; the item's chapters and transcript fill what the file has not.
    public static func gathered(fromFile file: ItemMetadata, item: QueueItem) -> ItemMetadata {
        var metadata = file
        if let path = item.location.filePath {
            if let chapters = ChaptersFile.chapters(besideFile: path) { metadata.chapters = chapters }
            if let transcript = Transcript.cues(besideFile: path) { metadata.transcript = transcript }
        }
        if metadata.chapters.isEmpty { metadata.chapters = item.chapters }
        if metadata.transcript.isEmpty { metadata.transcript = item.transcript }
        return metadata
    }
}
