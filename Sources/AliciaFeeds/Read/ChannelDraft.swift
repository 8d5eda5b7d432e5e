/// A channel being read: what its elements said, before the fallbacks between them are chosen
/// (as `ItemDraft` for items).
struct ChannelDraft {
    var title: Markup?
    var dublinCoreTitle: String?
    var link: String?
    var description: Markup?
    var itunesSummary: Markup?
    var otherDescription: Markup?
    var itunesAuthor: String?
    var otherAuthor: String?
    var language: String?
    var itunesImage: String?
    var otherImage: String?
    var newFeedURL: String?
    var podcastGUID: String?
    var podcastFrequency: Int64?
    var syndicationPeriod: String?
    var syndicationFrequency: String?
    var ttlMinutes: Int64?
    var complete = false
    var block = false
    var funding: [FeedFunding] = []
    var persons: [FeedPerson] = []

    /// The feed around `items`.
    func finish(kind: Feed.Kind, items: [FeedItem], warnings: [String]) -> Feed {
        let syndication = syndicationPeriod.flatMap { UpdateFrequency.seconds(syndicationPeriod: $0, frequency: syndicationFrequency) }
        let title = title?.plain ?? dublinCoreTitle.map(PlainText.from(html:)) ?? ""
        return Feed(
            kind: kind,
            title: title,
            link: link,
            description: [description, itunesSummary, otherDescription].compactMap { $0 }.first { !$0.isEmpty }?.plain ?? "",
            author: (itunesAuthor ?? otherAuthor).map(PlainText.from(html:)).flatMap { $0.isEmpty ? nil : $0 },
            language: language,
            imageURL: itunesImage ?? otherImage,
            newFeedURL: newFeedURL,
            podcastGUID: podcastGUID,
            updateFrequency: podcastFrequency ?? syndication ?? ttlMinutes.map { $0 * 60 },
            complete: complete,
            block: block,
            funding: funding,
            persons: persons,
            items: items,
            warnings: warnings
        )
    }
}
