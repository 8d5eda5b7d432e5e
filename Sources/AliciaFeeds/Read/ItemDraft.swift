/// An item being read: what each of its elements said, before the fallbacks between them are
/// chosen (`finish`). Feeds say the same thing several ways (`pubDate`, `dc:date`, Atom's
/// `published`; `description`, `itunes:summary`, `content:encoded`), and the first way a feed
/// uses is not always the best one.
struct ItemDraft {
    var guid: String?
    /// RSS 1.0's `rdf:about`: the item's URI, its identity when it has no other.
    var about: String?
    var title: Markup?
    var itunesTitle: String?
    var dublinCoreTitle: String?
    var link: String?
    /// A GUID that is a permalink (RSS's default) is the link of an item that has none.
    var permalink: String?
    var pubDate: Int64?
    var atomPublished: Int64?
    var dublinCoreDate: Int64?
    var atomUpdated: Int64?
    var duration: Double?
    var enclosure: FeedEnclosure?
    var mediaEnclosure: FeedEnclosure?
    var alternateEnclosures: [AlternateEnclosure] = []
    var description: Markup?
    var content: Markup?
    var itunesSummary: Markup?
    /// `itunes:subtitle`, `media:description`, `dc:description`: summaries of last resort.
    var otherSummary: Markup?
    var itunesImage: String?
    var mediaThumbnail: String?
    var chaptersURL: String?
    var chaptersType: String?
    var transcripts: [FeedTranscript] = []
    var itunesSeason: Int?
    var podcastSeason: Int?
    var itunesEpisode: Int?
    var podcastEpisode: Double?
    var episodeType: FeedItem.EpisodeType?
    var block = false
    var persons: [FeedPerson] = []
    var funding: [FeedFunding] = []
    var warnings: [String] = []

    /// The item, or nil when nothing identifies it (see `FeedItem.id`).
    func finish() -> FeedItem? {
        let title = [title?.plain, itunesTitle.map(PlainText.from(html:)), dublinCoreTitle.map(PlainText.from(html:))]
            .lazy.compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let enclosure = enclosure ?? mediaEnclosure
        let link = link ?? permalink
        let identity = guid ?? about ?? link ?? enclosure?.url ?? (title.isEmpty ? nil : "title:" + title)
        guard let identity else { return nil }
        let summaries = [description, itunesSummary, content, otherSummary].compactMap { $0 }.filter { !$0.isEmpty }
        let notes = [content, description, itunesSummary].compactMap { $0 }.first { !$0.isEmpty }
        return FeedItem(
            id: identity,
            guid: guid ?? about,
            title: title,
            link: link,
            published: pubDate ?? atomPublished ?? dublinCoreDate ?? atomUpdated,
            duration: duration,
            enclosure: enclosure,
            alternateEnclosures: alternateEnclosures,
            summary: summaries.first?.plain ?? "",
            notesHTML: notes?.html,
            imageURL: itunesImage ?? mediaThumbnail,
            chaptersURL: chaptersURL,
            chaptersType: chaptersURL == nil ? nil : chaptersType,
            transcripts: transcripts,
            season: itunesSeason ?? podcastSeason,
            episode: itunesEpisode.map(Double.init) ?? podcastEpisode,
            episodeType: episodeType,
            block: block,
            persons: persons,
            funding: funding,
            warnings: warnings
        )
    }
}
