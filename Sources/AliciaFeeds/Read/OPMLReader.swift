/// Reads an OPML subscription list: every `outline` with an `xmlUrl` (the attribute's name in any
/// case: gPodder and newsboat write `xmlUrl`, other tools `xmlURL` or `xmlurl`), however deeply
/// nested; the outlines around one without an `xmlUrl` are its categories. A title is `title`,
/// else `text`, else the URL. The walk is iterative and stops at `maximumOutlines`.
enum OPMLReader {
    static let maximumOutlines = 100_000

    static func outlines(root: XMLNode, context: ReadContext) -> [OPMLOutline] {
        guard let body = context.children(of: root).first(where: { $0.name == "body" })?.node else { return [] }
        var outlines: [OPMLOutline] = []
        var pending: [(next: XMLNode?, categories: [String])] = []
        var current = body.firstChild
        var categories: [String] = []
        var visited = 0
        while visited < maximumOutlines {
            guard let visiting = current else {
                guard let (next, outer) = pending.popLast() else { break }
                (current, categories) = (next, outer)
                continue
            }
            current = visiting.nextSibling
            guard visiting.isElement, visiting.lowercasedName.name == "outline" else { continue }
            visited += 1
            let title = [visiting.attribute("title", ignoringCase: true), visiting.attribute("text", ignoringCase: true)]
                .lazy.compactMap { $0.map(PlainText.collapsingSpaces) }.first { !$0.isEmpty }
            let feedURL = feedURL(visiting.attribute("xmlUrl", ignoringCase: true), at: visiting, context: context)
            if let feedURL {
                let siteURL = context.webURL(visiting.attribute("htmlUrl", ignoringCase: true), at: visiting)
                outlines.append(OPMLOutline(title: title ?? feedURL, feedURL: feedURL, siteURL: siteURL, categories: categories))
            }
            if let child = visiting.firstChild {
                pending.append((current, categories))
                if feedURL == nil, let title { categories.append(title) }
                current = child
            }
        }
        return outlines
    }

    /// An `xmlUrl`, with the old `feed:` scheme (`feed://host/…`, `feed:https://host/…`) read as
    /// the http(s) URL it wraps; nil unless http(s).
    static func feedURL(_ raw: String?, at node: XMLNode, context: ReadContext) -> String? {
        guard var text = raw?.trimmingSpaces else { return nil }
        let lowered = text.lowercased()
        if lowered.hasPrefix("feed://") {
            text = "http://" + text.dropFirst(7)
        } else if lowered.hasPrefix("feed:") {
            text = String(text.dropFirst(5))
        }
        return context.webURL(text, at: node)
    }
}
