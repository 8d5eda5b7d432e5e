internal import CCurl

/// A libcurl result code with libcurl's own message.
package struct CurlError: Error, Sendable, Equatable {
    package let code: Int
    /// The detail libcurl wrote into the error buffer, or `curl_easy_strerror`.
    package let message: String

    package static let ok = 0
    package static let unsupportedProtocol = Int(CURLE_UNSUPPORTED_PROTOCOL.rawValue)
    package static let malformedURL = Int(CURLE_URL_MALFORMAT.rawValue)
    package static let couldNotResolveHost = Int(CURLE_COULDNT_RESOLVE_HOST.rawValue)
    package static let couldNotConnect = Int(CURLE_COULDNT_CONNECT.rawValue)
    package static let partialFile = Int(CURLE_PARTIAL_FILE.rawValue)
    package static let writeError = Int(CURLE_WRITE_ERROR.rawValue)
    package static let timedOut = Int(CURLE_OPERATION_TIMEDOUT.rawValue)
    package static let rangeError = Int(CURLE_RANGE_ERROR.rawValue)
    package static let sslConnect = Int(CURLE_SSL_CONNECT_ERROR.rawValue)
    package static let tooManyRedirects = Int(CURLE_TOO_MANY_REDIRECTS.rawValue)
    package static let gotNothing = Int(CURLE_GOT_NOTHING.rawValue)
    package static let sendError = Int(CURLE_SEND_ERROR.rawValue)
    package static let receiveError = Int(CURLE_RECV_ERROR.rawValue)
    package static let peerFailedVerification = Int(CURLE_PEER_FAILED_VERIFICATION.rawValue)
    package static let fileCouldNotRead = Int(CURLE_FILE_COULDNT_READ_FILE.rawValue)
    package static let http2 = Int(CURLE_HTTP2.rawValue)
    package static let http2Stream = Int(CURLE_HTTP2_STREAM.rawValue)
    package static let abortedByCallback = Int(CURLE_ABORTED_BY_CALLBACK.rawValue)

    package init(code: Int, detail: String?) {
        self.code = code
        let said = detail.flatMap { $0.isEmpty ? nil : $0 } ?? String(cString: alicia_curl_easy_strerror(CURLcode(UInt32(code))))
        // Every command says the same fix for a certificate it cannot trust.
        message = code == Self.peerFailedVerification ? said + " (" + Self.trustAdvice + ")" : said
    }

    /// How to trust a private CA, in every command's words.
    package static let trustAdvice = "to trust a private CA: --cacert FILE, ca_file in the config file, or SSL_CERT_FILE"


    /// The server cannot be reached now (refused, not found, unreachable) or the connection broke:
    /// what a player retries with patience, since laptops sleep and Wi-Fi comes back.
    package var isOutage: Bool {
        isTransient || [Self.couldNotConnect, Self.couldNotResolveHost].contains(code)
    }

    /// A dropped or stalled connection: worth asking again from the next missing byte.
    package var isTransient: Bool {
        [Self.partialFile, Self.gotNothing, Self.sendError, Self.receiveError,
         Self.timedOut, Self.http2, Self.http2Stream].contains(code)
    }
}
