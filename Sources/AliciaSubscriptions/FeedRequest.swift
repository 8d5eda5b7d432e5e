/// One feed to fetch, with the validators its last answer carried (a conditional request).
package struct FeedRequest: Sendable, Equatable {
    package var url: String
    package var etag: String?
    package var lastModified: String?

    package init(url: String, etag: String? = nil, lastModified: String? = nil) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The host part of `url` (lower-cased), what the per-host limit counts.
    var host: String {
        var rest = Substring(url)
        if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") { rest = rest[rest.index(colon, offsetBy: 3)...] }
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        return rest[..<end].lowercased()
    }
}

/// What fetching a feed came to.
package enum FeedResponse: Sendable, Equatable {
    /// A body (a 200), with what the next request sends back and where it ended when every redirect
    /// on the way was permanent (301, 308: the subscription moves there).
    case document(FeedBody)
    /// A 304: nothing changed since the validators were given. `movedTo` as for a document.
    case notModified(movedTo: String?)
    /// Why not, in a few words (`HTTP 404`, `could not connect: …`), and when the server asked to
    /// be tried again (`Retry-After` on a 429 or 503, as UNIX seconds).
    case failed(String, retryAt: Int64?)
}

/// A feed's body as fetched.
package struct FeedBody: Sendable, Equatable {
    package var bytes: [UInt8]
    package var contentType: String?
    package var etag: String?
    package var lastModified: String?
    package var movedTo: String?
}
