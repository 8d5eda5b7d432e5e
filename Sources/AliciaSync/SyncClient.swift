import AliciaCurl
import AliciaJSON

/// Blocking requests to a sync server, on the caller's thread, over the program's libcurl stack
/// and `HTTPPolicy` (its CA trust, redirects only to http(s)). HTTP Basic on every request, as
/// mygpo, gpodder-fastapi-router and Nextcloud all take it; libcurl never sends it to another host
/// on a redirect. A reply is at most 8 MiB, and every request ends within 30 s.
package final class SyncClient {
    package let account: SyncAccount
    private let easy: CurlEasy
    /// Replies larger than this are refused: a hostile server cannot grow memory without bound.
    static let maximumBody = 8 << 20
    static let timeoutMilliseconds = 30_000

    package init(_ account: SyncAccount) throws(SyncError) {
        try SyncClient.check(account)
        self.account = account
        do {
            easy = try CurlEasy()
        } catch {
            throw SyncError("sync: \(error.message)")
        }
        var policy = HTTPPolicy()
        policy.connectTimeoutMilliseconds = 10_000
        easy.apply(policy)
        easy.limitTotalTime(milliseconds: Self.timeoutMilliseconds)
        easy.acceptCompressed()
        easy.setBasicAuth(user: account.user, password: account.password)
    }

    /// Ends a request at once when it says so (a player quitting).
    package func cancel(when cancelled: (@Sendable () -> Bool)?) {
        easy.abortWhen(cancelled.map { cancelled in { cancelled() } })
    }

    /// User and device ids as gpodder.net allows them (letters, digits, `.`, `-`, `_`): they go
    /// into paths unescaped.
    static func check(_ account: SyncAccount) throws(SyncError) {
        func allowed(_ text: String) -> Bool {
            !text.isEmpty && text.utf8.count <= 100 && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_@".unicodeScalars.contains(scalar))
            }
        }
        guard allowed(account.user) else { throw SyncError("the sync user '\(account.user)' has characters a gpodder.net user id cannot") }
        guard allowed(account.device) else {
            throw SyncError("the device id '\(account.device)' may hold only letters, digits, '.', '-' and '_'")
        }
    }

    /// A reply: its status and body.
    struct Reply {
        var status: Int
        var body: [UInt8]
    }

    /// `request` of the account's dialect, with `body` as JSON when given (a POST); a status of 400
    /// or more is an error naming the request.
    func send(_ request: SyncDialect.Request, json body: [UInt8]? = nil) throws(SyncError) -> Reply {
        guard let path = account.dialect.path(request, user: account.user, device: account.device) else {
            throw SyncError("sync: \(account.dialect.name) has no such request")
        }
        let reply = try exchange(account.server + path, json: body)
        if reply.status == 401 || reply.status == 403 {
            throw SyncError("sync: \(account.server) refused user \(account.user) (HTTP \(reply.status)): check the password with alicia-player sync setup",
                            unauthorized: true)
        }
        guard (200..<300).contains(reply.status) else {
            throw SyncError("sync: \(account.server) answered HTTP \(reply.status) to \(path.prefix { $0 != "?" })")
        }
        return reply
    }

    /// One request to `url`: GET, or POST of `json`. Throws only when no status came.
    func exchange(_ url: String, json body: [UInt8]?) throws(SyncError) -> Reply {
        easy.prepareJSON(url, post: body)
        let answer = easy.performGathering(limit: Self.maximumBody)
        if answer.tooLarge { throw SyncError("sync: \(account.server)'s reply is larger than \(Self.maximumBody >> 20) MiB: refused") }
        if let failure = answer.failure { throw SyncError("sync: cannot reach \(account.server): \(failure.message)") }
        return Reply(status: easy.responseCode, body: answer.body)
    }

    /// `reply`'s body as a JSON value, or an error naming what was asked.
    static func json(_ reply: Reply, _ what: String) throws(SyncError) -> JSONValue {
        guard let value = JSONValue(parsing: reply.body) else { throw SyncError("sync: the server's answer to \(what) is not JSON") }
        return value
    }
}
