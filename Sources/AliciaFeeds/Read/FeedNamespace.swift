/// The vocabularies a feed's elements come from, matched by namespace URI whatever prefix the
/// feed binds it to (as AntennaPod and feedparser do): `<itunes:duration>`, `<i:duration>` and
/// `<duration xmlns="http://www.itunes.com/dtds/podcast-1.0.dtd">` are the same element. URIs are
/// compared case-insensitively with `http`/`https`, `www.` and a trailing `/` or `#` ignored,
/// which covers the variant spellings feeds use (`https://www.itunes.com/DTDs/Podcast-1.0.dtd`).
enum FeedNamespace: Equatable {
    /// No namespace: RSS 0.9x/2.0 and OPML elements.
    case none
    /// RSS 1.0 and 0.90's namespaces, and the ones a few RSS 2.0 feeds put their elements in.
    case rss
    case rdf
    case atom
    case itunes
    case podcast
    case content
    case dublinCore
    case media
    case syndication
    case googlePlay
    case xhtml
    case other

    /// Known URIs, normalised (`normalised(_:)`).
    static let known: [String: FeedNamespace] = [
        "purl.org/rss/1.0": .rss,
        "my.netscape.com/rdf/simple/0.9": .rss,
        "backend.userland.com/rss2": .rss,
        "blogs.law.harvard.edu/tech/rss": .rss,
        "w3.org/1999/02/22-rdf-syntax-ns": .rdf,
        "w3.org/2005/atom": .atom,
        "purl.org/atom/ns": .atom,
        "itunes.com/dtds/podcast-1.0.dtd": .itunes,
        "podcastindex.org/namespace/1.0": .podcast,
        "github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md": .podcast,
        "purl.org/rss/1.0/modules/content": .content,
        "purl.org/dc/elements/1.1": .dublinCore,
        "purl.org/dc/terms": .dublinCore,
        "search.yahoo.com/mrss": .media,
        "video.search.yahoo.com/mrss": .media,
        "tools.search.yahoo.com/mrss": .media,
        "purl.org/rss/1.0/modules/syndication": .syndication,
        "google.com/schemas/play-podcasts/1.0": .googlePlay,
        "w3.org/1999/xhtml": .xhtml,
    ]

    /// The prefixes feeds use without declaring them (libxml2 then keeps `prefix:name` as the
    /// name): taken at their word, as feedparser does.
    static let undeclaredPrefixes: [String: FeedNamespace] = [
        "itunes": .itunes, "podcast": .podcast, "content": .content, "dc": .dublinCore, "dcterms": .dublinCore,
        "media": .media, "atom": .atom, "sy": .syndication, "googleplay": .googlePlay, "rdf": .rdf,
    ]

    init(uri: String) {
        self = Self.known[Self.normalised(uri)] ?? .other
    }

    /// Lower-cased, without the scheme, `www.`, and trailing `/` or `#`.
    static func normalised(_ uri: String) -> String {
        var text = Substring(uri.trimmingSpaces.lowercased())
        for scheme in ["http://", "https://"] where text.hasPrefix(scheme) {
            text = text.dropFirst(scheme.count)
        }
        if text.hasPrefix("www.") { text = text.dropFirst(4) }
        while let last = text.last, last == "/" || last == "#" { text = text.dropLast() }
        return String(text)
    }
}
