/// The feeds an HTML page names, as browsers and feed readers find them: `<link rel="alternate"
/// type="application/rss+xml" href>` (or `application/atom+xml`), anywhere in the page, resolved
/// against the page's `<base href>` and URL; only http(s), each once, in the page's order.
enum FeedDiscovery {
    static let feedTypes: Set<String> = ["application/rss+xml", "application/atom+xml"]
    /// Elements looked at before giving up: a page's head comes first, so this only bounds a
    /// hostile page.
    static let maximumNodes = 200_000

    static func feeds(root: XMLNode, pageURL: String) -> [String] {
        var hrefs: [String] = []
        var base: String?
        var pending: [XMLNode] = []
        var current: XMLNode? = root
        var visited = 0
        while visited < maximumNodes, let node = current ?? pending.popLast() {
            visited += 1
            current = node.nextSibling
            guard node.isElement else { continue }
            switch node.lowercasedName.name {
            case "base": base = base ?? node.attribute("href", ignoringCase: true)
            case "link":
                if isFeedLink(node), let href = node.attribute("href", ignoringCase: true) { hrefs.append(href) }
            default: break
            }
            if let child = node.firstChild {
                if let next = current { pending.append(next) }
                current = child
            }
        }
        let baseURL = base.flatMap { XMLNode.buildURI(URLText.escapingUnsafe($0.trimmingSpaces), base: pageURL) } ?? pageURL
        var seen = Set<String>()
        return hrefs.compactMap { href in
            let trimmed = URLText.escapingUnsafe(href.trimmingSpaces)
            guard !trimmed.isEmpty, let url = XMLNode.buildURI(trimmed, base: baseURL), URLText.isHTTP(url), seen.insert(url).inserted else {
                return nil
            }
            return url
        }
    }

    /// `rel` has the token `alternate` and `type` (without parameters) is a feed's.
    static func isFeedLink(_ node: XMLNode) -> Bool {
        guard let rel = node.attribute("rel", ignoringCase: true), let type = node.attribute("type", ignoringCase: true) else { return false }
        let tokens = rel.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        let mime = type.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
        return tokens.contains("alternate") && feedTypes.contains(mime)
    }
}
