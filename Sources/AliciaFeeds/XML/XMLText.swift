#if canImport(Glibc)
import Glibc
#endif

/// The text of XML elements, gathered by walking the tree itself, iteratively and within bounds.
/// Not libxml2's `xmlNodeGetContent`: without entity substitution (never on, see `XMLDocument`)
/// a reference to a declared entity stays a node, and that function would expand it, and the
/// references inside it, recursively, which is all a billion-laughs document needs. Here each
/// expansion is paid for from the read's `budget`, and no walk recurses.
enum XMLText {
    /// What one field may hold; the rest is cut off (libxml2 refuses text nodes over 10 MB anyway).
    static let fieldLimit = 4 << 20

    /// The expansions of declared entities one read may make, and how much text they may add:
    /// legitimate feeds declare a handful of short ones.
    struct Budget {
        var expansions = 10_000
        var bytes = 1 << 20
        var exhausted = false

        /// One more expansion, if the budget still allows one.
        mutating func spend() -> Bool {
            guard expansions > 0, bytes > 0 else {
                exhausted = true
                return false
            }
            expansions -= 1
            return true
        }
    }

    /// All character data under `node`, in document order.
    static func text(of node: XMLNode, budget: inout Budget) -> String {
        text(from: node.firstChild, budget: &budget)
    }

    /// The character data of `first`, its following siblings and everything under them. Text met
    /// inside an entity's replacement is paid for from the budget's bytes.
    static func text(from first: XMLNode?, budget: inout Budget) -> String {
        var out: [UInt8] = []
        // Where to go on once a subtree is done, and whether that leaves an entity's replacement.
        var pending: [(next: XMLNode?, leavesEntity: Bool)] = []
        var current = first
        var insideEntities = 0
        while out.count < fieldLimit {
            guard let visiting = current else {
                guard let (next, leavesEntity) = pending.popLast() else { break }
                if leavesEntity { insideEntities -= 1 }
                current = next
                continue
            }
            current = visiting.nextSibling
            switch visiting.kind {
            case .text:
                guard let characters = visiting.characters else { continue }
                let count = min(strlen(characters), fieldLimit - out.count)
                out.append(contentsOf: UnsafeRawBufferPointer(start: characters, count: count))
                if insideEntities > 0 { budget.bytes -= count }
            case .element:
                guard let child = visiting.firstChild else { continue }
                pending.append((current, false))
                current = child
            case .entityReference:
                guard let content = visiting.entityContent, budget.spend() else { continue }
                pending.append((current, true))
                insideEntities += 1
                current = content
            case .other:
                continue
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An element's content as HTML. When it holds only text, that text (an RSS description is
    /// HTML written as escaped text or CDATA); when it holds elements too (a description whose
    /// HTML was not escaped, Atom's XHTML), those are written back out as tags, with the text
    /// between them escaped.
    static func markup(of node: XMLNode, budget: inout Budget) -> String {
        guard node.hasElementChildren else { return text(of: node, budget: &budget) }
        var out: [UInt8] = []
        // Each entry: where to go on once a subtree is done, and the tag to close first.
        var pending: [(next: XMLNode?, close: String?)] = []
        var current = node.firstChild
        while out.count < fieldLimit {
            guard let visiting = current else {
                guard let (next, close) = pending.popLast() else { break }
                if let close { out += Array("</\(close)>".utf8) }
                current = next
                continue
            }
            current = visiting.nextSibling
            switch visiting.kind {
            case .text:
                if let characters = visiting.characters { appendEscaped(String(cString: characters), to: &out) }
            case .element:
                let name = visiting.lowercasedName.name
                out += Array("<\(name)".utf8)
                // Show notes' tags carry a handful of attributes; a hostile one is cut at 64.
                for (attribute, value) in visiting.attributes(limit: 64) where !attribute.isEmpty {
                    out += Array(" \(attribute)=\"".utf8)
                    appendEscaped(value, to: &out)
                    out.append(UInt8(ascii: "\""))
                }
                out.append(UInt8(ascii: ">"))
                if voidElements.contains(name) { continue }
                pending.append((current, name))
                current = visiting.firstChild
            case .entityReference:
                guard let content = visiting.entityContent, budget.spend() else { continue }
                let text = text(from: content, budget: &budget)
                budget.bytes -= text.utf8.count
                appendEscaped(text, to: &out)
            case .other:
                continue
            }
        }
        return String(decoding: out.prefix(fieldLimit), as: UTF8.self)
    }

    /// HTML elements that have no end tag.
    static let voidElements: Set<String> = ["br", "hr", "img", "input", "meta", "link", "source", "track", "wbr", "area", "col", "embed", "param", "base"]

    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\""): out += Array("&quot;".utf8)
            default: out.append(byte)
            }
        }
    }
}
