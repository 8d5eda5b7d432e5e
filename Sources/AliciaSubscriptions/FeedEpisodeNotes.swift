import AliciaFeeds
import AliciaJSON
import AliciaStore

/// A feed episode's notes as `notes` prints them: its show and title, its date, length, season and
/// episode, the notes as words (the feed's HTML read as text), then who is in it
/// (`podcast:person`) and how to support the show (`podcast:funding`).
package enum FeedEpisodeNotes {
    package static func text(_ episode: Episode, show: String) -> String {
        let info = episode.info
        var facts: [String] = []
        if let published = info.published { facts.append(String(FeedDate.iso8601(published).prefix(10))) }
        if let duration = info.duration { facts.append(SubscriptionLists.clock(duration)) }
        if let season = info.season { facts.append("season \(season)") }
        if let number = info.episode { facts.append("episode \(number)") }
        var lines = ["\(show): \(info.title)"]
        if !facts.isEmpty { lines.append(facts.joined(separator: ", ")) }
        let notes = info.notesHTML.map(PlainText.from(html:)) ?? info.summary ?? ""
        lines.append("")
        lines.append(notes.isEmpty ? "(the feed gives no notes)" : notes)
        let people = objects(info.persons).compactMap { person -> String? in
            guard let name = person["name"], !name.isEmpty else { return nil }
            return person["role"].map { $0.isEmpty ? name : "\(name) (\($0))" } ?? name
        }
        if !people.isEmpty { lines += ["", "With: " + people.joined(separator: ", ")] }
        let funding = objects(info.funding).compactMap { link -> String? in
            guard let url = link["url"], !url.isEmpty else { return nil }
            return (link["text"].flatMap { $0.isEmpty ? nil : $0 } ?? "Support the show") + ": " + url
        }
        if !funding.isEmpty { lines += [""] + funding }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The stored JSON array of objects as string members.
    private static func objects(_ stored: String?) -> [[String: String]] {
        guard let stored, case .array(let items)? = JSONValue(parsing: Array(stored.utf8)) else { return [] }
        return items.compactMap { item in
            guard case .object(let members) = item else { return nil }
            var fields: [String: String] = [:]
            for member in members { if case .string(let text) = member.value { fields[member.key] = text } }
            return fields
        }
    }
}
