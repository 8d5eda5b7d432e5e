internal import CCurl

/// A libcurl result code with libcurl's own message.
struct CurlError: Error, Sendable, Equatable {
    let code: Int
    /// The detail libcurl wrote into the error buffer, or `curl_easy_strerror`.
    let message: String

    static let ok = 0
    static let unsupportedProtocol = Int(CURLE_UNSUPPORTED_PROTOCOL.rawValue)
    static let malformedURL = Int(CURLE_URL_MALFORMAT.rawValue)
    static let couldNotResolveHost = Int(CURLE_COULDNT_RESOLVE_HOST.rawValue)
    static let couldNotConnect = Int(CURLE_COULDNT_CONNECT.rawValue)
    static let partialFile = Int(CURLE_PARTIAL_FILE.rawValue)
    static let writeError = Int(CURLE_WRITE_ERROR.rawValue)
    static let timedOut = Int(CURLE_OPERATION_TIMEDOUT.rawValue)
    static let rangeError = Int(CURLE_RANGE_ERROR.rawValue)
    static let sslConnect = Int(CURLE_SSL_CONNECT_ERROR.rawValue)
    static let tooManyRedirects = Int(CURLE_TOO_MANY_REDIRECTS.rawValue)
    static let gotNothing = Int(CURLE_GOT_NOTHING.rawValue)
    static let sendError = Int(CURLE_SEND_ERROR.rawValue)
    static let receiveError = Int(CURLE_RECV_ERROR.rawValue)
    static let peerFailedVerification = Int(CURLE_PEER_FAILED_VERIFICATION.rawValue)
    static let fileCouldNotRead = Int(CURLE_FILE_COULDNT_READ_FILE.rawValue)
    static let http2 = Int(CURLE_HTTP2.rawValue)
    static let http2Stream = Int(CURLE_HTTP2_STREAM.rawValue)

    init(code: Int, detail: String?) {
        self.code = code
        if let detail, !detail.isEmpty {
            message = detail
        } else {
            message = String(cString: curl_easy_strerror(CURLcode(UInt32(code))))
        }
    }

    /// A dropped or stalled connection: worth asking again from the next missing byte.
    var isTransient: Bool {
        [Self.partialFile, Self.gotNothing, Self.sendError, Self.receiveError,
         Self.timedOut, Self.http2, Self.http2Stream].contains(code)
    }
}
