#if canImport(Glibc)
import Glibc
#endif
internal import AliciaCurl
import AliciaLocks

/// Streams one resource with HTTP Range requests (or `pread`s of a local file) into a
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

    let location: MediaLocation
    let shared: ConditionLock<Shared>
    private let transport: Transport
    private var thread: NativeThread?

    // Fetch thread only.
    var transfer: Transfer?
    private var attempts = 0
    private var retryAt: Int64?
    var identity: Identity?
    private let policy: NetworkPolicy
    private let userAgent: String
    private var random = SystemRandomNumberGenerator()
    /// Where requests go: the item's own URL until an answer is taken, then where its redirects
    /// ended (libcurl's effective URL), so that later ranges skip the chain.
    var requestURL: String
    /// The chain was walked again because the URL it had ended at failed; a failure right after
    /// that is the item's.
    var rewalked = false

    /// Called on the reader's thread when it runs dry while playing (true) and when enough is
    /// buffered again (false): the player corks and uncorks around it.
    var onRebuffer: (@Sendable (Bool) -> Void)?

    init(location: MediaLocation, readAhead: Int, network: NetworkPolicy = NetworkPolicy(),
         userAgent: String = "alicia-player") throws(PlaybackError) {
        self.location = location
        policy = network
        requestURL = location.url
        var window = StreamWindow(readAhead: readAhead)
        if let path = location.filePath {
            let file = try LocalFile(path: path)
            window.totalSize = file.size
            window.sizeResolved = true
            transport = .file(file)
        } else {
            transport = .curl(CurlHandles())
        }
        shared = ConditionLock(Shared(window: window))
        self.userAgent = userAgent
    }

    /// Starts the fetch thread.
    func start() {
        thread = NativeThread(name: "alicia-fetch") { [self] in run() }
    }

    /// Stops the fetch thread (its buffers go with the fetcher). Idempotent.
    func close() {
        shared.update { $0.shutdown = true }
        if case .curl(let handles) = transport { handles.wakeUp() }
        thread?.join()
        thread = nil
    }

    // MARK: ByteSource

    func length() -> Int64? {
        wakeFetchThread()
        return shared.withLock(waitingUntil: {
            $0.window.sizeResolved || $0.failure != nil || $0.shutdown || $0.interrupted
        }) { $0.window.totalSize }
    }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> ByteRead {
        // A reader that was being fed and finds nothing has run dry: it waits until the refill
        // mark (the player corks meanwhile, outside these locks).
        let starving = shared.withLock { $0.runsDry(at: offset) }
        if starving {
            Log.info(.fetch, "ran dry at byte \(offset): buffering")
            onRebuffer?(true)
        }
        var outcome = ByteRead.interrupted
        shared.withLock(waitingUntil: { s in
            if s.interrupted || s.shutdown {
                outcome = .interrupted
                s.rebuffering = false
                s.startGate = false
                return true
            }
            if (s.rebuffering || s.startGate) && s.refillBytes > 0 {
                let ahead = s.window.bufferedAhead(of: offset)
                let rest = s.window.totalSize.map { $0 - offset }
                s.waitingAt = offset
                if ahead >= s.gateBytes || rest.map({ ahead >= $0 }) == true || s.failure != nil
                    || (s.startGate && !s.rebuffering && Self.linkIsFast(s, ahead: ahead)) {
                    s.rebuffering = false
                    s.startGate = false
                } else if ahead > 0 {
                    if !s.wakePending, Self.fetchThreadHasWork(s) { wake(&s) }
                    return false
                }
                // Nothing at the offset yet: the window is asked to get there (and moves, for a seek).
            }
            switch s.window.read(at: offset, into: buffer) {
            case .copied(let n):
                outcome = .bytes(n)
                s.fedGeneration = s.window.generation
                s.live?.reached(offset)
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
        // Every way out of the wait (refilled, interrupted, failed) ends the rebuffering.
        if starving { onRebuffer?(false) }
        return outcome
    }

    /// The share (0…1) of the refill mark buffered while a dry reader waits; nil while it is not.
    var rebufferProgress: Double? {
        shared.withLock { s in
            guard s.rebuffering || s.startGate, s.refillBytes > 0 else { return nil }
            return min(1, Double(s.window.bufferedAhead(of: s.waitingAt)) / Double(s.gateBytes))
        }
    }

    /// Seconds since every attempt to reach the server began failing; nil while it answers.
    var outageSeconds: Double? {
        shared.withLock { s in s.outageSince.map { Double(MonotonicClock.nanoseconds() - $0) / 1e9 } }
    }

    /// Makes the next read (the first of a start or a seek) wait for the refill mark, so that a
    /// slow link starts with as much in hand as it resumes with. A link that brings the audio at
    /// least twice as fast as it plays starts as soon as a quarter of a second is in hand: a start
    /// or seek on a LAN does not wait for two seconds' worth.
    func armStartGate() {
        shared.withLock { s in
            s.startGate = true
            s.gateArmedAt = MonotonicClock.nanoseconds()
            s.gateReceivedAtArm = s.statistics.bytesReceived
        }
    }

    /// Lock held: since the gate was armed, bytes have come at least twice as fast as they play,
    /// and a quarter of a second is buffered.
    private static func linkIsFast(_ s: borrowing Shared, ahead: Int64) -> Bool {
        guard s.byteRate > 0, Double(ahead) >= s.byteRate / 4 else { return false }
        // Judged on what has come since (a second's worth at least: a rate-limited server sends
        // its first tens of KiB in one burst), not on what was buffered before.
        let received = Double(s.statistics.bytesReceived - s.gateReceivedAtArm)
        guard received >= s.byteRate else { return false }
        let elapsed = Double(MonotonicClock.nanoseconds() - s.gateArmedAt) / 1e9
        return received / max(elapsed, 0.000_1) >= 2 * s.byteRate
    }

    /// How much a reader that ran dry waits for (two seconds of audio), once the byte rate is known.
    func setRefill(bytes: Int, byteRate: Double = 0) {
        shared.withLock { s in
            s.refillBytes = Int64(bytes)
            if byteRate > 0 { s.byteRate = byteRate }
        }
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

    private static func fetchThreadHasWork(_ s: borrowing Shared) -> Bool {
        if s.transferPaused { return s.window.ring.free >= s.window.ring.capacity / 2 }
        return !s.transferRunning && s.window.nextRequest() != nil
    }

    private func wake(_ s: inout Shared) {
        s.wakePending = true
        switch transport {
        case .curl(let handles): handles.wakeUp()
        // The file's fetch thread waits on the lock's condition.
        case .file: shared.broadcast()
        }
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
        switch transport {
        case .curl(let handles):
            let made: (CurlMulti, CurlEasy)
            do {
                made = try handles.make { easy in
                    easy.apply(CurlHandles.httpPolicy(policy, userAgent: userAgent))
                    // Unowned both: the closure lives in `easy`, which the fetcher outlives.
                    easy.onBody { [unowned self, unowned easy] bytes in self.receive(bytes, easy) }
                }
            } catch {
                // libcurl could not be loaded (or made a handle): the reader is told, and the
                // thread waits to be closed.
                fail(.network(url: location.display, reason: error.message))
                shared.withLock(waitingUntil: { $0.shutdown }) { _ in }
                return
            }
            run(made.0, made.1)
        case .file(let file): run(file)
        }
    }

    private func run(_ multi: CurlMulti, _ easy: CurlEasy) {
        while true {
            switch plan() {
            case .exit:
                if transfer != nil { multi.remove(easy) }
                transfer = nil
                return
            case .cancel:
                multi.remove(easy)
                endTransfer()
                continue
            case .unpause:
                transfer?.paused = false
                shared.withLock { $0.transferPaused = false }
                easy.unpause()
            case .start(let request):
                begin(request, multi, easy)
            case .idle:
                break
            }
            multi.perform()
            let finished = multi.finishedTransfers()
            for result in finished { finish(result, multi, easy) }
            if !finished.isEmpty { continue }
            multi.poll(timeoutMilliseconds: pollTimeout())
        }
    }

    /// A local file's fetch thread: the same plan as a download's, each range read 64 KiB at a
    /// time into the window; it waits on the lock's condition for a wake-up.
    private func run(_ file: LocalFile) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            switch plan() {
            case .exit:
                transfer = nil
                return
            case .cancel:
                endTransfer()
                continue
            case .unpause:
                transfer?.paused = false
                shared.withLock { $0.transferPaused = false }
            case .start(let request):
                transfer = Transfer(request: request, offset: request.start, validated: true)
            case .idle:
                break
            }
            guard let current = transfer, !current.paused else {
                shared.withLock(waitingUntil: { $0.wakePending || $0.shutdown }) { _ in }
                continue
            }
            let wanted = current.request.end.map { Int(min(Int64(chunk.count), max(0, $0 - current.offset))) } ?? chunk.count
            // A range read to its bound has ended: no read of nothing to find that out.
            let got = wanted == 0 ? .success(0) : file.read(at: current.offset, into: UnsafeMutableRawBufferPointer(rebasing: chunk[..<wanted]), path: location.display)
            switch got {
            case .failure(let error):
                fail(error)
                endTransfer()
            case .success(0):
                // The range, or the file, ended.
                if current.request.end == nil { resolveEndIfUnknown(at: current.offset) }
                endTransfer()
            case .success(let count):
                _ = take(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
            }
        }
    }

    /// The running transfer is over (or dropped).
    private func endTransfer() {
        transfer = nil
        shared.update {
            $0.transferRunning = false
            $0.transferPaused = false
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

    private func begin(_ request: RangeRequest, _ multi: CurlMulti, _ easy: CurlEasy) {
        retryAt = nil
        transfer = Transfer(request: request, offset: request.start)
        easy.resetErrorDetail()
        easy.setURL(requestURL)
        // A live stream is asked for whole: it has no bytes to range over.
        let live = shared.withLock { $0.live != nil }
        if live { easy.clearRange() } else { easy.setRange(start: request.start, end: request.end) }
        // In-band titles, as mpv and cmus ask: only a SHOUTcast or Icecast server acts on it.
        var headers = ["Icy-MetaData: 1"]
        // Never splice two files: a later range is taken only from the same file as the first
        // answer (the date form first: aiohttp, Alicia's server, ignores an ETag in If-Range).
        if let identity, identity.ranges, let validator = identity.lastModified ?? identity.etag {
            headers.append("If-Range: \(validator)")
        }
        easy.setHeaders(headers)
        Log.debug(.fetch, "GET \(location.display) bytes=\(request.start)-\(request.end.map { String($0 - 1) } ?? "") (\(request.purpose))")
        multi.add(easy)
    }

    /// The body handler: runs inside `multi.perform()` on the fetch thread.
    private func receive(_ bytes: UnsafeRawBufferPointer, _ easy: CurlEasy) -> Int {
        guard var current = transfer, !current.abandoned else { return 0 }
        if !current.validated {
            current.validated = true
            defer { transfer = current }
            switch validate(current.request, easy) {
            case .body(let offset):
                current.offset = offset
                current.wholeResource = offset != current.request.start || (offset == 0 && easy.responseCode == 200)
                if isLive { current.icy = ICYMetadata(header: easy.header("icy-metaint")) }
            case .noBody:
                current.abandoned = true
                return 0
            case .retry(let status):
                current.retryStatus = status
                current.abandoned = true
                return 0
            }
        }
        if let icy = transfer?.icy, let offset = transfer?.offset {
            let (answer, next) = receiveInterleaved(bytes, icy, at: offset)
            if let next { transfer?.icy = next }
            return answer
        }
        switch take(bytes) {
        case .consumed: return bytes.count
        case .full: return CurlEasy.pauseTransfer
        case .stale: return 0
        }
    }

    /// Puts body bytes of the running transfer into the window (a full ring pauses it; bytes for a
    /// window that moved on end it).
    func take(_ bytes: UnsafeRawBufferPointer) -> StreamWindow.Acceptance {
        guard var current = transfer else { return .stale }
        defer { transfer = current }
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
            if !current.receivedAny {
                current.receivedAny = true
                attempts = 0
                if shared.withLock({ $0.outageSince != nil }) {
                    Log.info(.fetch, "\(location.display) answers again")
                    shared.withLock { $0.outageSince = nil }
                }
            }
            shared.broadcast()
        case .full:
            current.paused = true
        case .stale:
            current.abandoned = true
        }
        return acceptance
    }

    func resolveSize(_ total: Int64?) {
        shared.update { s in
            if let total { s.window.totalSize = total }
            s.window.sizeResolved = true
        }
    }

    func fail(_ error: PlaybackError) {
        Log.info(.fetch, "failed: \(error.message)")
        shared.update { s in
            if s.failure == nil { s.failure = error }
        }
    }

    /// A transfer ended, with libcurl's result.
    private func finish(_ result: Int, _ multi: CurlMulti, _ easy: CurlEasy) {
        multi.remove(easy)
        guard let done = transfer else { return }
        transfer = nil
        defer {
            shared.update {
                $0.transferRunning = false
                $0.transferPaused = false
            }
        }
        if let status = done.retryStatus {
            retry(after: .httpStatus(status, url: location.display))
            return
        }
        if done.abandoned { return }
        if result == CurlError.ok, done.validated, isLive {
            // A live stream has no end: the server dropped it, and it is asked for again.
            retry(after: .network(url: location.display, reason: "the live stream was cut off"))
            return
        }
        if result == CurlError.ok {
            if !done.validated {
                // An empty body: the status alone says what happened.
                if case .retry(let status) = validate(done.request, easy) {
                    retry(after: .httpStatus(status, url: location.display))
                    return
                }
            } else if done.wholeResource || done.request.end == nil {
                resolveEndIfUnknown(at: done.offset)
            }
            attempts = 0
            return
        }
        let error = CurlError(code: result, detail: easy.errorDetail)
        guard error.isOutage else {
            fail(Self.problem(error, at: location))
            return
        }
        if identity == nil, let fallback = location.fallback, requestURL != fallback {
            // Its server never answered (another device's host): the same path on our backend, now.
            Log.info(.fetch, "\(location.display) did not answer (\(error.message)); asking the backend for it")
            requestURL = fallback
            attempts = 0
            retryAt = MonotonicClock.nanoseconds()
            shared.update { $0.outageSince = nil }
            return
        }
        retry(after: Self.problem(error, at: location))
    }

    /// Asks again from the next missing byte after a wait that grows (0.25 s doubling to 5 s,
    /// jittered), until the server has been unreachable for the policy's patience.
    private func retry(after error: PlaybackError) {
        let now = MonotonicClock.nanoseconds()
        let since = shared.withLock { s -> Int64 in
            if s.outageSince == nil { s.outageSince = now }
            return s.outageSince!
        }
        let waited = Double(now - since) / 1e9
        // A server never reached (a mistyped address, a wrong port) is given a few seconds, not
        // the whole patience meant for one that went away while playing.
        var patience = policy.giveUpAfter > 0 ? policy.giveUpAfter : Double.infinity
        if identity == nil { patience = min(patience, NetworkPolicy.firstContactPatience) }
        if waited >= patience {
            fail(.gaveUp(after: patience, PlaybackErrorBox(error)))
            return
        }
        attempts += 1
        let delay = NetworkPolicy.retryDelay(attempt: attempts, unit: Double.random(in: 0...1, using: &random))
        retryAt = now + Int64(delay * 1e9)
        Log.info(.fetch, "\(error.message); retry \(attempts) in \(Int(delay * 1000)) ms (\(Int(waited)) s without the server)")
    }

    /// A body that ran to its end without a known size tells the size.
    private func resolveEndIfUnknown(at offset: Int64) {
        shared.update { s in
            if s.window.totalSize == nil { s.window.totalSize = offset }
            s.window.sizeResolved = true
        }
    }
}
