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
    /// The RSS channel, once seen.
    private var channel: XMLNode?
    /// For the root and the channel: the last child a scan left in place (never freed), where the
    /// next scan goes on.
    private var lastKept: [OpaquePointer: XMLNode] = [:]

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
    /// `feed` fuzz target found this). Each child is looked at once: a scan goes on from where the
    /// last one stopped, so a channel of a million other elements costs no more than one pass.
    func readCompleteItems(root: XMLNode, open: XMLNode?, parsing: Bool = true) {
        if isFeed == nil { isFeed = Self.kind(of: context.element(root)) != nil }
        guard isFeed == true else { return }
        var openPath: [OpaquePointer] = []
        var node = open
        while let element = node {
            openPath.append(element.handle)
            node = element.parent
        }
        let stop = Self.child(of: root, on: openPath)
        if channel == nil, let stop, context.element(XMLNode(handle: stop)).name == "channel" { channel = XMLNode(handle: stop) }
        readCompleteItems(in: root, stop: stop, parsing: parsing)
        if let channel { readCompleteItems(in: channel, stop: Self.child(of: channel, on: openPath), parsing: parsing) }
    }

    /// The element of `openPath` (the open element, its parent, …) that is a child of `container`.
    private static func child(of container: XMLNode, on openPath: [OpaquePointer]) -> OpaquePointer? {
        guard let index = openPath.firstIndex(of: container.handle), index > 0 else { return nil }
        return openPath[index - 1]
    }

    private func readCompleteItems(in container: XMLNode, stop: OpaquePointer?, parsing: Bool) {
        let resumeAfter = lastKept[container.handle]
        var child = resumeAfter == nil ? container.firstChild : resumeAfter?.nextSibling
        while let node = child, node.handle != stop {
            child = node.nextSibling
            if parsing && child == nil { return }
            let element = node.isElement ? context.element(node) : nil
            let isItem = element.map { ($0.name == "item" && ($0.namespace == .none || $0.namespace == .rss))
                || ($0.name == "entry" && $0.namespace == .atom) } ?? false
            guard isItem else {
                if channel == nil && element?.name == "channel" { channel = node }
                lastKept[container.handle] = node
                continue
            }
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
