/// What a feed URL answered with: a feed, a subscription list, or a web page that names its feeds.
/// `read` is the one entry point; it never fails for a problem a reader can work around (those
/// are the feed's warnings), only for a document that is not one of these at all.
///
/// libxml2 is loaded the first time a document is read (never before: see CXML2). Reads may run
/// on several threads at once; each has its own parse and tree.
public enum FeedDocument: Sendable, Equatable {
    case feed(Feed)
    case opml([OPMLOutline])
    /// An HTML page: the absolute http(s) URLs of the feeds it names, in its order.
    case page(feeds: [String])

    /// 64 MiB: four times the largest podcast feeds seen (a daily show's full history, with show
    /// notes); more is not a feed.
    public static let defaultLimit = 64 << 20

    /// Reads `bytes`, as fetched from `url` (the base of relative URLs; a local path is fine, see
    /// `ReadContext.fetchableURL` for what that allows), with the HTTP `Content-Type` when there
    /// was one (its charset counts, after the document's own), at `now` (UNIX seconds: later
    /// dates are not trusted). Documents larger than `limit` bytes are refused unread.
    public static func read(_ bytes: [UInt8], url: String, contentType: String? = nil, now: Int64,
                            limit: Int = defaultLimit) -> Result<FeedDocument, FeedError> {
        guard bytes.count <= limit else {
            return .failure(FeedError(.tooLarge, "the document is \(mebibytes(bytes.count)), more than the \(mebibytes(limit)) a feed may be"))
        }
        guard bytes.contains(where: { !Charset.isSpace($0) && $0 != 0 }) else {
            return .failure(FeedError(.empty, "the document is empty"))
        }
        if let why = XMLDocument.loadLibrary() {
            return .failure(FeedError(.libraryUnavailable, "libxml2 could not be loaded: \(why)"))
        }
        let (charset, bomLength, label) = Charset.detect(bytes, contentType: contentType)
        var warnings: [String] = []
        let utf8: [UInt8]
        if let converted = Transcoder.utf8(bytes, from: charset, start: bomLength) {
            utf8 = converted
        } else {
            warnings.append("the charset \"\(label ?? "")\" is not known: read as UTF-8")
            utf8 = Array(bytes[bomLength...])
        }
        if Sniffer.looksLikeHTML(utf8, contentType: contentType) { return discover(utf8, url: url) }
        return readXML(utf8, url: url, contentType: contentType, now: now, warnings: warnings)
    }

    private static func readXML(_ utf8: [UInt8], url: String, contentType: String?, now: Int64,
                                warnings: [String]) -> Result<FeedDocument, FeedError> {
        let context = ReadContext(documentURL: url, now: now)
        let reader = FeedReader(context: context)
        let (parsed, repairs) = XMLDocument.parse(utf8: utf8, url: url) { root, open in
            reader.readComplete(root: root, open: open)
        }
        guard let document = parsed, let root = document.root else {
            if Sniffer.isHTMLType(contentType) { return discover(utf8, url: url) }
            let why = parsed?.firstError.map { ": \($0)" } ?? ""
            return .failure(FeedError(.unparsable, "the document cannot be parsed as XML\(why)"))
        }
        return withExtendedLifetime(document) {
            context.warnings = warnings + Sniffer.warnings(errors: document.errorCount, first: document.firstError, repairs: repairs)
                + context.warnings
            let rootElement = context.element(root)
            if let kind = FeedReader.kind(of: rootElement) { return .success(.feed(reader.finish(root: root, kind: kind))) }
            switch rootElement.name {
            case "opml": return .success(.opml(OPMLReader.outlines(root: root, context: context)))
            case "html": return discover(utf8, url: url)
            default:
                let name = URLText.shortened(String(cString: root.qualifiedName))
                return .failure(FeedError(.notAFeed, "not a feed: the document is XML whose root element is <\(name)>"))
            }
        }
    }

    /// The feeds an HTML page names; not a feed when it names none.
    private static func discover(_ utf8: [UInt8], url: String) -> Result<FeedDocument, FeedError> {
        guard let document = XMLDocument.parseHTML(utf8, url: url, encoding: "UTF-8"), let root = document.root else {
            return .failure(FeedError(.unparsable, "the document is neither a feed nor a web page that can be read"))
        }
        let feeds = withExtendedLifetime(document) { FeedDiscovery.feeds(root: root, pageURL: url) }
        guard !feeds.isEmpty else { return .failure(FeedError(.notAFeed, "not a feed: a web page that names no feed")) }
        return .success(.page(feeds: feeds))
    }

    /// `12.5 MiB` (tenths rounded up, so that a size over a limit never reads as the limit), or
    /// `100 bytes` under one.
    static func mebibytes(_ bytes: Int) -> String {
        if bytes < 1 << 20 { return "\(bytes) bytes" }
        let tenths = (bytes * 10 + (1 << 20) - 1) / (1 << 20)
        return tenths % 10 == 0 ? "\(tenths / 10) MiB" : "\(tenths / 10).\(tenths % 10) MiB"
    }
}
