#if canImport(Glibc)
import Glibc
#endif
internal import CCurl
internal import AliciaCurl

/// Streams one resource with HTTP Range requests (or `file://` ranges) into a
/// bounded `StreamWindow`, on a thread of its own that owns the curl handles.
///
/// Requests are bounded to the free space of the ring, so a full ring means no
/// transfer at all rather than a paused one holding data in socket buffers: the
/// server sends only what will be played (plus read-ahead). The ring refills
/// once half of it is free. A read outside the window drops it, bumps its
/// generation and starts a new request where the reader is.
final class RangeFetcher: ByteSource, @unchecked Sendable {
    // @unchecked: `shared` is guarded by its lock; `multi.wakeUp` is thread-safe;
    // the fields marked "fetch thread only" are touched by `run` alone once `start`
    // has been called, and by `init` before that.

    private struct Shared {
        var window: StreamWindow
        var failure: PlaybackError?
        var interrupted = false
        var shutdown = false
        /// A transfer is in flight (or paused).
        var transferRunning = false
        /// The running transfer is paused because the ring was full (a server that ignored Range).
        var transferPaused = false
        /// A wake-up has been sent that the fetch thread has not yet seen.
        var wakePending = false
        var statistics = FetchStatistics()
    }

    private struct Transfer {
        var request: RangeRequest
        /// File offset of the next body byte.
        var offset: Int64
        var validated = false
        var paused = false
        /// We ended it ourselves (stale, end of file, error status): ignore its result.
        var abandoned = false
        var receivedAny = false
        /// The server ignored Range and sends the whole resource from byte 0.
        var wholeResource = false
    }

    let location: MediaLocation
    private let shared: ConditionLock<Shared>
    private let multi: CurlMulti
    private var thread: NativeThread?

    // Fetch thread only.
    private let easy: CurlEasy
    private var transfer: Transfer?
    private var attempts = 0
    private var retryAt: Int64?

    /// Transient failures in a row (with no byte received) before giving up.
    static let maximumAttempts = 4

    init(location: MediaLocation, readAhead: Int, userAgent: String = "alicia-player") throws(PlaybackError) {
        self.location = location
        var window = StreamWindow(readAhead: readAhead)
        if let path = location.filePath {
            var info = stat()
            guard stat(path, &info) == 0 else {
                window.deallocate()
                throw .cannotOpenFile(path: path, reason: String(cString: strerror(errno)))
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                window.deallocate()
                throw .cannotOpenFile(path: path, reason: "not a regular file")
            }
            window.totalSize = Int64(info.st_size)
            window.sizeResolved = true
        }
        shared = ConditionLock(Shared(window: window))
        do {
            multi = try CurlMulti()
            easy = try CurlEasy()
        } catch {
            shared.withLock { $0.window.deallocate() }
            throw .network(url: location.display, reason: error.message)
        }
        configure(userAgent: userAgent)
    }

    private func configure(userAgent: String) {
        easy.set(CURLOPT_URL, location.url)
        easy.set(CURLOPT_NOSIGNAL, 1)
        easy.set(CURLOPT_PROTOCOLS_STR, "http,https,file")
        easy.set(CURLOPT_FOLLOWLOCATION, 1)
        easy.set(CURLOPT_MAXREDIRS, 10)
        easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        easy.set(CURLOPT_CONNECTTIMEOUT_MS, 10_000)
        // A transfer slower than 1 kB/s for 20 s is stalled (paused transfers are exempt).
        easy.set(CURLOPT_LOW_SPEED_LIMIT, 1000)
        easy.set(CURLOPT_LOW_SPEED_TIME, 20)
        easy.set(CURLOPT_TCP_KEEPALIVE, 1)
        easy.set(CURLOPT_TCP_KEEPIDLE, 30)
        easy.set(CURLOPT_TCP_KEEPINTVL, 15)
        // HTTP/1.1: a pause is real TCP back-pressure (HTTP/2 keeps buffering in curl).
        easy.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        easy.set(CURLOPT_USERAGENT, userAgent)
        easy.onBody { [unowned self] bytes in self.receive(bytes) }
    }

    /// Starts the fetch thread.
    func start() {
        thread = NativeThread(name: "alicia-fetch") { [self] in run() }
    }

    /// Stops the fetch thread and frees the buffers. Idempotent.
    func close() {
        shared.update { $0.shutdown = true }
        multi.wakeUp()
        thread?.join()
        thread = nil
    }

    deinit {
        shared.withLock { $0.window.deallocate() }
    }

    // MARK: ByteSource

