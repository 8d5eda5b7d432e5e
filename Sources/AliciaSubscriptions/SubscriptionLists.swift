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

    /// `language`: the listener's (`LANG`), for the transcript chosen. Written a row at a time to
    /// `write` (a few hundred rows a call), never as one tree or one string of the whole list: 50,000
    /// episodes are a few MiB of text.
    package static func writeEpisodesJSON(_ rows: [EpisodeListing], details: [Int64: EpisodeDetails], language: String?,
                                          to write: (String) -> Void) {
        var out = JSONBytes(capacity: 1 << 17)
        out.raw("[")
        for (index, row) in rows.enumerated() {
            out.raw(index == 0 ? "\n" : ",\n")
            episodeJSON(row, index: index, detail: details[row.id], language: language, into: &out)
            if out.bytes.count >= 1 << 16 { out.flush(to: write) }
        }
        out.raw(rows.isEmpty ? "]\n" : "\n]\n")
        out.flush(to: write)
    }

    /// The whole list as one text (tests, and lists of a few).
    package static func episodesJSON(_ rows: [EpisodeListing], details: [Int64: EpisodeDetails], language: String?) -> String {
        var text = ""
        writeEpisodesJSON(rows, details: details, language: language) { text += $0 }
        return text
    }

    /// One episode: the fields scripts use (README, "Podcasts"), in this order, written into `out`.
    static func episodeJSON(_ row: EpisodeListing, index: Int, detail: EpisodeDetails?, language: String?, into out: inout JSONBytes) {
        out.beginObject()
        out.member("index", integer: Int64(index + 1))
        out.member("show", string: row.showTitle)
        out.member("title", string: row.title)
        out.member("guid", string: row.guid)
        out.member("url", string: row.url)
        if let published = row.published {
            out.member("published", quotedASCII: { FeedDate.iso8601(published, appendingTo: &$0) })
        } else {
            out.member("published", string: nil)
        }
        out.member("duration", integer: row.duration)
        out.member("chapters_url", string: detail?.chaptersURL)
        out.member("transcript_url", string: FeedEpisodes.preferredTranscript(detail?.transcripts, language: language, feedLanguage: nil))
        out.member("season", integer: detail?.season)
        out.member("episode", integer: detail?.episode)
        out.member("position", number: row.position?.position ?? 0)
        out.member("played", bool: row.isPlayed)
        out.member("downloaded", bool: row.downloadPath != nil)
        out.member("new", bool: row.isUnheardNew)
        out.endObject()
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
