internal import CCurl

/// Owns one libcurl easy handle. Used by one thread at a time (the fetch thread).
final class CurlEasy {
    /// Called with each piece of the response body; return the count consumed,
    /// `CurlEasy.pauseTransfer` to pause, anything else to abort.
    typealias BodyHandler = (UnsafeRawBufferPointer) -> Int

    let handle: UnsafeMutableRawPointer
    private var onBody: BodyHandler?
    /// libcurl writes the detail of a failure here (`CURLOPT_ERRORBUFFER`).
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    static let pauseTransfer = Int(alicia_writefunc_pause())

    init() throws(CurlError) {
        CurlGlobal.initialise()
        guard let handle = curl_easy_init() else {
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
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Sets what receives the body. Wraps `CURLOPT_WRITEFUNCTION`.
    func onBody(_ handler: @escaping BodyHandler) { onBody = handler }

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
    func setRange(start: Int64, end: Int64?) {
        if let end {
            set(CURLOPT_RANGE, "\(start)-\(end - 1)")
        } else {
            set(CURLOPT_RANGE, "\(start)-")
        }
    }

    /// Clears the error buffer before a new transfer.
    func resetErrorDetail() { errorBuffer[0] = 0 }

    var errorDetail: String { String(cString: errorBuffer) }

    /// The last response's status (0 for `file://`). Wraps `CURLINFO_RESPONSE_CODE`.
    var responseCode: Int {
        var code = 0
        alicia_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// The body length the server announced, if any. Wraps `CURLINFO_CONTENT_LENGTH_DOWNLOAD_T`.
    var contentLength: Int64? {
        var length: curl_off_t = -1
        alicia_easy_getinfo_off(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        return length >= 0 ? Int64(length) : nil
    }

    /// The value of a header of the last response. Wraps `curl_easy_header`.
    func header(_ name: String) -> String? {
        var header: UnsafeMutablePointer<curl_header>?
        let code = curl_easy_header(handle, name, 0, UInt32(CURLH_HEADER), -1, &header)
        guard code == CURLHE_OK, let value = header?.pointee.value else { return nil }
        return String(cString: value)
    }

    /// Resumes a transfer paused from the body handler. Wraps `curl_easy_pause`.
    /// The body handler may run inside this call.
    func unpause() {
        curl_easy_pause(handle, CURLPAUSE_CONT)
    }
}

/// `curl_global_init` must run once, before any other thread uses libcurl.
enum CurlGlobal {
    private static let done: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return true
    }()

    static func initialise() { _ = done }
}
