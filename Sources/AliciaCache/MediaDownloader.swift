#if canImport(Glibc)
import Glibc
#endif
internal import AliciaCurl
internal import AliciaJSON
import AliciaLocks

/// One file to download.
package struct DownloadRequest: Sendable {
    /// The URL fetched; may hold the token: never shown, never written.
    package var url: String
    /// The URL as shown (token as `***`).
    package var display: String
    /// What the cache will know of it (key, title, label, media path, pinned).
    package var entry: CacheEntry
    /// `--rate`: bytes per second at most, nil for no limit.
    package var rateLimit: Int64?

    package init(url: String, display: String, entry: CacheEntry, rateLimit: Int64? = nil) {
        self.url = url
        self.display = display
        self.entry = entry
        self.rateLimit = rateLimit
    }
}

/// How far a download has come.
package struct DownloadProgress: Sendable, Equatable {
    /// Bytes in the `.part` file.
    package var received: Int64
    /// The file's size, once the server said.
    package var total: Int64?
    /// Bytes received by this run (not counting what an earlier run left), and over how long.
    package var receivedThisRun: Int64
    package var seconds: Double

    package var bytesPerSecond: Double { seconds > 0 ? Double(receivedThisRun) / seconds : 0 }
}

package enum DownloadOutcome: Equatable, Sendable {
    /// It was complete in the cache already (perhaps another instance just finished it).
    case alreadyCached(CacheEntry)
    /// Downloaded now; `resumedFrom` > 0 when an earlier run's `.part` was continued.
    case downloaded(CacheEntry, resumedFrom: Int64)
}

/// What a `.part` was fetched as, kept beside it (`NAME.part.json`): the validators to resume with.
struct PartInfo: Codable, Equatable {
    var lastModified: String?
    var etag: String?
    var total: Int64?

    private enum CodingKeys: String, CodingKey { case lastModified = "last_modified", etag, total }

    /// What `If-Range` sends: the Last-Modified date when there is one (aiohttp, Alicia's server,
    /// honours only that form and takes an ETag there for no condition at all), else a strong ETag;
    /// nil when neither can be used (then the total size is the only check).
    var ifRange: String? {
        if let lastModified, !lastModified.isEmpty { return lastModified }
        if let etag, etag.hasPrefix("\"") { return etag }
        return nil
    }
}

