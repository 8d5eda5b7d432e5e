/// What a list for scripts shows beside an `EpisodeListing` row, read in one pass
/// (`LibraryStore.episodeDetails(showID:)`): the feed's chapters and transcripts and its numbering.
package struct EpisodeDetails: Equatable, Sendable {
    package var chaptersURL: String?
    /// JSON text, as `EpisodeInfo.transcripts`.
    package var transcripts: String?
    package var season: Int64?
    package var episode: Int64?
}