    func length() -> Int64? {
        wakeFetchThread()
        return shared.withLock(waitingUntil: {
            $0.window.sizeResolved || $0.failure != nil || $0.shutdown || $0.interrupted
        }) { $0.window.totalSize }
    }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> ByteRead {
        var outcome = ByteRead.interrupted
        shared.withLock(waitingUntil: { s in
            if s.interrupted || s.shutdown {
                outcome = .interrupted
                return true
            }
            switch s.window.read(at: offset, into: buffer) {
            case .copied(let n):
                outcome = .bytes(n)
                if !s.wakePending, Self.fetchThreadHasWork(s) { wake(&s) }
                return true
            case .endOfFile:
                outcome = .endOfFile
                return true
            case .wait:
                if s.failure != nil {
                    outcome = .failed
                    return true
                }
                if !s.wakePending { wake(&s) }
                return false
            }
        }) { _ in }
        return outcome
    }

    func interruptReader() { shared.update { $0.interrupted = true } }

    func clearInterrupt() { shared.withLock { $0.interrupted = false } }

    var failure: PlaybackError? { shared.withLock { $0.failure } }

    // MARK: Reading the state

    /// Sets the read-ahead once the stream's byte rate is known.
    func setReadAhead(bytes: Int) {
        shared.withLock { $0.window.setReadAhead(bytes) }
        wakeFetchThread()
    }

    /// Bytes buffered at and after `offset`.
    func bufferedAhead(of offset: Int64) -> Int64 {
        shared.withLock { $0.window.bufferedAhead(of: offset) }
    }

    /// Bytes read ahead in the ring.
    var bufferedBytes: Int64 { shared.withLock { Int64($0.window.ring.count) } }

    var statistics: FetchStatistics { shared.withLock { $0.statistics } }

    private static func fetchThreadHasWork(_ s: Shared) -> Bool {
        if s.transferPaused { return s.window.ring.free >= s.window.ring.capacity / 2 }
        return !s.transferRunning && s.window.nextRequest() != nil
    }

    private func wake(_ s: inout Shared) {
        s.wakePending = true
        multi.wakeUp()
    }

    /// Fills the ring from the start of the file (a prefetched entry, played from its start).
    func fetchAhead() {
        shared.withLock { s in
            s.window.streamFromStart()
            if !s.wakePending { wake(&s) }
        }
    }

    private func wakeFetchThread() {
        shared.withLock { s in if !s.wakePending { wake(&s) } }
    }

    // MARK: Fetch thread

    private enum Step {
        case exit, cancel, unpause, start(RangeRequest), idle
    }

    private func run() {
        while true {
            switch plan() {
            case .exit:
                if transfer != nil { multi.remove(easy) }
                transfer = nil
                return
            case .cancel:
                multi.remove(easy)
                transfer = nil
                shared.update {
                    $0.transferRunning = false
                    $0.transferPaused = false
                }
                continue
            case .unpause:
                transfer?.paused = false
                shared.withLock { $0.transferPaused = false }
                easy.unpause()
            case .start(let request):
                begin(request)
            case .idle:
                break
            }
            multi.perform()
            let finished = multi.finishedTransfers()
            for result in finished { finish(result) }
            if !finished.isEmpty { continue }
            multi.poll(timeoutMilliseconds: pollTimeout())
        }
    }

    private func plan() -> Step {
        shared.withLock { s in
            s.wakePending = false
            if s.shutdown { return .exit }
            if let transfer {
                if transfer.abandoned || transfer.request.generation != s.window.generation { return .cancel }
                if transfer.request.purpose == .ring && s.window.tailPreemptsRing { return .cancel }
                if transfer.paused && s.window.ring.free >= s.window.ring.capacity / 2 { return .unpause }
                return .idle
            }
            if s.failure != nil { return .idle }
            if let retryAt, MonotonicClock.nanoseconds() < retryAt { return .idle }
            guard let request = s.window.nextRequest() else { return .idle }
            if request.purpose == .tail { s.window.beginTail(at: request.start) }
            s.transferRunning = true
            s.statistics.requests += 1
            return .start(request)
        }
    }

    private func pollTimeout() -> Int32 {
        guard let retryAt else { return 1000 }
        let remaining = (retryAt - MonotonicClock.nanoseconds()) / 1_000_000
        return Int32(max(1, min(1000, remaining)))
    }

    private func begin(_ request: RangeRequest) {
        retryAt = nil
        transfer = Transfer(request: request, offset: request.start)
        easy.resetErrorDetail()
        easy.setRange(start: request.start, end: request.end)
        Log.debug(.fetch, "GET \(location.display) bytes=\(request.start)-\(request.end.map { String($0 - 1) } ?? "") (\(request.purpose))")
        multi.add(easy)
    }

    /// The body handler: runs inside `multi.perform()` on the fetch thread.
    private func receive(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard var current = transfer, !current.abandoned else { return 0 }
        defer { transfer = current }
        if !current.validated {
            current.validated = true
            switch validate(current.request) {
            case .body(let offset):
                current.offset = offset
                current.wholeResource = offset != current.request.start || (offset == 0 && easy.responseCode == 200)
            case .noBody:
                current.abandoned = true
                return 0
            }
        }
        let acceptance = shared.withLock { s -> StreamWindow.Acceptance in
            let acceptance = s.window.accept(bytes, at: current.offset, for: current.request)
            switch acceptance {
            case .consumed: s.statistics.bytesReceived += Int64(bytes.count)
            case .full: s.transferPaused = true
            case .stale: break
            }
            return acceptance
        }
        switch acceptance {
        case .consumed:
            current.offset += Int64(bytes.count)
            current.receivedAny = true
            shared.broadcast()
            return bytes.count
        case .full:
            current.paused = true
            return CurlEasy.pauseTransfer
        case .stale:
            current.abandoned = true
            return 0
        }
    }