/// Downloads files into a `MediaCache` over libcurl, on the caller's thread, one at a time: into
/// `NAME.part`, resumed with `Range` and `If-Range` when an earlier run left one, renamed into
/// place once its size (and a WAV's header) checks out. Holds `NAME.lock` while it runs, so two
/// instances never download one file at once: the second waits, then finds it cached.
package final class MediaDownloader {
    private let easy: CurlEasy
    /// Dropped connections are asked again from the next missing byte this many times.
    package var retries = 3

    package init() throws(DownloadError) {
        do {
            easy = try CurlEasy()
        } catch {
            throw .cache("cannot start libcurl: \(error.message)")
        }
        easy.apply(Self.httpPolicy)
        // 512 KiB reads from the socket instead of 16 KiB (libcurl's default). The body still
        // reaches the write callback in pieces of at most 16 KiB: `Transfer` gathers them.
        easy.setReceiveBuffer(bytes: 512 * 1024)
    }

    /// The program's HTTP policy as a download uses it: `file://` too, HTTP/1.1, and a link slower
    /// than 1 kB/s for 20 s is dropped and resumed (a download has no listener waiting on a byte).
    static let httpPolicy: HTTPPolicy = {
        var http = HTTPPolicy()
        http.allowsFiles = true
        http.http11Only = true
        http.stallBytesPerSecond = 1000
        http.stallSeconds = 20
        return http
    }()

    /// Downloads `request` into `cache`. `shouldStop` is asked about once a second and with every
    /// piece (a signal: the `.part` stays); `waiting` is told when another instance holds the file;
    /// `warn` gets what the listener should know (a restart from 0); `progress` about 10 times a second.
    package func download(_ request: DownloadRequest, into cache: MediaCache, shouldStop: @escaping () -> Bool,
                          waiting: () -> Void = {}, warn: @escaping (String) -> Void = { _ in },
                          progress: @escaping (DownloadProgress) -> Void = { _ in }) throws(DownloadError) -> DownloadOutcome {
        let name = request.entry.fileName
        let final = cache.path(of: name)
        if let cached = cache.file(for: request.entry.key, mediaPath: request.entry.mediaPath) { return .alreadyCached(cached.entry) }
        guard let lock = cache.downloadLock(name) else {
            throw .cache("cannot open \(final).lock: \(String(cString: strerror(errno)))")
        }
        if !lock.tryLock() {
            waiting()
            lock.lock()
        }
        defer { lock.unlock() }
        if let cached = cache.file(for: request.entry.key, mediaPath: request.entry.mediaPath) { return .alreadyCached(cached.entry) }

        let part = final + ".part"
        let fd = open(part, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .write(path: part, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let transfer = Transfer(fd: fd, part: part, infoPath: part + ".json", request: request)
        try transfer.start()
        let resumedFrom = transfer.position
        easy.abortWhen(shouldStop)
        defer { easy.abortWhen(nil) }
        easy.limitReceiveRate(request.rateLimit)
        var failures = 0
        while !transfer.isComplete {
            if shouldStop() { throw .interrupted(kept: transfer.position) }
            let result = run(transfer, warn: warn, progress: progress)
            switch result {
            case .finished:
                failures = 0
            case .restart:
                failures += 1
                guard failures <= retries else {
                    throw .badReply(url: request.display, detail: "it changed on every attempt")
                }
            case .failed(let error):
                if shouldStop() { throw .interrupted(kept: transfer.position) }
                if case .network = error, failures < retries {
                    failures += 1
                    if Self.backOff(failures, unless: shouldStop) { throw .interrupted(kept: transfer.position) }
                    continue
                }
                throw error
            }
        }
        return .downloaded(try finish(transfer, into: cache), resumedFrom: resumedFrom)
    }

    /// One request, from `transfer.position` on.
    private func run(_ transfer: Transfer, warn: @escaping (String) -> Void, progress: @escaping (DownloadProgress) -> Void) -> MediaDownloaderAttempt {
        let request = transfer.request
        prepare(transfer)
        var decided = false
        var outcome: MediaDownloaderAttempt?
        let started = MonotonicClock.seconds()
        var lastReport = started
        let runStart = transfer.position
        easy.onBody { [easy] bytes in
            if !decided {
                decided = true
                if let stop = Self.decide(transfer, easy: easy, warn: warn) {
                    outcome = stop
                    return 0
                }
            }
            if let error = transfer.write(bytes) {
                outcome = .failed(error)
                return 0
            }
            let now = MonotonicClock.seconds()
            if now - lastReport >= 0.1 {
                lastReport = now
                progress(DownloadProgress(received: transfer.position, total: transfer.info.total,
                                          receivedThisRun: transfer.position - runStart, seconds: now - started))
            }
            return bytes.count
        }
        let failure = easy.perform()
        easy.onBody { $0.count }
        // What the last pieces left in the buffer goes to the file, whatever ended the request.
        if let error = transfer.flush(), outcome == nil { outcome = .failed(error) }
        if let outcome { return outcome }
        if !decided, let stop = Self.decide(transfer, easy: easy, warn: warn) {
            if case .finished = stop, failure == nil || transfer.isComplete { return .finished }
            if failure == nil { return stop }
        }
        if let failure {
            if failure.code == CurlError.writeError || failure.code == CurlError.abortedByCallback {
                return .failed(.interrupted(kept: transfer.position))
            }
            return .failed(.network(url: request.display, reason: Self.describe(failure), kept: transfer.position))
        }
        progress(DownloadProgress(received: transfer.position, total: transfer.info.total,
                                  receivedThisRun: transfer.position - runStart, seconds: MonotonicClock.seconds() - started))
        if transfer.info.total == nil { transfer.info.total = transfer.position }
        if !transfer.isComplete {
            return .failed(.network(url: request.display, reason: "the connection ended early", kept: transfer.position))
        }
        return .finished
    }

    /// The request for what `transfer` still lacks: from its position on, `If-Range` when resuming.
    private func prepare(_ transfer: Transfer) {
        easy.setURL(transfer.request.url)
        easy.setGet()
        var headers: [String] = []
        if transfer.position > 0 {
            easy.setRange(start: transfer.position, end: nil)
            if let validator = transfer.info.ifRange { headers.append("If-Range: " + validator) }
        } else {
            easy.clearRange()
        }
        easy.setHeaders(headers)
    }

    /// What the response's status and headers mean for `transfer` (`Transfer.decide`).
    private static func decide(_ transfer: Transfer, easy: CurlEasy, warn: @escaping (String) -> Void) -> MediaDownloaderAttempt? {
        transfer.decide(status: easy.responseCode, contentRange: easy.header("Content-Range"), contentLength: easy.contentLength,
                        lastModified: easy.header("Last-Modified"), etag: easy.header("ETag"), warn: warn)
    }

    /// Checks the whole file and gives it its name.
    private func finish(_ transfer: Transfer, into cache: MediaCache) throws(DownloadError) -> CacheEntry {
        if let problem = WAVCheck.problem(fd: transfer.fd, size: transfer.position) {
            _ = ftruncate(transfer.fd, 0)
            unlink(transfer.infoPath)
            throw .badReply(url: transfer.request.display, detail: problem + " (discarded; run download again)")
        }
        guard fsync(transfer.fd) == 0 else {
            let reason = errno
            if reason == ENOSPC || reason == EDQUOT { throw .diskFull(part: transfer.part, kept: transfer.position) }
            throw .write(path: transfer.part, reason: String(cString: strerror(reason)))
        }
        var entry = transfer.request.entry
        entry.size = transfer.position
        entry.downloadedMS = MonotonicClock.realtimeMilliseconds()
        do {
            try cache.write(entry)
        } catch {
            if error.isDiskFull { throw .diskFull(part: transfer.part, kept: transfer.position) }
            throw .write(path: error.path, reason: String(cString: strerror(error.errno)))
        }
        let final = cache.path(of: entry.fileName)
        guard rename(transfer.part, final) == 0 else {
            throw .write(path: final, reason: String(cString: strerror(errno)))
        }
        unlink(transfer.infoPath)
        let directory = open(cache.mediaDirectory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        return entry
    }

    /// Waits 0.25 s, 0.5 s, 1 s before retry `attempt` (a dropped connection on a tailnet is usually
    /// back within that), in 50 ms steps so that Ctrl-C is not held up (signals are taken by a
    /// thread of their own and cannot cut a sleep short). True when `stop` said to stop.
    private static func backOff(_ attempt: Int, unless stop: () -> Bool) -> Bool {
        let steps = 5 << min(2, attempt - 1)
        for _ in 0..<steps {
            if stop() { return true }
            var step = timespec(tv_sec: 0, tv_nsec: 50_000_000)
            nanosleep(&step, nil)
        }
        return stop()
    }

    private static func describe(_ error: CurlError) -> String {
        switch error.code {
        case CurlError.couldNotConnect: return "cannot connect (\(error.message))"
        case CurlError.couldNotResolveHost: return "cannot find the server"
        case CurlError.timedOut: return "the connection stalled"
        case _ where error.isTransient: return "the connection dropped"
        default: return error.message
        }
    }
}

/// How one request of a download ended.
enum MediaDownloaderAttempt {
    case finished
    /// The file must be fetched again from 0 (it changed on the server).
    case restart
    case failed(DownloadError)
}

/// The state of one download: the `.part` file, its info, and what the server's answer means.
/// Used on the downloading thread only.
private final class Transfer {
    let fd: Int32
    let part: String
    let infoPath: String
    let request: DownloadRequest
    var info = PartInfo()
    /// Bytes received into the `.part` (where the next write goes); the last of them may still be
    /// in `pending` until `flush`, which every request ends with.
    var position: Int64 = 0
    /// Bytes in the file itself.
    private var written: Int64 = 0
    /// libcurl hands the body over in pieces of at most 16 KiB (CURL_MAX_WRITE_SIZE, whatever
    /// CURLOPT_BUFFERSIZE says): they are gathered here and written 1 MiB at a time.
    private let pending = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    private var pendingCount = 0
    /// Where writeback was last started from, so that the fsync at the end finds most of the
    /// file on its way to disk already.
    private var writebackFrom: Int64 = 0
    /// Writeback is started for every 8 MiB written: the disk works while the network does.
    static let writebackStep: Int64 = 8 << 20

    init(fd: Int32, part: String, infoPath: String, request: DownloadRequest) {
        self.fd = fd
        self.part = part
        self.infoPath = infoPath
        self.request = request
    }

    deinit {
        pending.deallocate()
    }

    var isComplete: Bool { info.total.map { position >= $0 && position > 0 } ?? false }

    /// Picks up an earlier run's `.part`, if its info is there; else starts from 0.
    func start() throws(DownloadError) {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .write(path: part, reason: String(cString: strerror(errno))) }
        position = Int64(status.st_size)
        written = position
        pendingCount = 0
        writebackFrom = position
        if position > 0, let bytes = MediaCache.read(infoPath), let saved = try? JSON.decode(PartInfo.self, from: bytes),
           saved.total.map({ position <= $0 }) ?? true {
            info = saved
        } else {
            try truncate()
        }
    }

    func truncate() throws(DownloadError) {
        var status = stat()
        let empty = fstat(fd, &status) == 0 && status.st_size == 0
        guard empty || ftruncate(fd, 0) == 0 else { throw .write(path: part, reason: String(cString: strerror(errno))) }
        position = 0
        written = 0
        pendingCount = 0
        writebackFrom = 0
        info = PartInfo()
        unlink(infoPath)
    }

    /// Reads the status and headers of an answer (at its first body bytes): nil to go on writing,
    /// or why to stop this request.
    func decide(status: Int, contentRange: String?, contentLength: Int64?, lastModified: String?, etag: String?,
                warn: (String) -> Void) -> MediaDownloaderAttempt? {
        let answered = PartInfo(lastModified: lastModified, etag: etag, total: nil)
        switch status {
        case 206:
            guard let range = contentRange.flatMap(ContentRange.init), range.first == position else {
                return .failed(.badReply(url: request.display, detail: "a Range answer for other bytes (\(contentRange ?? "no Content-Range"))"))
            }
            if let total = info.total, let now = range.total, total != now {
                warn("\(request.entry.title) changed on the server (now \(ByteSize.format(now))): downloading it again from the start")
                do { try truncate() } catch { return .failed(error) }
                return .restart
            }
            info.total = range.total ?? info.total
            if info.lastModified == nil && info.etag == nil {
                info.lastModified = lastModified
                info.etag = etag
            }
            return saveInfo()
        case 200, 0:
            if position > 0 {
                let sameFile = (info.lastModified != nil && info.lastModified == answered.lastModified)
                    || (info.lastModified == nil && info.etag != nil && info.etag == answered.etag)
                if sameFile || info.ifRange == nil {
                    warn("the server ignored the Range request for \(request.entry.title): downloading it again from the start")
                } else {
                    warn("\(request.entry.title) changed on the server since its download began: downloading it again from the start")
                }
                do { try truncate() } catch { return .failed(error) }
            }
            info = PartInfo(lastModified: lastModified, etag: etag, total: contentLength)
            return saveInfo()
        case 416:
            if let total = contentRange.flatMap(ContentRange.init)?.total, total == position, position > 0 {
                info.total = total
                return .finished
            }
            do { try truncate() } catch { return .failed(error) }
            return .restart
        default:
            return .failed(.httpStatus(status, url: request.display))
        }
    }

    private func saveInfo() -> MediaDownloaderAttempt? {
        guard let bytes = try? JSON.encode(info) else { return nil }
        do {
            try MediaCache.writeAtomically(bytes, to: infoPath)
        } catch {
            return .failed(error.isDiskFull ? .diskFull(part: part, kept: position) : .write(path: infoPath, reason: error.message))
        }
        return nil
    }

    /// Appends `bytes` to the `.part` (through `pending`); nil, or why it could not.
    func write(_ bytes: UnsafeRawBufferPointer) -> DownloadError? {
        var done = 0
        while done < bytes.count {
            let n = min(bytes.count - done, pending.count - pendingCount)
            (pending.baseAddress! + pendingCount).copyMemory(from: bytes.baseAddress! + done, byteCount: n)
            pendingCount += n
            done += n
            position += Int64(n)
            if pendingCount == pending.count, let error = flush() { return error }
        }
        return nil
    }

    /// Writes what `pending` holds; nil, or why it could not (then `position` is what the file holds).
    func flush() -> DownloadError? {
        var done = 0
        defer { pendingCount = 0 }
        while done < pendingCount {
            let n = pwrite(fd, pending.baseAddress! + done, pendingCount - done, off_t(written))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                let reason = n < 0 ? errno : ENOSPC
                position = written
                if reason == ENOSPC || reason == EDQUOT { return .diskFull(part: part, kept: written) }
                return .write(path: part, reason: String(cString: strerror(reason)))
            }
            done += n
            written += Int64(n)
        }
        if written - writebackFrom >= Self.writebackStep {
            // Linux starts writing the range's dirty pages back without waiting for them
            // (mm/fadvise.c), and drops the ones already clean: the cache is for later.
            _ = posix_fadvise(fd, off_t(writebackFrom), off_t(written - writebackFrom), POSIX_FADV_DONTNEED)
            writebackFrom = written
        }
        return nil
    }
}
