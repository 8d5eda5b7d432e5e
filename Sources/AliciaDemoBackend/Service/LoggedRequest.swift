/// One request as the demo backend answered it.
public struct LoggedRequest: Sendable, Equatable, CustomStringConvertible {
    public var method: String
    /// The request target, query included, with any `token` value replaced by `***`.
    public var path: String
    public var status: Int
    /// Body bytes handed to the connection (0 for HEAD); for a streamed body, so far.
    public var bodyBytes: Int
    /// The `Range` header as sent, if any.
    public var range: String?
    /// A chat message's `request_id` (Alicia 2.0), as sent.
    public var requestID: String?

    public init(method: String, path: String, status: Int, bodyBytes: Int, range: String?, requestID: String? = nil) {
        self.method = method
        self.path = path
        self.status = status
        self.bodyBytes = bodyBytes
        self.range = range
        self.requestID = requestID
    }

    public var description: String {
        "\(method) \(path) → \(status), \(bodyBytes) bytes" + (range.map { " (Range: \($0))" } ?? "")
    }
}
