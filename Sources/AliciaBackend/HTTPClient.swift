internal import AliciaCurl

/// A response of the backend's API.
struct HTTPResponse: Sendable {
    var status: Int
    var body: [UInt8]
    /// The transfer failed after the status line came (a stream cut short): what went wrong.
    var failure: BackendError?
}

/// Blocking requests over the same libcurl stack (and the same `HTTPPolicy`) as the audio fetcher, on the caller's thread. One
/// connection, reused between requests.
final class HTTPClient {
    private let easy: CurlEasy
    private let hostAndPort: String
    /// When it says so, the running request ends at once (a UI quitting while a chat streams).
    var isCancelled: (@Sendable () -> Bool)? {
        didSet { easy.abortWhen(isCancelled.map { cancelled in { cancelled() } }) }
    }
    /// Replies larger than this are refused: a hostile or broken server cannot exhaust memory.
    static let maximumBody = 32 * 1024 * 1024

    init(hostAndPort: String) throws(BackendError) {
        do {
            easy = try CurlEasy()
        } catch {
            throw .network(endpoint: hostAndPort, reason: error.message)
        }
        self.hostAndPort = hostAndPort
        easy.apply(Self.httpPolicy)
    }

    /// The program's HTTP policy as it stands: http and https only, and a reply (the chat's event
    /// stream included) may be silent for 30 s before it is dropped.
    static let httpPolicy = HTTPPolicy()

    /// GET (or POST when `body` is given) `url`; `endpoint` names it in errors. A 4xx or 5xx status
    /// is an error.
    func request(_ url: String, endpoint: String, bearer: String?, jsonBody: [UInt8]? = nil,
                 onChunk: ((UnsafeRawBufferPointer) -> Bool)? = nil) throws(BackendError) -> HTTPResponse {
        let response = try exchange(url, endpoint: endpoint, bearer: bearer, jsonBody: jsonBody, onChunk: onChunk)
        if let failure = response.failure { throw failure }
        if response.status == 401 { throw bearer == nil ? .noToken : .unauthorized }
        if response.status >= 400 { throw .httpStatus(response.status, endpoint: endpoint) }
        return response
    }

    /// As `request`, but any status comes back with its body (a 4xx's `{"error": …}` is read by the
    /// caller), and a transfer that failed once the status was in comes back with its `failure`;
    /// only a request that got no status at all throws. `onChunk` sees the body of a 2xx as it
    /// arrives (returning false ends it, which is not a failure); other bodies are gathered.
    func exchange(_ url: String, endpoint: String, bearer: String?, jsonBody: [UInt8]? = nil,
                  onChunk: ((UnsafeRawBufferPointer) -> Bool)? = nil) throws(BackendError) -> HTTPResponse {
        easy.prepareJSON(url, post: jsonBody, accept: "text/event-stream, application/json")
        easy.setBearer(bearer)
        let answer = easy.performGathering(limit: Self.maximumBody, stream: onChunk)
        let (body, status) = (answer.body, easy.responseCode)
        if answer.tooLarge { throw .badReply(endpoint: endpoint, detail: "larger than \(Self.maximumBody >> 20) MiB") }
        guard let failure = answer.failure else { return HTTPResponse(status: status, body: body) }
        // A stream the caller ended itself is not a failure.
        if failure.code == CurlError.writeError && onChunk != nil && status < 300 && status > 0 {
            return HTTPResponse(status: status, body: body)
        }
        guard status > 0 else { throw map(failure, endpoint: endpoint) }
        return HTTPResponse(status: status, body: body, failure: map(failure, endpoint: endpoint))
    }

    private func map(_ error: CurlError, endpoint: String) -> BackendError {
        switch error.code {
        case CurlError.couldNotConnect:
            return .cannotConnect(host: hostAndPort, reason: "connection refused")
        case CurlError.couldNotResolveHost:
            return .cannotConnect(host: hostAndPort, reason: "host not found")
        case CurlError.timedOut:
            return .cannotConnect(host: hostAndPort, reason: "timed out")
        default:
            return .network(endpoint: endpoint, reason: error.message)
        }
    }
}
