#if canImport(Glibc)
import Glibc
#endif
internal import CXML2

/// A node of an `XMLDocument`, valid while the document lives (see there). A value: copying it
/// copies the pointer.
struct XMLNode {
    let handle: OpaquePointer

    enum Kind {
        case element, text, entityReference, other
    }

    var kind: Kind {
        switch alicia_xml_type(handle) {
        case Int32(ALICIA_XML_ELEMENT): .element
        case Int32(ALICIA_XML_TEXT), Int32(ALICIA_XML_CDATA): .text
        case Int32(ALICIA_XML_ENTITY_REF): .entityReference
        default: .other
        }
    }

    var isElement: Bool { alicia_xml_type(handle) == Int32(ALICIA_XML_ELEMENT) }

    /// The name as libxml2 keeps it: the local name, or `prefix:local` when the prefix was never
    /// declared (a common mistake: `itunes:duration` without `xmlns:itunes`).
    var qualifiedName: UnsafePointer<CChar> { alicia_xml_name(handle) }

    /// The namespace URI, nil when none.
    var namespaceURI: UnsafePointer<CChar>? { alicia_xml_namespace(handle) }

    /// The characters of a text node (nil for other kinds).
    var characters: UnsafePointer<CChar>? { alicia_xml_text(handle) }

    var firstChild: XMLNode? { alicia_xml_first_child(handle).map(XMLNode.init) }
    var nextSibling: XMLNode? { alicia_xml_next_sibling(handle).map(XMLNode.init) }
    var parent: XMLNode? { alicia_xml_parent(handle).map(XMLNode.init) }

    /// For a reference to an entity the document declares: the first node of its replacement.
    var entityContent: XMLNode? { alicia_xml_entity_content(handle).map(XMLNode.init) }

    /// The child elements, in order.
    var elements: ElementSequence { ElementSequence(first: firstChild) }

    /// Whether any child is an element.
    var hasElementChildren: Bool {
        var child = firstChild
        while let node = child {
            if node.isElement { return true }
            child = node.nextSibling
        }
        return false
    }

    /// The local name, ASCII-lowercased, and the prefix of an undeclared `prefix:local` name: what
    /// the readers match on (feeds write `pubdate` and `pubDate`, as feedparser forgives).
    var lowercasedName: (name: String, undeclaredPrefix: String?) {
        let raw = UnsafeRawBufferPointer(start: qualifiedName, count: strlen(qualifiedName))
        var colon: Int?
        let lowered = String(unsafeUninitializedCapacity: raw.count) { buffer in
            for (index, byte) in raw.enumerated() {
                if byte == UInt8(ascii: ":") && colon == nil { colon = index }
                buffer[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            }
            return raw.count
        }
        guard let colon, namespaceURI == nil else { return (lowered, nil) }
        let utf8 = lowered.utf8
        let prefix = String(decoding: utf8.prefix(colon), as: UTF8.self)
        return (String(decoding: utf8.dropFirst(colon + 1), as: UTF8.self), prefix)
    }

    /// Unlinks this complete node from its document and frees it: it, and every node under it,
    /// must not be used after. Wraps `xmlUnlinkNode` and `xmlFreeNode`.
    func free() {
        alicia_xml_free_node(handle)
    }

    /// An attribute's literal value (entity references in it left out), nil when it is absent.
    func attribute(_ name: String, ignoringCase: Bool = false) -> String? {
        Self.take(alicia_xml_attribute(handle, name, ignoringCase ? 1 : 0))
    }

    /// An attribute in a namespace (`xml:lang`, `rdf:about`).
    func attribute(namespace: String, _ name: String) -> String? {
        Self.take(alicia_xml_attribute_ns(handle, namespace, name))
    }

    /// The first `limit` attributes, in order: (local name, value). Bounded because each is found
    /// by walking the list from its start.
    func attributes(limit: Int) -> [(name: String, value: String)] {
        var all: [(name: String, value: String)] = []
        while all.count < limit {
            var name: UnsafePointer<CChar>?
            guard let value = Self.take(alicia_xml_attribute_at(handle, Int32(all.count), &name)) else { return all }
            all.append((name.map { String(cString: $0) } ?? "", value))
        }
        return all
    }

    /// The base URI in force here: `documentURL` with every `xml:base` on the way down applied.
    /// Wraps `xmlBuildURI`, once per `xml:base`.
    func base(documentURL: String) -> String? {
        Self.take(alicia_xml_base(handle, documentURL))
    }

    /// `relative` resolved against `base` (RFC 3986); nil when either is not a URI libxml2 can
    /// read. Wraps `xmlBuildURI`.
    static func buildURI(_ relative: String, base: String) -> String? {
        take(alicia_xml_build_uri(relative, base))
    }

    /// A malloc'ed C string as a String, freed.
    private static func take(_ string: UnsafeMutablePointer<CChar>?) -> String? {
        guard let string else { return nil }
        defer { alicia_xml_free_string(string) }
        return String(cString: string)
    }
}

/// The element children of a node.
struct ElementSequence: Sequence, IteratorProtocol {
    private var upcoming: XMLNode?

    init(first: XMLNode?) {
        upcoming = first
    }

    mutating func next() -> XMLNode? {
        while let node = upcoming {
            upcoming = node.nextSibling
            if node.isElement { return node }
        }
        return nil
    }
}
