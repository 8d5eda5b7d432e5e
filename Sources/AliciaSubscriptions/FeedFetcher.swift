#if canImport(Glibc)
import Glibc
#endif
import AliciaCurl
import AliciaLocks

/// Fetches many feeds at once, politely: at most `concurrency` transfers, at most `perHost` to any
/// one host, conditional requests (`If-None-Match`, `If-Modified-Since`), compressed bodies, a
/// time limit and a size limit on each, and redirects followed by hand so that only a chain of
/// permanent ones moves a subscription (DECISIONS.md, "Refreshing feeds").
///
/// Each worker thread owns one libcurl handle and reuses its connections; one failure is that
/// feed's answer and never stops the others.
package struct FeedFetcher: Sendable {
    package var concurrency = 8
    package var perHost = 2
    /// Bytes a body may have; more is refused (`FeedDocument.defaultLimit`).
    package var limit = 64 << 20
    /// The whole of one request, redirects included.
    package var timeoutMilliseconds = 60_000
    package var maximumRedirects = 10

    package init() {}

    /// Fetches every request; the answers are in the requests' order. `finished` is called (on a
    /// worker thread) as each one ends, with how many have.
    package func fetch(_ requests: [FeedRequest], finished: (@Sendable (Int) -> Void)? = nil) -> [FeedResponse] {
        guard !requests.isEmpty else { return [] }
        let board = Board(requests, perHost: perHost)
        let workers = (0..<min(concurrency, requests.count)).map { number in
            NativeThread(name: "alicia-feeds-\(number)") { [self] in
                let easy: CurlEasy
                do throws(CurlError) {
                    easy = try CurlEasy()
                } catch {
                    while let (index, _) = board.next() {
                        let done = board.finish(index, .failed(error.message, retryAt: nil))
                        finished?(done)
                    }
                    return
                }
                while let (index, request) = board.next() {
                    // Not inside `finished?(…)`: an optional call evaluates no argument when it is nil.
                    let done = board.finish(index, fetch(request, with: easy))
                    finished?(done)
                }
            }
        }
        workers.forEach { $0.join() }
        return board.responses
    }

    /// One request and the redirects it leads to, on `easy`.
    func fetch(_ request: FeedRequest, with easy: CurlEasy) -> FeedResponse {
        var url = request.url
        var permanent = true
        let deadline = MonotonicClock.seconds() + Double(timeoutMilliseconds) / 1000
        for _ in 0...maximumRedirects {
            let left = Int((deadline - MonotonicClock.seconds()) * 1000)
            guard left > 0 else { return .failed("no answer within \(timeoutMilliseconds / 1000) s", retryAt: nil) }
            let body = Locked<[UInt8]>([])
            let tooLarge = Locked(false)
            prepare(easy, url: url, validators: url == request.url ? request : nil, milliseconds: left)
            easy.onBody { [limit] bytes in
                body.withLock { body in
                    if body.count + bytes.count > limit {
                        tooLarge.withLock { $0 = true }
                        return 0
                    }
                    body.append(contentsOf: bytes)
                    return bytes.count
                }
            }
            let failure = easy.perform()
            if tooLarge.withLock({ $0 }) { return .failed("the document is larger than " + (limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"), retryAt: nil) }
            if let failure { return .failed(Self.describe(failure), retryAt: nil) }
            let status = easy.responseCode
            let movedTo = permanent && url != request.url ? url : nil
            switch status {
            case 200...299:
                return .document(FeedBody(bytes: body.withLock { $0 }, contentType: easy.header("Content-Type"),
                                          etag: easy.header("ETag"), lastModified: easy.header("Last-Modified"), movedTo: movedTo))
            case 304: return .notModified(movedTo: movedTo)
            case 301, 302, 303, 307, 308:
                guard let next = easy.redirectURL else { return .failed("HTTP \(status) without a Location", retryAt: nil) }
                guard next.hasPrefix("http://") || next.hasPrefix("https://") else {
                    return .failed("HTTP \(status) to a URL that is not http(s)", retryAt: nil)
                }
                if status != 301 && status != 308 { permanent = false }
                url = next
            case 429, 503:
                return .failed("HTTP \(status)", retryAt: easy.header("Retry-After").flatMap(RetryAfter.seconds).map { RetryAfter.now() + $0 })
            default: return .failed("HTTP \(status)", retryAt: nil)
            }
        }
        return .failed("more than \(maximumRedirects) redirects", retryAt: nil)
    }

    private func prepare(_ easy: CurlEasy, url: String, validators: FeedRequest?, milliseconds: Int) {
        var policy = HTTPPolicy()
        policy.stallSeconds = 20
        easy.apply(policy)
        easy.followRedirects(false)
        easy.acceptCompressed()
        easy.limitTotalTime(milliseconds: milliseconds)
        easy.setGet()
        easy.setURL(url)
        var headers: [String] = []
        if let etag = validators?.etag { headers.append("If-None-Match: " + etag) }
        if let lastModified = validators?.lastModified { headers.append("If-Modified-Since: " + lastModified) }
        easy.setHeaders(headers)
    }

    static func describe(_ error: CurlError) -> String {
        URLRedaction.scrub(error.message, secret: nil)
    }
}

/// The work of one `fetch`: which requests wait, how many run per host, and the answers.
private final class Board: Sendable {
    private struct State {
        var waiting: [Int]
        var running: [String: Int] = [:]
        var answers: [FeedResponse?]
        var done = 0
    }

    private let requests: [FeedRequest]
    private let hosts: [String]
    private let perHost: Int
    private let state: ConditionLock<State>

    init(_ requests: [FeedRequest], perHost: Int) {
        self.requests = requests
        hosts = requests.map(\.host)
        self.perHost = max(1, perHost)
        state = ConditionLock(State(waiting: Array(requests.indices), answers: Array(repeating: nil, count: requests.count)))
    }

    /// The next request whose host has room, waiting while every waiting one's host is full; nil
    /// when none is left.
    func next() -> (Int, FeedRequest)? {
        let index: Int? = state.withLock(waitingUntil: { [hosts, perHost] state in
            state.waiting.isEmpty || state.waiting.contains { state.running[hosts[$0], default: 0] < perHost }
        }) { [hosts, perHost] state in
            guard let position = state.waiting.firstIndex(where: { state.running[hosts[$0], default: 0] < perHost }) else { return nil }
            let index = state.waiting.remove(at: position)
            state.running[hosts[index], default: 0] += 1
            return index
        }
        return index.map { ($0, requests[$0]) }
    }

    /// Keeps an answer; returns how many are done.
    func finish(_ index: Int, _ answer: FeedResponse) -> Int {
        state.update { [hosts] state in
            state.answers[index] = answer
            state.running[hosts[index], default: 1] -= 1
            state.done += 1
            return state.done
        }
    }

    var responses: [FeedResponse] {
        state.withLock { $0.answers.map { $0 ?? .failed("not fetched", retryAt: nil) } }
    }
}
