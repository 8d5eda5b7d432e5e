internal import AliciaCurl

extension RangeFetcher {
    /// What a libcurl error means to a listener of `location`, with the token scrubbed.
    static func problem(_ error: CurlError, at location: MediaLocation) -> PlaybackError {
        let detail = RedactedURL.scrub(error.message, secretsIn: location.url)
        switch error.code {
        case CurlError.couldNotConnect:
            let reason = detail.lowercased().contains("refused") || detail.contains("Couldn't connect")
                ? "connection refused" : detail
            return .cannotConnect(host: hostAndPort(of: location.url), reason: reason)
        case CurlError.couldNotResolveHost:
            return .cannotConnect(host: hostAndPort(of: location.url), reason: "host not found")
        case CurlError.timedOut:
            return .network(url: location.display, reason: "the connection stalled (\(detail))")
        case CurlError.sslConnect:
            return .network(url: location.display, reason: "secure connection failed: \(detail)")
        case CurlError.peerFailedVerification:
            return .network(url: location.display, reason: "secure connection failed: \(detail)")
        case CurlError.tooManyRedirects:
            return .network(url: location.display, reason: "too many redirects")
        case CurlError.unsupportedProtocol, CurlError.malformedURL:
            return .badLocation("bad link \(location.display): \(detail)")
        default:
            return .network(url: location.display, reason: detail)
        }
    }

    /// `host:port` of the URL, for connection errors.
    private static func hostAndPort(of url: String) -> String {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return url }
        let scheme = url[..<colon].lowercased()
        var authority = url[url.index(colon, offsetBy: 3)...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let hasPort = authority.hasPrefix("[")
            ? authority.contains("]:")
            : authority.contains(":")
        return hasPort ? String(authority) : "\(authority):\(scheme == "https" ? 443 : 80)"
    }
}
