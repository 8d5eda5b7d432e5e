import AliciaFeeds
import AliciaJSON
import AliciaStore

/// `shows` and `episodes` as text for people and as JSON for scripts (the field names are what
/// scripts use: README, "Podcasts").
package enum SubscriptionLists {
    package static func showsText(_ shows: [Show]) -> String {
        guard !shows.isEmpty else { return "No subscriptions: alicia-player subscribe URL adds one.\n" }
        return shows.enumerated().map { index, show in
            let counts = "\(show.episodeCount) episode\(show.episodeCount == 1 ? "" : "s")" + (show.newCount > 0 ? ", \(show.newCount) new" : "")
            let failure = show.lastError.map { "\n      last refresh failed: \($0)" } ?? ""
            return "\(index + 1). \(show.metadata.title) (\(counts))\n      \(Subscriptions.shown(show.url))\(failure)"
        }.joined(separator: "\n") + "\n"
    }

    package static func showsJSON(_ shows: [Show]) -> String {
        json(shows.map { show in
            .object([
                .init("title", .string(show.metadata.title)), .init("url", .string(show.url)),
                .init("link", .string(show.metadata.link)), .init("image", .string(show.metadata.imageURL)),
                .init("episodes", .number(Double(show.episodeCount))), .init("new", .number(Double(show.newCount))),
                .init("error", .string(show.lastError)), .init("last_checked", .string(show.lastChecked.map(FeedDate.iso8601))),
            ])
        })
    }

    package static func episodesText(_ rows: [EpisodeListing]) -> String {
        guard !rows.isEmpty else { return "No episodes.\n" }
        return rows.enumerated().map { index, row in
            var marks: [String] = []
            if let published = row.published { marks.append(String(FeedDate.iso8601(published).prefix(10))) }
            if let duration = row.duration { marks.append(clock(duration)) }
            if row.isUnheardNew { marks.append("new") }
            if row.isPlayed {
                marks.append("played")
            } else if let position = row.position, position.positionMS > 0 {
                marks.append("at " + clock(Int64(position.position)))
            }
            if row.downloadPath != nil { marks.append("downloaded") }
            return "\(index + 1). \(row.showTitle): \(row.title)" + (marks.isEmpty ? "" : "  (\(marks.joined(separator: ", ")))")
        }.joined(separator: "\n") + "\n"
    }

    /// `language`: the listener's (`LANG`), for the transcript chosen.
    package static func episodesJSON(_ rows: [EpisodeListing], details: [Int64: EpisodeDetails], language: String?) -> String {
        json(rows.enumerated().map { index, row in
            let detail = details[row.id]
            func number(_ value: Int64?) -> JSONValue { value.map { .number(Double($0)) } ?? .null }
            return .object([
                .init("index", .number(Double(index + 1))), .init("show", .string(row.showTitle)), .init("title", .string(row.title)),
                .init("guid", .string(row.guid)), .init("url", .string(row.url)),
                .init("published", .string(row.published.map(FeedDate.iso8601))), .init("duration", number(row.duration)),
                .init("chapters_url", .string(detail?.chaptersURL)),
                .init("transcript_url", .string(FeedEpisodes.preferredTranscript(detail?.transcripts, language: language, feedLanguage: nil))),
                .init("season", number(detail?.season)), .init("episode", number(detail?.episode)),
                .init("position", row.position.map { .number($0.position) } ?? .number(0)), .init("played", .bool(row.isPlayed)),
                .init("downloaded", .bool(row.downloadPath != nil)), .init("new", .bool(row.isUnheardNew)),
            ])
        })
    }

    /// `1:02:03` or `4:05`.
    static func clock(_ seconds: Int64) -> String {
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    private static func json(_ values: [JSONValue]) -> String {
        guard let text = JSONValue.array(values).text(layout: .indented) else { return "[]\n" }
        return String(decoding: text, as: UTF8.self) + "\n"
    }
}
