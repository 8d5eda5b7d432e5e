#if canImport(Glibc)
import Glibc
#endif

/// What the readers of one document share: the URL it was read from (the base of its relative
/// URLs), the time of the read (dates in the future are not trusted), the entity budget, the
/// feed's warnings, and the namespaces already looked up. One per read, on one thread.
final class ReadContext {
    let documentURL: String
    let now: Int64
    var budget = XMLText.Budget()
    var warnings: [String] = []
    /// Namespace URIs already matched, as written (a feed uses a handful): matching one again is a
    /// `strcmp`, not a normalisation. By text, not by address: the nodes that declared them may be
    /// freed while the read goes on (`FeedReader`), and their memory reused.
    private var namespaces: [(uri: String, namespace: FeedNamespace)] = []

    /// Dates later than this many seconds after the read are not trusted: a day covers clocks and
    /// zones that are off, not a publisher scheduling its items (AntennaPod sorts such items first
    /// for ever).
    static let futureTolerance: Int64 = 86_400

    init(documentURL: String, now: Int64) {
        self.documentURL = documentURL
        self.now = now
    }

    /// An element as the readers match it.
    struct Element {
        let node: XMLNode
        let namespace: FeedNamespace
        /// The local name, lower-cased.
        let name: String
    }

    func element(_ node: XMLNode) -> Element {
        let (name, undeclaredPrefix) = node.lowercasedName
        if let prefix = undeclaredPrefix {
            return Element(node: node, namespace: FeedNamespace.undeclaredPrefixes[prefix] ?? .other, name: name)
        }
        guard let uri = node.namespaceURI else { return Element(node: node, namespace: .none, name: name) }
        if let known = namespaces.first(where: { $0.uri.withCString { strcmp($0, uri) == 0 } }) {
            return Element(node: node, namespace: known.namespace, name: name)
        }
        let text = String(cString: uri)
        let namespace = FeedNamespace(uri: text)
        if namespaces.count < 64 { namespaces.append((text, namespace)) }
        return Element(node: node, namespace: namespace, name: name)
    }

    /// The child elements of `node`, ready to match.
    func children(of node: XMLNode) -> [Element] {
        node.elements.map(element)
    }

    /// An element's text, trimmed (its tags, if any, are gone; references are decoded).
    func text(_ node: XMLNode) -> String {
        XMLText.text(of: node, budget: &budget).trimmingSpaces
    }

    /// An element's text, nil when empty.
    func nonEmptyText(_ node: XMLNode) -> String? {
        let text = text(node)
        return text.isEmpty ? nil : text
    }

    /// An RSS text element (HTML, escaped or not), or an Atom text construct by its `type`.
    func markup(_ node: XMLNode, atom: Bool = false) -> Markup {
        let type = atom ? (node.attribute("type") ?? node.attribute("mode") ?? "text").trimmingSpaces.lowercased() : "html"
        switch type {
        case "xhtml", "application/xhtml+xml", "xml":
            // Atom's XHTML sits in one `div` that is not part of the content.
            let children = Array(node.elements)
            let content = children.count == 1 && children[0].lowercasedName.name == "div" ? children[0] : node
            return Markup(text: XMLText.markup(of: content, budget: &budget), isHTML: true)
        case "html", "text/html", "escaped":
            return Markup(text: XMLText.markup(of: node, budget: &budget), isHTML: true)
        default:
            return Markup(text: XMLText.text(of: node, budget: &budget), isHTML: false)
        }
    }

    // MARK: URLs

    /// `raw` trimmed and resolved against the `xml:base`s around `node` and the document's URL;
    /// nil when empty or not a URL. Any scheme.
    func resolve(_ raw: String?, at node: XMLNode) -> String? {
        guard let raw else { return nil }
        let trimmed = URLText.escapingUnsafe(raw.trimmingSpaces)
        guard !trimmed.isEmpty else { return nil }
        if URLText.isHTTP(trimmed) { return trimmed }
        guard let base = node.base(documentURL: documentURL) else { return nil }
        return XMLNode.buildURI(trimmed, base: base)
    }

    /// A URL to show or follow (a link, an image, a funding page): resolved, and only when http or
    /// https (a feed has no business pointing a player at a `file:` or `javascript:` URL).
    func webURL(_ raw: String?, at node: XMLNode) -> String? {
        resolve(raw, at: node).flatMap { URLText.isHTTP($0) ? $0 : nil }
    }

    /// A URL the player will fetch (an enclosure, chapters, a transcript): as `webURL`, and when
    /// refused, said in `warnings`. Only http and https are kept whether the feed came from the
    /// network or from a local file: a feed never makes the player open a local path (`file:///`,
    /// `/etc/passwd`, or a relative URL resolved against a local feed's path).
    func fetchableURL(_ raw: String?, at node: XMLNode, what: String, warnings: inout [String]) -> String? {
        guard let raw, !raw.trimmingSpaces.isEmpty else { return nil }
        guard let resolved = resolve(raw, at: node) else {
            warnings.append("the \(what) URL \"\(URLText.shortened(raw))\" cannot be read: left out")
            return nil
        }
        guard URLText.isHTTP(resolved) else {
            warnings.append("the \(what) URL \"\(URLText.shortened(resolved))\" is not http or https: left out")
            return nil
        }
        return resolved
    }

    // MARK: Dates

    /// A date element's text as UNIX seconds; nil (with a warning) when it cannot be read or lies
    /// more than `futureTolerance` ahead of the read.
    func date(_ node: XMLNode, what: String, warnings: inout [String]) -> Int64? {
        let text = text(node)
        guard !text.isEmpty else { return nil }
        guard let seconds = FeedDate.parse(text) else {
            warnings.append("the \(what) \"\(URLText.shortened(text))\" is not a date that can be read")
            return nil
        }
        guard seconds <= now + Self.futureTolerance else {
            warnings.append("the \(what) \(FeedDate.iso8601(seconds)) is in the future: not trusted")
            return nil
        }
        return seconds
    }
}
