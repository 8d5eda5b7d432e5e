/// What a fetcher has cost so far.
public struct FetchStatistics: Sendable, Equatable {
    /// Body bytes received from the server, including any skipped.
    public var bytesReceived: Int64 = 0
    /// Requests sent.
    public var requests = 0
    /// Redirects followed: the chain is walked for the first request, then only again when the URL
    /// it ended at fails.
    public var redirects = 0
    /// The server ignored a Range request (answered 200).
    public var rangeIgnored = false

    public init() {}
}
