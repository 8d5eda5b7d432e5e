/// Reads a feed document whose root is `rss`, `rdf:RDF`, `feed` (or a bare `channel`): its items
/// while libxml2 is still parsing, each one read and freed as soon as it is complete, and the
/// channel once the document is done. A 5,000-item feed is then never a 5,000-item tree: what is
/// held at once is the feed read so far and a chunk's worth of tree.
final class FeedReader {
    let context: ReadContext
    private var items: [FeedItem] = []
    private var seen = Set<String>()
    private var duplicates = 0
    /// Whether the root is a feed's, once a root has been seen.
    private var isFeed: Bool?

    init(context: ReadContext) {
        self.context = context
    }

    /// The kind of feed a root element makes, nil when it is not a feed's.
    static func kind(of root: ReadContext.Element) -> Feed.Kind? {
        switch root.name {
        case "rss", "channel": .rss
        case "rdf": .rdf
        case "feed": .atom
        default: nil
        }
    }

    /// Reads and frees the items that are complete: those before the element being built (`open`)
    /// and its ancestors, among the root's children and the channel's. While the parse goes on
    /// (`parsing`), an item that is the last child of its parent stays until another follows it:
    /// libxml2 appends text to the open element's last child through a length it keeps itself
    /// (`ctxt->nodelen`), and unlinking that child would leave it writing into freed memory (the
    /// `feed` fuzz target found this).
    func readCompleteItems(root: XMLNode, open: XMLNode?, parsing: Bool = true) {
        if isFeed == nil { isFeed = Self.kind(of: context.element(root)) != nil }
        guard isFeed == true else { return }
        var openPath: [OpaquePointer] = []
        var node = open
        while let element = node {
            openPath.append(element.handle)
            node = element.parent
        }
        readCompleteItems(in: root, openPath: openPath, parsing: parsing)
        if let channel = context.children(of: root).first(where: { $0.name == "channel" })?.node {
            readCompleteItems(in: channel, openPath: openPath, parsing: parsing)
        }
    }

    private func readCompleteItems(in container: XMLNode, openPath: [OpaquePointer], parsing: Bool) {
        var child = container.firstChild
        while let node = child, !openPath.contains(node.handle) {
            child = node.nextSibling
            if parsing && child == nil { return }
            guard node.isElement else { continue }
            let element = context.element(node)
            let isItem = (element.name == "item" && (element.namespace == .none || element.namespace == .rss))
                || (element.name == "entry" && element.namespace == .atom)
            guard isItem else { continue }
            if let item = ItemReader.read(node, context: context) {
                if !seen.insert(item.id).inserted { duplicates += 1 }
                items.append(item)
            }
            node.free()
        }
    }

    /// The feed, once the whole document is parsed.
    func finish(root: XMLNode, kind: Feed.Kind) -> Feed {
        readCompleteItems(root: root, open: nil, parsing: false)
        var draft = ChannelDraft()
        draft.language = PodcastElements.nonEmpty(root.attribute(namespace: ChannelReader.xmlNamespace, "lang"))
        if kind == .atom || context.element(root).name == "channel" {
            _ = ChannelReader.read(root, into: &draft, context: context)
        } else {
            // RSS 1.0 (and some 0.9x feeds) have their image beside the channel.
            for child in context.children(of: root) {
                switch child.name {
                case "channel": _ = ChannelReader.read(child.node, into: &draft, context: context)
                case "image": draft.otherImage = draft.otherImage ?? ChannelReader.image(of: child.node, context: context)
                default: break
                }
            }
        }
        if duplicates > 0 { context.warnings.append("\(duplicates) item(s) have the identity of an earlier item") }
        if context.budget.exhausted { context.warnings.append("entity expansion stopped at its limit: some text is missing") }
        return draft.finish(kind: kind, items: items, warnings: context.warnings)
    }
}
