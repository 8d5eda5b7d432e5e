/// The Podcasting 2.0 and iTunes elements a channel and an item share, each read from its
/// element (the namespace's spec: https://podcastindex.org/namespace/1.0).
enum PodcastElements {
    /// `<podcast:person role group img href>Name</podcast:person>`; nil without a name.
    static func person(_ node: XMLNode, context: ReadContext) -> FeedPerson? {
        let name = PlainText.collapsingSpaces(context.text(node))
        guard !name.isEmpty else { return nil }
        return FeedPerson(
            name: name,
            role: node.attribute("role").map { $0.trimmingSpaces.lowercased() }.flatMap { $0.isEmpty ? nil : $0 } ?? "host",
            group: node.attribute("group").map { $0.trimmingSpaces.lowercased() }.flatMap { $0.isEmpty ? nil : $0 } ?? "cast",
            imageURL: context.webURL(node.attribute("img"), at: node),
            href: context.webURL(node.attribute("href"), at: node)
        )
    }

    /// `<podcast:funding url>Text</podcast:funding>`; nil without an http(s) URL.
    static func funding(_ node: XMLNode, context: ReadContext) -> FeedFunding? {
        guard let url = context.webURL(node.attribute("url"), at: node) else { return nil }
        return FeedFunding(url: url, text: PlainText.collapsingSpaces(context.text(node)))
    }

    /// `<podcast:transcript url type language rel/>`; nil (with a warning) when the URL is refused.
    static func transcript(_ node: XMLNode, context: ReadContext, warnings: inout [String]) -> FeedTranscript? {
        guard let url = context.fetchableURL(node.attribute("url"), at: node, what: "transcript", warnings: &warnings) else { return nil }
        return FeedTranscript(
            url: url,
            type: node.attribute("type")?.trimmingSpaces ?? "",
            language: node.attribute("language").map(\.trimmingSpaces).flatMap { $0.isEmpty ? nil : $0 },
            rel: node.attribute("rel").map(\.trimmingSpaces).flatMap { $0.isEmpty ? nil : $0 }
        )
    }

    /// `<podcast:alternateEnclosure type length bitrate title lang rel codecs default>` with its
    /// `<podcast:source uri contentType/>`s; only http(s) sources are kept (IPFS and torrents are
    /// other players' business), and an alternate without one is left out.
    static func alternateEnclosure(_ node: XMLNode, context: ReadContext) -> AlternateEnclosure? {
        var sources: [AlternateEnclosure.Source] = []
        for child in context.children(of: node) where child.namespace == .podcast && child.name == "source" {
            guard let uri = context.webURL(child.node.attribute("uri"), at: child.node) else { continue }
            sources.append(AlternateEnclosure.Source(uri: uri, contentType: nonEmpty(child.node.attribute("contentType"))))
        }
        guard !sources.isEmpty else { return nil }
        return AlternateEnclosure(
            type: nonEmpty(node.attribute("type")),
            length: node.attribute("length").flatMap(length),
            bitrate: node.attribute("bitrate").flatMap { Double($0.trimmingSpaces) }.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
            title: nonEmpty(node.attribute("title")),
            language: nonEmpty(node.attribute("lang")),
            rel: nonEmpty(node.attribute("rel")),
            codecs: nonEmpty(node.attribute("codecs")),
            isDefault: node.attribute("default").map(isYes) ?? false,
            sources: sources
        )
    }

    /// `<podcast:updateFrequency rrule>Text</podcast:updateFrequency>` in seconds.
    static func updateFrequency(_ node: XMLNode, context: ReadContext) -> Int64? {
        node.attribute("rrule").flatMap(UpdateFrequency.seconds(rrule:)) ?? UpdateFrequency.seconds(text: context.text(node))
    }

    /// `itunes:image`'s `href` (some feeds write `url`, or the URL as text).
    static func image(_ node: XMLNode, context: ReadContext) -> String? {
        context.webURL(node.attribute("href") ?? node.attribute("url") ?? context.nonEmptyText(node), at: node)
    }

    /// iTunes' booleans: `Yes` (any case; `true` too) is true, anything else false.
    static func isYes(_ text: String) -> Bool {
        let word = text.trimmingSpaces.lowercased()
        return word == "yes" || word == "true"
    }

    /// A whole number of at most 9 digits, as feeds write seasons and episodes.
    static func wholeNumber(_ text: String) -> Int? {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty, trimmed.utf8.count <= 9, trimmed.utf8.allSatisfy(FeedDate.isDigit) else { return nil }
        return Int(trimmed)
    }

    /// A non-negative number (`315.5`), as `podcast:episode` allows.
    static func number(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty, trimmed.utf8.count <= 16, trimmed.utf8.allSatisfy({ FeedDate.isDigit($0) || $0 == UInt8(ascii: ".") }),
              let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// A byte count; nil when not a non-negative whole number.
    static func length(_ text: String) -> Int64? {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty, trimmed.utf8.count <= 18, trimmed.utf8.allSatisfy(FeedDate.isDigit) else { return nil }
        return Int64(trimmed)
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingSpaces, !trimmed.isEmpty else { return nil }
        return trimmed
    }
}