    private enum Validation {
        /// The body starts at this file offset.
        case body(Int64)
        /// No body to keep: end of file, or an error recorded in `failure`.
        case noBody
    }

    /// Checks the answer to `request` before taking its body.
    private func validate(_ request: RangeRequest) -> Validation {
        if location.isFile { return .body(request.start) }
        let status = easy.responseCode
        switch status {
        case 206:
            guard let range = easy.header("Content-Range").flatMap(ContentRange.init), let first = range.first else {
                fail(.rangeNotHonoured(url: location.display, detail: "a 206 answer without a usable Content-Range"))
                return .noBody
            }
            guard first == request.start else {
                fail(.rangeNotHonoured(url: location.display, detail: "asked for byte \(request.start), got byte \(first)"))
                return .noBody
            }
            resolveSize(range.total)
            return .body(first)
        case 200:
            // The server ignored Range and sends the whole resource: keep it correct by
            // skipping up to where we asked (the window does that), at the cost of bytes.
            let total = easy.contentLength
            shared.withLock { $0.statistics.rangeIgnored = true }
            if request.start > 0 {
                Log.warning(.fetch, "\(location.display) ignored Range; reading from byte 0 to reach \(request.start)")
            }
            resolveSize(total)
            return .body(0)
        case 416:
            let total = easy.header("Content-Range").flatMap(ContentRange.init)?.total ?? request.start
            resolveSize(total)
            return .noBody
        default:
            fail(.httpStatus(status, url: location.display))
            return .noBody
        }
    }

    private func resolveSize(_ total: Int64?) {
        shared.update { s in
            if let total { s.window.totalSize = total }
            s.window.sizeResolved = true
        }
    }

    private func fail(_ error: PlaybackError) {
        Log.info(.fetch, "failed: \(error.message)")
        shared.update { s in
            if s.failure == nil { s.failure = error }
        }
    }

    /// A transfer ended, with libcurl's result.
    private func finish(_ result: Int) {
        multi.remove(easy)
        guard let done = transfer else { return }
        transfer = nil
        defer {
            shared.update {
                $0.transferRunning = false
                $0.transferPaused = false
            }
        }
        if done.abandoned { return }
        if result == CurlError.ok {
            if !done.validated {
                // An empty body: the status alone says what happened.
                _ = validate(done.request)
            } else if done.wholeResource || done.request.end == nil {
                resolveEndIfUnknown(at: done.offset)
            }
            attempts = 0
            return
        }
        let error = CurlError(code: result, detail: easy.errorDetail)
        if done.receivedAny { attempts = 0 }
        if error.isTransient && attempts < Self.maximumAttempts - 1 {
            attempts += 1
            // 0.25 s, 0.5 s, 1 s: the next request resumes at the first missing byte.
            retryAt = MonotonicClock.nanoseconds() + Int64(250_000_000) << (attempts - 1)
            Log.info(.fetch, "\(error.message); retry \(attempts) of \(Self.maximumAttempts - 1)")
            return
        }
        fail(map(error))
    }

    /// A body that ran to its end without a known size tells the size.
    private func resolveEndIfUnknown(at offset: Int64) {
        shared.update { s in
            if s.window.totalSize == nil { s.window.totalSize = offset }
            s.window.sizeResolved = true
        }
    }

    private func map(_ error: CurlError) -> PlaybackError {
        let detail = RedactedURL.scrub(error.message, secretsIn: location.url)
        switch error.code {
        case CurlError.couldNotConnect:
            let reason = detail.lowercased().contains("refused") || detail.contains("Couldn't connect")
                ? "connection refused" : detail
            return .cannotConnect(host: hostAndPort, reason: reason)
        case CurlError.couldNotResolveHost:
            return .cannotConnect(host: hostAndPort, reason: "host not found")
        case CurlError.timedOut:
            return .network(url: location.display, reason: "the connection stalled (\(detail))")
        case CurlError.sslConnect, CurlError.peerFailedVerification:
            return .network(url: location.display, reason: "secure connection failed: \(detail)")
        case CurlError.tooManyRedirects:
            return .network(url: location.display, reason: "too many redirects")
        case CurlError.fileCouldNotRead:
            return .cannotOpenFile(path: location.filePath ?? location.display, reason: detail)
        case CurlError.unsupportedProtocol, CurlError.malformedURL:
            return .badLocation("bad link \(location.display): \(detail)")
        default:
            return .network(url: location.display, reason: detail)
        }
    }

    /// `host:port` of the URL, for connection errors.
    private var hostAndPort: String {
        let url = location.url
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
