internal import AliciaCurl

/// Where a media path can be fetched from, in order (alicia-api.md, "Alicia 2.0": "a media path may
/// be an absolute http(s) URL that already carries a `?token=`", with the phone's host). Hand the
/// URLs to the player; show them only through `BackendConfiguration.redacted(_:)`.
public struct MediaURLs: Sendable, Equatable {
    /// The URL as given when it is absolute and carries its token; else the path on our base URL
    /// with our token (as `mediaURL(for:)`).
    public var primary: String
    /// For an absolute URL elsewhere (another host, or another token): its path and query on our
    /// base URL, every `token` it carried taken out and ours put in. Nil when it would be `primary`.
    public var fallback: String?

    /// `primary`, then `fallback` if there is one.
    public var all: [String] { [primary] + (fallback.map { [$0] } ?? []) }

    static func isAbsolute(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The URL's query has a `token` item (the key in any case, percent-encoded or not).
    static func carriesToken(_ url: String) -> Bool {
        queryItems(of: url).items.contains(where: isTokenItem)
    }

    /// `path` and query of an absolute URL (from the first `/` after the authority) without its
    /// `token` items, the fragment kept.
    static func pathWithoutToken(_ url: String) -> String {
        let (base, items, fragment) = queryItems(of: url)
        let afterScheme = base.firstRange(of: "://").map { base[$0.upperBound...] } ?? base[...]
        let path = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? "/"
        let kept = items.filter { !isTokenItem($0) }
        return path + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")) + fragment
    }

    /// The URL before its query, the query's items, and the fragment (with its `#`).
    private static func queryItems(of url: String) -> (base: String, items: [String], fragment: String) {
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let beforeFragment = url[..<fragmentStart]
        guard let question = beforeFragment.firstIndex(of: "?") else { return (String(beforeFragment), [], String(url[fragmentStart...])) }
        let items = beforeFragment[beforeFragment.index(after: question)...].split(separator: "&").map(String.init)
        return (String(beforeFragment[..<question]), items, String(url[fragmentStart...]))
    }

    private static func isTokenItem(_ item: String) -> Bool {
        let key = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return PercentDecoding.decoded(key.utf8).lowercased() == "token"
    }
}

extension BackendConfiguration {
    /// Where to fetch a media path from: as given first when it is an absolute URL with its own
    /// token, then on our base URL with our token.
    public func mediaURLs(for path: String) -> MediaURLs {
        let primary = mediaURL(for: path)
        guard MediaURLs.isAbsolute(path) else { return MediaURLs(primary: primary, fallback: nil) }
        let fallback = mediaURL(for: MediaURLs.pathWithoutToken(path))
        return MediaURLs(primary: primary, fallback: fallback == primary ? nil : fallback)
    }

    /// `url` as it may be shown: every `token` value (ours, another host's; in the query or the
    /// fragment, percent-encoded or not) and any userinfo password as `***`. The same rule as the
    /// engine's `RedactedURL`.
    public static func redacted(_ url: String) -> String {
        URLRedaction.redact(url)
    }

    /// `text` (a message that may quote `url`) with the secrets `url` carries replaced by `***`.
    public static func scrubbed(_ text: String, secretsIn url: String) -> String {
        URLRedaction.scrub(text, secretsIn: url)
    }
}
