/// Tells an HTML page from an XML document before parsing (a page is parsed by libxml2's HTML
/// parser, which forgives what HTML allows), and words what a parse recovered from as warnings.
enum Sniffer {
    /// Markup that only a feed or a subscription list starts with.
    static let feedMarks = ["<rss", "<feed", "<rdf:rdf", "<rdf", "<opml", "<?xml", "<channel"]
    static let htmlMarks = ["<!doctype html", "<html", "<head", "<body", "<meta", "<title", "<link"]

    /// The first kilobyte says HTML and nothing of a feed, or says nothing and the server says
    /// `text/html`.
    static func looksLikeHTML(_ utf8: [UInt8], contentType: String?) -> Bool {
        let head = String(decoding: utf8.prefix(1024).map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
        if feedMarks.contains(where: head.contains) { return false }
        return htmlMarks.contains(where: head.contains) || isHTMLType(contentType)
    }

    static func isHTMLType(_ contentType: String?) -> Bool {
        let mime = contentType?.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() }
        return mime == "text/html" || mime == "application/xhtml+xml"
    }

    /// The feed's warnings for what libxml2 recovered from and what `MarkupRepair` mended.
    static func warnings(errors: Int, first: String?, repairs: MarkupRepair.Counts) -> [String] {
        var warnings: [String] = []
        if errors > 0 { warnings.append("the XML is not well-formed (\(errors) error(s) recovered from; the first at \((first ?? "?").oneLine))") }
        if repairs.entities > 0 { warnings.append("\(repairs.entities) HTML entity or character reference(s) XML does not define were read as HTML reads them") }
        if repairs.ampersands > 0 { warnings.append("\(repairs.ampersands) '&'(s) that start no reference were read as text") }
        if repairs.lessThans > 0 { warnings.append("\(repairs.lessThans) '<'(s) that start no tag were read as text") }
        if repairs.invalidBytes > 0 { warnings.append("\(repairs.invalidBytes) byte sequence(s) that are not UTF-8 were replaced by U+FFFD") }
        if repairs.controlCharacters > 0 { warnings.append("\(repairs.controlCharacters) control character(s) XML forbids were replaced by spaces") }
        return warnings
    }
}
