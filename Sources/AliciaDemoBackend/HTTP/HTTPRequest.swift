/// One request as the daemon received it, body included: what the service sees, free of C types.
struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, `POST`, … as the client sent it.
    var method: String
    /// The path, percent-decoded, without the query.
    var path: String
    /// The request target as sent (path and query, still encoded), for the request log.
    var target: String
    /// Header values by lowercased name; a repeated header keeps its first value.
    var headers: [String: String]
    /// Query items, percent-decoded; a repeated name keeps its first value, a name without `=` has "".
    var query: [String: String]
    /// The body, up to the daemon's limit.
    var body: [UInt8]
    /// The body was longer than the daemon's limit and `body` holds only its start.
    var bodyTruncated: Bool

    /// The value of the header `name` (any case).
    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    var isHead: Bool { method == "HEAD" }
}
