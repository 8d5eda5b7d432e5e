/// Reads a feed document whose root is `rss`, `rdf:RDF`, `feed` (or a bare `channel`) while
/// libxml2 is still parsing it: after each chunk, every node that is complete (neither the element
/// being built nor one of its ancestors) under the root, the channel and the item being built is
/// taken into the feed's or the item's draft and freed. What is held at once is then the feed
/// read so far and a chunk's worth of tree, however many items, channel elements or item
/// elements a feed has; only an element below an item (a `media:group`, a description written as
/// unescaped HTML) is held whole until it closes.
final class FeedReader {
    let context: ReadContext
    private var draft = ChannelDraft()
    private var items: [FeedItem] = []
    private var seen = Set<String>()
    private var duplicates = 0
    /// Whether the root is a feed's, once a root has been seen.
    private var isFeed: Bool?
    /// What the root makes of the document, once a root has been seen.
    private var rootKind: Feed.Kind?
    /// The item being built and what its complete children have said so far.
    private var openItem: (handle: OpaquePointer, draft: ItemDraft)?

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

    /// Takes and frees what is complete below `root`, given the element being built (`open`).
    /// While the parse goes on (`parsing`), the last child of each parent stays until another
    /// follows it: libxml2 appends text to the open element's last child through a length it keeps
    /// itself (`ctxt->nodelen`), and unlinking that child would leave it writing into freed memory
    /// (the `feed` fuzz target found this).
    func readComplete(root: XMLNode, open: XMLNode?, parsing: Bool = true) {
        if isFeed == nil {
            rootKind = Self.kind(of: context.element(root))
            isFeed = rootKind != nil
            ChannelReader.begin(root, into: &draft)
        }
        guard isFeed == true else { return }
        var openPath: [OpaquePointer] = []
        var node = open
        while let element = node {
            openPath.append(element.handle)
            node = element.parent
        }
        let pass = Pass(openPath: openPath, parsing: parsing)
        if let stop = pass.child(of: root), rootKind != .atom, context.element(XMLNode(handle: stop)).name == "channel" {
            ChannelReader.begin(XMLNode(handle: stop), into: &draft)
            consume(XMLNode(handle: stop), pass, isRoot: false)
        }
        consume(root, pass, isRoot: true)
    }

    /// What one pass knows: the open element's path (it, its parent, …, the root) and whether the
    /// parse goes on.
    private struct Pass {
        let openPath: [OpaquePointer]
        let parsing: Bool

        /// Whether `container`'s last child must stay: while the parse goes on, for the open
        /// element and its ancestors (libxml2 appends to the first and returns to the others).
        func keepsLastChild(of container: XMLNode) -> Bool {
            parsing && openPath.contains(container.handle)
        }

        /// The element of the open path that is a child of `container`.
        func child(of container: XMLNode) -> OpaquePointer? {
            guard let index = openPath.firstIndex(of: container.handle), index > 0 else { return nil }
            return openPath[index - 1]
        }
    }

    /// Takes and frees the complete children of the root or the channel: items read, the
    /// channel's own elements taken into the draft (an RSS 1.0 channel, complete before its items,
    /// and RSS 1.0's `image` beside it, too). The complete children of an open item are taken.
    private func consume(_ container: XMLNode, _ pass: Pass, isRoot: Bool) {
        let walked = consumeChildren(of: container, pass) { node in
            guard node.isElement else { return }
            let element = context.element(node)
            if ItemReader.isItem(element) {
                var itemDraft = draftOfItem(node)
                consumeItem(node, into: &itemDraft, pass)
                add(ItemReader.finish(itemDraft, context: context))
            } else if isRoot && rootKind != .atom && element.name == "channel" {
                ChannelReader.begin(node, into: &draft)
                consume(node, Pass(openPath: [], parsing: false), isRoot: false)
            } else if isRoot && rootKind != .atom && element.name == "image" {
                draft.otherImage = draft.otherImage ?? ChannelReader.image(of: node, context: context)
            } else {
                ChannelReader.take(element, into: &draft, context: context)
            }
        }
        guard walked, let stop = pass.child(of: container), ItemReader.isItem(context.element(XMLNode(handle: stop))) else { return }
        var itemDraft = draftOfItem(XMLNode(handle: stop))
        consumeItem(XMLNode(handle: stop), into: &itemDraft, pass)
        openItem = (stop, itemDraft)
    }

    /// Calls `body` with each complete child of `container`, then frees it: the children before
    /// the open path's, and not a last child still being parsed (false when it stopped there).
    private func consumeChildren(of container: XMLNode, _ pass: Pass, _ body: (XMLNode) -> Void) -> Bool {
        let stop = pass.child(of: container)
        let keepLast = pass.keepsLastChild(of: container)
        var child = container.firstChild
        while let node = child, node.handle != stop {
            child = node.nextSibling
            if keepLast && child == nil { return false }
            body(node)
            node.free()
        }
        return true
    }

    /// The draft of `item`: the open item's, when it is that one, else a new one.
    private func draftOfItem(_ item: XMLNode) -> ItemDraft {
        defer { openItem = nil }
        if let openItem, openItem.handle == item.handle { return openItem.draft }
        return ItemReader.begin(item)
    }

    /// Takes and frees the complete children of an item.
    private func consumeItem(_ item: XMLNode, into itemDraft: inout ItemDraft, _ pass: Pass) {
        _ = consumeChildren(of: item, pass) { node in
            if node.isElement { ItemReader.take(context.element(node), into: &itemDraft, context: context) }
        }
    }

    private func add(_ item: FeedItem?) {
        guard let item else { return }
        if !seen.insert(item.id).inserted { duplicates += 1 }
        items.append(item)
    }

    /// The feed, once the whole document is parsed.
    func finish(root: XMLNode, kind: Feed.Kind) -> Feed {
        readComplete(root: root, open: nil, parsing: false)
        if duplicates > 0 { context.warnings.append("\(duplicates) item(s) have the identity of an earlier item") }
        if context.budget.exhausted { context.warnings.append("entity expansion stopped at its limit: some text is missing") }
        return draft.finish(kind: kind, items: items, warnings: context.warnings)
    }
}
