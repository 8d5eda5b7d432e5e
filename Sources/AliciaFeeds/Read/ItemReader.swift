/// Reads one item (an RSS `item` or an Atom `entry`, with what the iTunes, Podcasting 2.0,
/// content, Dublin Core and Media RSS namespaces add to it) child by child into an `ItemDraft`,
/// so that each child can be freed once taken (`FeedReader`). Element names are matched
/// lower-cased, namespaces by URI (`FeedNamespace`).
enum ItemReader {
    static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    /// A draft for the item `node`, before its children are taken.
    static func begin(_ node: XMLNode) -> ItemDraft {
        var draft = ItemDraft()
        draft.about = node.attribute(namespace: rdfNamespace, "about").flatMap(PodcastElements.nonEmpty)
        return draft
    }

    /// Takes one child element of an item into its draft.
    static func take(_ child: ReadContext.Element, into draft: inout ItemDraft, context: ReadContext) {
        switch child.namespace {
        case .none, .rss: takeRSS(child, into: &draft, context: context)
        case .atom: takeAtom(child, into: &draft, context: context)
        case .itunes: takeITunes(child, into: &draft, context: context)
        case .podcast: takePodcast(child, into: &draft, context: context)
        case .content where child.name == "encoded": draft.content = draft.content ?? context.markup(child.node)
        case .dublinCore: takeDublinCore(child, into: &draft, context: context)
        case .media: takeMedia(child, into: &draft, context: context)
        default: break
        }
    }

    /// The item, or nil (with a warning on the feed) when nothing identifies it.
    static func finish(_ draft: ItemDraft, context: ReadContext) -> FeedItem? {
        guard let item = draft.finish() else {
            context.warnings.append("an item with no guid, link, enclosure or title was left out")
            return nil
        }
        return item
    }

    /// Whether `element` is an item: RSS's `item` or Atom's `entry`.
    static func isItem(_ element: ReadContext.Element) -> Bool {
        (element.name == "item" && (element.namespace == .none || element.namespace == .rss))
            || (element.name == "entry" && element.namespace == .atom)
    }

    static func takeRSS(_ element: ReadContext.Element, into draft: inout ItemDraft, context: ReadContext) {
        let node = element.node
        switch element.name {
        case "title": draft.title = draft.title ?? context.markup(node)
        case "link": draft.link = draft.link ?? context.webURL(context.text(node), at: node)
        case "description": draft.description = draft.description ?? context.markup(node)
        case "guid":
            guard draft.guid == nil, let guid = context.nonEmptyText(node) else { return }
            draft.guid = guid
            if node.attribute("isPermaLink").map({ $0.trimmingSpaces.lowercased() }) != "false" {
                // A permalink GUID is a URL by definition; one that is not absolute is only an id.
                draft.permalink = URLText.isHTTP(guid) ? URLText.escapingUnsafe(guid) : nil
            }
        case "pubdate": draft.pubDate = draft.pubDate ?? context.date(node, what: "pubDate", warnings: &draft.warnings)
        case "enclosure":
            guard draft.enclosure == nil else { return }
            draft.enclosure = enclosure(node, url: node.attribute("url"), context: context, warnings: &draft.warnings)
        default: break
        }
    }

    static func takeAtom(_ element: ReadContext.Element, into draft: inout ItemDraft, context: ReadContext) {
        let node = element.node
        switch element.name {
        case "title": draft.title = draft.title ?? context.markup(node, atom: true)
        case "link":
            let rel = node.attribute("rel")?.trimmingSpaces.lowercased() ?? "alternate"
            if rel == "alternate" {
                draft.link = draft.link ?? context.webURL(node.attribute("href"), at: node)
            } else if rel == "enclosure" && draft.enclosure == nil {
                draft.enclosure = enclosure(node, url: node.attribute("href"), context: context, warnings: &draft.warnings)
            }
        case "id": draft.guid = draft.guid ?? context.nonEmptyText(node)
        case "published", "issued", "created":
            draft.atomPublished = draft.atomPublished ?? context.date(node, what: element.name, warnings: &draft.warnings)
        case "updated", "modified":
            draft.atomUpdated = draft.atomUpdated ?? context.date(node, what: element.name, warnings: &draft.warnings)
        case "summary": draft.description = draft.description ?? context.markup(node, atom: true)
        case "content" where node.attribute("src") == nil: draft.content = draft.content ?? context.markup(node, atom: true)
        default: break
        }
    }

    static func takeDublinCore(_ element: ReadContext.Element, into draft: inout ItemDraft, context: ReadContext) {
        switch element.name {
        case "date": draft.dublinCoreDate = draft.dublinCoreDate ?? context.date(element.node, what: "dc:date", warnings: &draft.warnings)
        case "title": draft.dublinCoreTitle = draft.dublinCoreTitle ?? context.nonEmptyText(element.node)
        case "description": draft.otherSummary = draft.otherSummary ?? context.markup(element.node)
        default: break
        }
    }

    /// `media:content` (the enclosure of a feed that has no `enclosure`, when it is audio or
    /// video), `media:thumbnail`, `media:description`, and the same inside `media:group`.
    static func takeMedia(_ element: ReadContext.Element, into draft: inout ItemDraft, context: ReadContext) {
        let node = element.node
        switch element.name {
        case "content":
            let medium = (node.attribute("medium") ?? node.attribute("type") ?? "audio").trimmingSpaces.lowercased()
            guard draft.mediaEnclosure == nil, medium.hasPrefix("audio") || medium.hasPrefix("video") else { return }
            draft.mediaEnclosure = enclosure(node, url: node.attribute("url"), lengthAttribute: "fileSize", context: context,
                                             warnings: &draft.warnings)
        case "thumbnail": draft.mediaThumbnail = draft.mediaThumbnail ?? context.webURL(node.attribute("url"), at: node)
        case "description":
            let plain = node.attribute("type")?.trimmingSpaces.lowercased() != "html"
            draft.otherSummary = draft.otherSummary ?? Markup(text: context.text(node), isHTML: !plain)
        case "group":
            for child in context.children(of: node) where child.namespace == .media && child.name != "group" {
                takeMedia(child, into: &draft, context: context)
            }
        default: break
        }
    }

    /// An enclosure from an element with a URL, `type` and a length attribute; nil (with a
    /// warning) when the URL is refused.
    static func enclosure(_ node: XMLNode, url: String?, lengthAttribute: String = "length", context: ReadContext,
                          warnings: inout [String]) -> FeedEnclosure? {
        guard let url = context.fetchableURL(url, at: node, what: "enclosure", warnings: &warnings) else { return nil }
        return FeedEnclosure(url: url, type: PodcastElements.nonEmpty(node.attribute("type")),
                             length: node.attribute(lengthAttribute).flatMap(PodcastElements.length))
    }
}
