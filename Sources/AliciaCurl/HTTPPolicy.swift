/// How every libcurl handle of the program talks HTTP: which protocols it may use and follow, how
/// many redirects, how long to wait for a connection and for a stalled body, which CAs it trusts and
/// how it names itself. One value, applied by `CurlEasy.apply(_:)` in the audio fetcher, the
/// backend client and the downloader, so that the three cannot drift apart (they once set the same
/// ten options three times, with three different stall limits).
///
/// Each user starts from `HTTPPolicy()` and changes only what is its own: the fetcher and the
/// downloader also read `file://` and pin HTTP/1.1 (a paused HTTP/1.1 transfer is real TCP
/// back-pressure; HTTP/2 keeps buffering inside libcurl), and each sets its own stall limit.
package struct HTTPPolicy: Sendable, Equatable {
    /// Schemes a request may use (`CURLOPT_PROTOCOLS_STR`).
    package var allowsFiles = false
    /// Redirects followed at most (libcurl 7.88 follows any number by default; 8.3 stops at 30).
    /// Redirects may only go to http and https, never to `file://` or anything else.
    package var maximumRedirects = 10
    /// Milliseconds to wait for a connection.
    package var connectTimeoutMilliseconds = 10_000
    /// A body slower than `stallBytesPerSecond` for `stallSeconds` is dropped (libcurl's low-speed
    /// limit; paused transfers are exempt). Never a cap on the total time: an episode may take an hour.
    package var stallBytesPerSecond = 1
    package var stallSeconds = 30
    /// TCP keep-alive probes after this many idle seconds, then every `keepAliveInterval`: a
    /// long-paused connection is found dead before it is used again.
    package var keepAliveIdle = 30
    package var keepAliveInterval = 15
    /// HTTP/1.1 only.
    package var http11Only = false
    /// A CA bundle to trust for HTTPS instead of the system's; nil: `CurlEasy.caFile` (`--cacert`),
    /// else the system's. Certificate checks are never turned off.
    package var caFile: String?
    /// libcurl sends none by default; some CDNs refuse requests without one.
    package var userAgent = "alicia-player"

    package init() {}

    /// `CURLOPT_PROTOCOLS_STR`.
    var protocols: String { allowsFiles ? "http,https,file" : "http,https" }
    /// `CURLOPT_REDIR_PROTOCOLS_STR`.
    static let redirectProtocols = "http,https"
}
