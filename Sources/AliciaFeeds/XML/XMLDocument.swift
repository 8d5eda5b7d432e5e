internal import CXML2

/// A parsed document: the owner of libxml2's tree, which it frees when it goes, and of what the
/// parse recovered from. Its nodes (`XMLNode`) are only valid while it lives: a read keeps it for
/// the whole read, and no node leaves the read.
final class XMLDocument {
    private let handle: OpaquePointer

    /// How feeds are parsed: in recovery mode (a mistake costs the element, not the feed); never
    /// on the network; quietly (errors are counted, not printed); without the white space between
    /// elements (half of a feed's nodes, and memory, are that); CDATA as text; and in the UTF-8
    /// the bytes have been turned into, whatever the declaration says. Never XML_PARSE_NOENT
    /// (entity substitution: external entities would be read, and a billion laughs expanded),
    /// XML_PARSE_DTDLOAD or XML_PARSE_HUGE (libxml2's size and depth limits stay).
    static let feedOptions = Int32(ALICIA_XML_RECOVER | ALICIA_XML_NONET | ALICIA_XML_NOERROR | ALICIA_XML_NOWARNING
        | ALICIA_XML_NOBLANKS | ALICIA_XML_NOCDATA | ALICIA_XML_IGNORE_ENC)

    private init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        alicia_xml_free_doc(handle)
    }

    /// Why libxml2 cannot be used (it is loaded here the first time); nil when it can. Wraps
    /// `dlopen` and `xmlInitParser`.
    static func loadLibrary() -> String? {
        alicia_xml_load().map { String(cString: $0) }
    }

    /// `utf8` repaired (`MarkupRepair`) on its way to libxml2's push parser, chunk by chunk. After
    /// each chunk `afterChunk` sees the root so far and the element still being built, and may
    /// read and free what is complete (see `alicia_xml_parser_open_element`), so that a feed's
    /// items need not all be in memory as a tree at once. The document is nil when libxml2 built
    /// no tree at all. Wraps `xmlCreatePushParserCtxt`, `xmlCtxtUseOptions` and `xmlParseChunk`.
    static func parse(utf8: [UInt8], url: String, afterChunk: (_ root: XMLNode, _ open: XMLNode?) -> Void)
        -> (document: XMLDocument?, repairs: MarkupRepair.Counts) {
        guard let parser = alicia_xml_parser_new(url, "UTF-8", feedOptions) else { return (nil, MarkupRepair.Counts()) }
        var repair = MarkupRepair()
        utf8.withUnsafeBufferPointer { input in
            repair.run(input) { chunk in
                guard let base = chunk.baseAddress else { return }
                UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: chunk.count) {
                    _ = alicia_xml_parser_push(parser, $0, Int32(chunk.count), 0)
                }
                if let root = alicia_xml_parser_root(parser) {
                    afterChunk(XMLNode(handle: root), alicia_xml_parser_open_element(parser).map(XMLNode.init))
                }
            }
        }
        _ = alicia_xml_parser_push(parser, nil, 0, 1)
        return (alicia_xml_parser_finish(parser).map(XMLDocument.init), repair.counts)
    }

    /// An HTML page, by libxml2's HTML parser (which reads a `<meta charset>` itself when
    /// `encoding` is nil). Wraps `htmlCtxtReadMemory`.
    static func parseHTML(_ bytes: [UInt8], url: String, encoding: String?) -> XMLDocument? {
        let handle = bytes.withUnsafeBufferPointer { buffer in
            UnsafeRawPointer(buffer.baseAddress).map { base in
                alicia_html_read_memory(base.assumingMemoryBound(to: CChar.self), Int32(buffer.count), url, encoding)
            } ?? nil
        }
        return handle.map(XMLDocument.init)
    }

    var root: XMLNode? {
        alicia_xml_root(handle).map(XMLNode.init)
    }

    /// How many errors libxml2 recovered from.
    var errorCount: Int {
        Int(alicia_xml_error_count(handle))
    }

    /// The first of them, with its line.
    var firstError: String? {
        alicia_xml_first_error(handle).map { String(cString: $0) }
    }
}
