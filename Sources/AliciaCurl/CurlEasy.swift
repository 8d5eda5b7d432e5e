#if canImport(Glibc)
import Glibc
#endif
internal import CCurl
import AliciaLocks

/// Owns one libcurl easy handle. Used by one thread at a time (the fetch thread).
package final class CurlEasy {
    /// Called with each piece of the response body; return the count consumed,
    /// `CurlEasy.pauseTransfer` to pause, anything else to abort.
    package typealias BodyHandler = (UnsafeRawBufferPointer) -> Int

    let handle: UnsafeMutableRawPointer
    private var onBody: BodyHandler?
    /// Asked about once a second and on every chunk while a transfer runs; true ends it.
    private var shouldAbort: (() -> Bool)?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// libcurl writes the detail of a failure here (`CURLOPT_ERRORBUFFER`).
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    package static let pauseTransfer = Int(alicia_writefunc_pause())

    /// The CA bundle every handle trusts for HTTPS (`--cacert`), set once at start; nil: the
    /// system's (libcurl's default, certificate checks on).
    package static let caFile = Locked<String?>(nil)

    package init() throws(CurlError) {
        try CurlGlobal.load()
        guard let handle = alicia_curl_easy_init() else {
            throw CurlError(code: Int(CURLE_OUT_OF_MEMORY.rawValue), detail: "curl_easy_init failed")
        }
        self.handle = handle
        errorBuffer.initialize(to: 0)
        alicia_easy_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        alicia_easy_setopt_ptr(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque())
        alicia_easy_setopt_write(handle) { data, size, count, user in
            let easy = Unmanaged<CurlEasy>.fromOpaque(user!).takeUnretainedValue()
            let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
            return easy.onBody.map { Int($0(bytes)) }.map { $0 < 0 ? 0 : $0 } ?? bytes.count
        }
    }

    deinit {
        alicia_curl_easy_cleanup(handle)
        if let headerList { alicia_curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    /// Sets what receives the body. Wraps `CURLOPT_WRITEFUNCTION`.
    package func onBody(_ handler: @escaping BodyHandler) { onBody = handler }

    /// Ends a running transfer (with `CURLE_ABORTED_BY_CALLBACK`) once `abort` says so, even one
    /// that receives nothing. Wraps `CURLOPT_XFERINFOFUNCTION`.
    package func abortWhen(_ abort: (() -> Bool)?) {
        shouldAbort = abort
        alicia_easy_setopt_long(handle, CURLOPT_NOPROGRESS, abort == nil ? 1 : 0)
        alicia_easy_setopt_ptr(handle, CURLOPT_XFERINFODATA, Unmanaged.passUnretained(self).toOpaque())
        alicia_easy_setopt_xferinfo(handle) { user, _, _, _, _ in
            let easy = Unmanaged<CurlEasy>.fromOpaque(user!).takeUnretainedValue()
            return easy.shouldAbort?() == true ? 1 : 0
        }
    }

    /// Sets every option `policy` names, and the ones no user of ours ever wants otherwise: no
    /// signals (libcurl's DNS timeouts would use SIGALRM across threads; SIGPIPE is ignored by
    /// `CurlGlobal`) and no `.netrc` (it would send a password to whatever host a link names).
    package func apply(_ policy: HTTPPolicy) {
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_NETRC, Int(CURL_NETRC_IGNORED.rawValue))
        set(CURLOPT_PROTOCOLS_STR, policy.protocols)
        set(CURLOPT_FOLLOWLOCATION, 1)
        set(CURLOPT_MAXREDIRS, policy.maximumRedirects)
        set(CURLOPT_REDIR_PROTOCOLS_STR, HTTPPolicy.redirectProtocols)
        set(CURLOPT_CONNECTTIMEOUT_MS, policy.connectTimeoutMilliseconds)
        set(CURLOPT_LOW_SPEED_LIMIT, policy.stallBytesPerSecond)
        set(CURLOPT_LOW_SPEED_TIME, max(1, policy.stallSeconds))
        set(CURLOPT_TCP_KEEPALIVE, 1)
        set(CURLOPT_TCP_KEEPIDLE, policy.keepAliveIdle)
        set(CURLOPT_TCP_KEEPINTVL, policy.keepAliveInterval)
        set(CURLOPT_HTTP_VERSION, Int(policy.http11Only ? CURL_HTTP_VERSION_1_1 : CURL_HTTP_VERSION_NONE))
        if let caFile = policy.caFile ?? Self.caFile.withLock({ $0 }) { set(CURLOPT_CAINFO, caFile) }
        set(CURLOPT_USERAGENT, policy.userAgent)
    }

    /// The URL of the next request, encoded as pasted URLs are (`URLText.encodedAsPasted`). Wraps
    /// `CURLOPT_URL`.
    package func setURL(_ url: String) { set(CURLOPT_URL, URLText.encodedAsPasted(url)) }

    /// Makes the next request a GET (after a POST on the same handle). Wraps `CURLOPT_HTTPGET`.
    package func setGet() { set(CURLOPT_HTTPGET, 1) }

    /// Asks for the whole resource again (no `Range`). Wraps `CURLOPT_RANGE`.
    package func clearRange() { set(CURLOPT_RANGE, nil as String?) }

    /// At most `bytesPerSecond` (nil: no limit). Wraps `CURLOPT_MAX_RECV_SPEED_LARGE`.
    package func limitReceiveRate(_ bytesPerSecond: Int64?) {
        alicia_easy_setopt_off(handle, CURLOPT_MAX_RECV_SPEED_LARGE, curl_off_t(bytesPerSecond ?? 0))
    }

    /// The size of libcurl's receive buffer (its default is 16 KiB). Wraps `CURLOPT_BUFFERSIZE`.
    package func setReceiveBuffer(bytes: Int) { set(CURLOPT_BUFFERSIZE, bytes) }

    /// Where the last request ended after following its redirects. Wraps `CURLINFO_EFFECTIVE_URL`.
    package var effectiveURL: String? {
        var url: UnsafeMutablePointer<CChar>?
        guard alicia_easy_getinfo_str(handle, CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK, let url else { return nil }
        return String(cString: url)
    }

    /// Whether libcurl follows redirects itself (`apply` turns it on); off, a 3xx is the answer and
    /// `redirectURL` says where it points. Wraps `CURLOPT_FOLLOWLOCATION`.
    package func followRedirects(_ follow: Bool) { set(CURLOPT_FOLLOWLOCATION, follow ? 1 : 0) }

    /// Where the last answer (a 3xx) points, made absolute; nil when it does not. Wraps `CURLINFO_REDIRECT_URL`.
    package var redirectURL: String? {
        var url: UnsafeMutablePointer<CChar>?
        guard alicia_easy_getinfo_str(handle, CURLINFO_REDIRECT_URL, &url) == CURLE_OK, let url else { return nil }
        return String(cString: url)
    }

    /// Offers every content encoding libcurl decodes (gzip, deflate, brotli, zstd as built) and
    /// decodes the body. Wraps `CURLOPT_ACCEPT_ENCODING`.
    package func acceptCompressed() { set(CURLOPT_ACCEPT_ENCODING, "") }

    /// The whole request, connection to last byte, within `milliseconds`. For documents, never for
    /// audio (an episode may take an hour). Wraps `CURLOPT_TIMEOUT_MS`.
    package func limitTotalTime(milliseconds: Int) { set(CURLOPT_TIMEOUT_MS, milliseconds) }

    /// Redirects the last request followed. Wraps `CURLINFO_REDIRECT_COUNT`.
    package var redirectCount: Int {
        var count = 0
        alicia_easy_getinfo_long(handle, CURLINFO_REDIRECT_COUNT, &count)
        return count
    }

    func set(_ option: CURLoption, _ value: Int) {
        alicia_easy_setopt_long(handle, option, value)
    }

    func set(_ option: CURLoption, _ value: String?) {
        // libcurl copies string options (since 7.17), so a temporary C string is enough.
        if let value {
            value.withCString { _ = alicia_easy_setopt_str(handle, option, $0) }
        } else {
            alicia_easy_setopt_str(handle, option, nil)
        }
    }

    /// Asks for bytes `start` up to `end` (exclusive), or to the end when `end` is nil.
    /// Wraps `CURLOPT_RANGE`.
    package func setRange(start: Int64, end: Int64?) {
        if let end {
            set(CURLOPT_RANGE, "\(start)-\(end - 1)")
        } else {
            set(CURLOPT_RANGE, "\(start)-")
        }
    }

    /// Sets the request headers, e.g. `Content-Type: application/json`. Wraps `CURLOPT_HTTPHEADER`.
    package func setHeaders(_ headers: [String]) {
        if let headerList { alicia_curl_slist_free_all(headerList) }
        headerList = nil
        for header in headers { headerList = alicia_curl_slist_append(headerList, header) }
        alicia_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
    }

    /// Sends `body` as a POST (libcurl copies it). Wraps `CURLOPT_COPYPOSTFIELDS`.
    package func setPostBody(_ body: [UInt8]) {
        alicia_easy_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
        body.withUnsafeBufferPointer { buffer in
            _ = alicia_easy_setopt_ptr(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
        }
    }

    /// Authenticates with `Authorization: Bearer <token>`; libcurl does not forward it to
    /// another host on a redirect. Wraps `CURLOPT_HTTPAUTH` and `CURLOPT_XOAUTH2_BEARER`.
    package func setBearer(_ token: String?) {
        if let token {
            set(CURLOPT_HTTPAUTH, Int(alicia_curlauth_bearer()))
            set(CURLOPT_XOAUTH2_BEARER, token)
        } else {
            set(CURLOPT_XOAUTH2_BEARER, nil)
        }
    }

    /// Authenticates with HTTP Basic (`user`, `password`), which libcurl sends to the first host
    /// only, never on a redirect to another. Wraps `CURLOPT_HTTPAUTH`, `CURLOPT_USERNAME` and
    /// `CURLOPT_PASSWORD`.
    package func setBasicAuth(user: String, password: String) {
        set(CURLOPT_HTTPAUTH, Int(alicia_curlauth_basic()))
        set(CURLOPT_USERNAME, user)
        set(CURLOPT_PASSWORD, password)
    }

    /// Runs the transfer on this thread. Wraps `curl_easy_perform`.
    package func perform() -> CurlError? {
        resetErrorDetail()
        let code = alicia_curl_easy_perform(handle)
        return code == CURLE_OK ? nil : CurlError(code: Int(code.rawValue), detail: errorDetail)
    }

    /// Clears the error buffer before a new transfer.
    package func resetErrorDetail() { errorBuffer[0] = 0 }

    package var errorDetail: String { String(cString: errorBuffer) }

    /// The last response's status (0 for `file://`). Wraps `CURLINFO_RESPONSE_CODE`.
    package var responseCode: Int {
        var code = 0
        alicia_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// The body length the server announced, if any. Wraps `CURLINFO_CONTENT_LENGTH_DOWNLOAD_T`.
    package var contentLength: Int64? {
        var length: curl_off_t = -1
        alicia_easy_getinfo_off(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        return length >= 0 ? Int64(length) : nil
    }

    /// The value of a header of the last response. Wraps `curl_easy_header`.
    package func header(_ name: String) -> String? {
        var header: UnsafeMutablePointer<curl_header>?
        let code = alicia_curl_easy_header(handle, name, 0, UInt32(CURLH_HEADER), -1, &header)
        guard code == CURLHE_OK, let value = header?.pointee.value else { return nil }
        return String(cString: value)
    }

    /// Resumes a transfer paused from the body handler. Wraps `curl_easy_pause`.
    /// The body handler may run inside this call.
    package func unpause() {
        alicia_curl_easy_pause(handle, CURLPAUSE_CONT)
    }
}

/// libcurl, loaded (and `curl_global_init` run, SIGPIPE ignored) once, at the first handle: a
/// player of local files never maps it (`alicia_curl.h`).
package enum CurlGlobal {
    /// Why libcurl could not be loaded; nil once it is. Loading maps some thirty libraries and
    /// OpenSSL's initialisation reads much of libcrypto: about 8 MiB of their pages stay resident,
    /// read once, beside what starting the stream and the sink brings in. A thread of its own gives
    /// the clean ones back at once (about 6.5 MiB, in a millisecond, beside the first request: not
    /// in its way), so the peak of a start over HTTP is not the sum of both (DECISIONS.md, "Peak
    /// memory over HTTP"); what the transfer then runs faults back in from the page cache.
    private static let failure: String? = {
        MappedFiles.releaseClean()
        let before = MappedFiles.starts()
        let failure = alicia_curl_load().map { String(cString: $0) }
        if failure == nil { _ = NativeThread(name: "alicia-release") { MappedFiles.releaseClean(except: before) } }
        return failure
    }()

    /// Loads it; a `CurlError` that says what is missing when it cannot be.
    package static func load() throws(CurlError) {
        if let failure { throw CurlError(code: Int(CURLE_FAILED_INIT.rawValue), detail: "libcurl could not be loaded: " + failure) }
    }
}
