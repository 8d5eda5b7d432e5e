internal import AliciaCurl
import AliciaLocks

/// What the fetch thread makes of a server's answer before it takes the body: the status, the
/// range, whether it is still the same file, where its redirects ended. Fetch thread only.
extension RangeFetcher {
    /// Checks the answer to `request` before taking its body.
    func validate(_ request: RangeRequest, _ easy: CurlEasy) -> Validation {
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
            guard sameFile(total: range.total, ranges: true, easy) else { return .noBody }
            resolveSize(range.total)
            rememberWhereRedirectsEnded(easy)
            return .body(first)
        case 200 where identity?.ranges == true:
            // Ranges were honoured before: a whole answer now means If-Range found another file.
            fail(.changedOnServer(url: location.display))
            return .noBody
        case 200 where isLive || Self.isLiveAnswer(easy):
            return takeLiveAnswer(request, easy)
        case 200:
            // The server ignored Range and sends the whole resource: keep it correct by
            // skipping up to where we asked (the window does that), at the cost of bytes.
            let total = easy.contentLength
            guard sameFile(total: total, ranges: false, easy) else { return .noBody }
            shared.withLock { $0.statistics.rangeIgnored = true }
            rememberWhereRedirectsEnded(easy)
            if request.start > 0 {
                Log.warning(.fetch, "\(location.display) ignored Range; reading from byte 0 to reach \(request.start)")
            }
            resolveSize(total)
            return .body(0)
        case 416:
            let total = easy.header("Content-Range").flatMap(ContentRange.init)?.total ?? request.start
            resolveSize(total)
            return .noBody
        case 429, 500...599:
            return .retry(status)
        case _ where Self.goneStatuses.contains(status) && requestURL != location.url && !rewalked:
            // Where the chain ended has gone (a signed URL expired, a CDN dropped the file): the
            // item's own URL is asked again, and its chain may end somewhere new.
            Log.info(.fetch, "HTTP \(status) from where \(location.display) redirected to; following its redirects again")
            requestURL = location.url
            rewalked = true
            return .noBody
        default:
            fail(.httpStatus(status, url: location.display))
            return .noBody
        }
    }

    /// What a remembered end of the redirect chain answers once it has gone: not authorised
    /// (an expired signed URL is 403, some stores say 400 or 401), not found, gone.
    static let goneStatuses: Set<Int> = [400, 401, 403, 404, 410]

    /// Keeps libcurl's effective URL of an answer that followed redirects, for the requests after
    /// it. The token in the item's URL goes nowhere it did not: the effective URL is the last
    /// `Location` as the server wrote it, and the fetcher sends no credentials of its own.
    func rememberWhereRedirectsEnded(_ easy: CurlEasy) {
        rewalked = false
        let hops = easy.redirectCount
        guard hops > 0, let effective = easy.effectiveURL else { return }
        shared.withLock { $0.statistics.redirects += hops }
        guard effective != requestURL else { return }
        requestURL = effective
        Log.info(.fetch, "\(location.display) ends at \(RedactedURL.redact(effective)) after \(hops) redirects: later ranges go there")
    }

    /// Records what the first answer said the file is, and checks every later one against it: a
    /// changed ETag, date or length stops the item (recorded in `failure`).
    func sameFile(total: Int64?, ranges: Bool, _ easy: CurlEasy) -> Bool {
        let etag = easy.header("ETag")
        let lastModified = easy.header("Last-Modified")
        guard let known = identity else {
            identity = Identity(etag: etag, lastModified: lastModified, total: total, ranges: ranges)
            return true
        }
        let changed = (known.etag != nil && etag != nil && known.etag != etag)
            || (known.lastModified != nil && lastModified != nil && known.lastModified != lastModified)
            || (known.total != nil && total != nil && known.total != total)
        if changed {
            Log.info(.fetch, "\(location.display) changed: ETag \(known.etag ?? "-") → \(etag ?? "-"), "
                + "Last-Modified \(known.lastModified ?? "-") → \(lastModified ?? "-"), length \(known.total.map(String.init) ?? "-") → \(total.map(String.init) ?? "-")")
            fail(.changedOnServer(url: location.display))
        }
        return !changed
    }
}
