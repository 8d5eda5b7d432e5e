import AliciaFeeds
import AliciaJSON
import AliciaStore

/// What a parsed feed writes into the library: the show's metadata and its episodes.
package enum FeedEpisodes {
    package static func metadata(_ feed: Feed) -> ShowMetadata {
        ShowMetadata(title: feed.title.isEmpty ? "(untitled)" : feed.title, link: feed.link, imageURL: feed.imageURL,
                     description: feed.description.isEmpty ? nil : feed.description, author: feed.author,
                     language: feed.language, updateFrequency: feed.updateFrequency, newFeedURL: feed.newFeedURL)
    }

    /// The items that are episodes (those with an enclosure: the rest are posts a player cannot
    /// play), in the feed's order, each keeping its position under its enclosure's URL.
    package static func episodes(_ feed: Feed) -> [EpisodeInfo] {
        feed.items.compactMap { item in
            guard let enclosure = item.enclosure else { return nil }
            return EpisodeInfo(
                guid: item.id, title: item.title.isEmpty ? "(untitled)" : item.title, url: enclosure.url, mime: enclosure.type,
                bytes: enclosure.length, published: item.published, duration: item.duration.map { Int64($0.rounded()) },
                summary: item.summary.isEmpty ? nil : item.summary, notesHTML: item.notesHTML, imageURL: item.imageURL ?? feed.imageURL,
                chaptersURL: item.chaptersURL, chaptersType: item.chaptersType, transcripts: transcripts(item.transcripts),
                season: item.season.map(Int64.init), episode: item.episode.map { Int64($0.rounded(.down)) },
                episodeType: item.episodeType?.rawValue, persons: persons(item.persons.isEmpty ? feed.persons : item.persons),
                funding: funding(item.funding.isEmpty ? feed.funding : item.funding))
        }
    }

    private static func transcripts(_ transcripts: [FeedTranscript]) -> String? {
        json(transcripts.map { transcript in
            .object([.init("url", .string(transcript.url)), .init("type", .string(transcript.type)),
                     .init("language", .string(transcript.language)), .init("rel", .string(transcript.rel))])
        })
    }

    private static func persons(_ persons: [FeedPerson]) -> String? {
        json(persons.map { person in
            .object([.init("name", .string(person.name)), .init("role", .string(person.role)), .init("group", .string(person.group)),
                     .init("img", .string(person.imageURL)), .init("href", .string(person.href))])
        })
    }

    private static func funding(_ funding: [FeedFunding]) -> String? {
        json(funding.map { .object([.init("url", .string($0.url)), .init("text", .string($0.text))]) })
    }

    private static func json(_ values: [JSONValue]) -> String? {
        guard !values.isEmpty, let text = JSONValue.array(values).text() else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// The transcript to fetch for an episode: the listener's language first, then the feed's,
    /// then the best format (`FeedTranscript.preferred`), from the stored JSON.
    package static func preferredTranscript(_ stored: String?, language: String?, feedLanguage: String?) -> String? {
        guard let stored, let value = JSONValue(parsing: Array(stored.utf8)), case .array(let items) = value else { return nil }
        let transcripts = items.compactMap { item -> FeedTranscript? in
            guard case .object(let members) = item else { return nil }
            func field(_ key: String) -> String? {
                if case .string(let text)? = members.first(where: { $0.key == key })?.value { return text }
                return nil
            }
            guard let url = field("url") else { return nil }
            return FeedTranscript(url: url, type: field("type") ?? "", language: field("language"), rel: field("rel"))
        }
        return transcripts.preferred(language: language, feedLanguage: feedLanguage)?.url
    }
}
