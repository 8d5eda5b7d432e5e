/// Where Alicia's backend is and how to prove who we are.
public struct BackendConfiguration: Sendable, Equatable {
    /// `http(s)://host:port`, without a trailing slash.
    public let baseURL: String
    /// Sent as `Authorization: Bearer` on API calls and as `?token=` on media URLs. Never shown.
    public let token: String?

    public init(baseURL: String, token: String?) throws(BackendError) {
        var base = baseURL.trimmingSpaces()
        let lower = base.lowercased()
        guard (lower.hasPrefix("http://") || lower.hasPrefix("https://")),
              base.split(separator: "/", omittingEmptySubsequences: true).count >= 2 else {
            throw .badBaseURL(base)
        }
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// An API endpoint's URL (no token: API calls send it as a header).
    public func apiURL(_ path: String) -> String {
        baseURL + (path.hasPrefix("/") ? path : "/" + path)
    }

    /// A media path from a reply, joined to the base URL, with `token=` added to its
    /// query (an existing query is kept; the value is percent-encoded). An absolute http(s) URL
    /// that already carries a `token` (Alicia 2.0: an episode added from the phone) is used as
    /// given; `mediaURLs(for:)` adds the fallback on our own base URL.
    public func mediaURL(for fileName: String) -> String {
        var url: String
        if MediaURLs.isAbsolute(fileName) {
            if MediaURLs.carriesToken(fileName) { return fileName }
            url = fileName
        } else {
            url = apiURL(fileName)
        }
        guard let token else { return url }
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let fragment = String(url[fragmentStart...])
        url = String(url[..<fragmentStart])
        let separator = url.contains("?") ? (url.hasSuffix("?") || url.hasSuffix("&") ? "" : "&") : "?"
        return url + separator + "token=" + Self.percentEncodedQueryValue(token) + fragment
    }

    /// Everything but unreserved characters (RFC 3986) percent-encoded.
    static func percentEncodedQueryValue(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `host:port` of the base URL, for connection errors.
    public var hostAndPort: String {
        let afterScheme = baseURL.firstRange(of: "://").map { baseURL[$0.upperBound...] } ?? baseURL[...]
        let authority = afterScheme.prefix { $0 != "/" }
        let host = authority.split(separator: "@").last.map(String.init) ?? String(authority)
        if host.hasPrefix("[") ? host.contains("]:") : host.contains(":") { return host }
        return host + (baseURL.lowercased().hasPrefix("https") ? ":443" : ":80")
    }
}

extension String {
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
