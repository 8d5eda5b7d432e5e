import AliciaSubscriptions
import AliciaTestSupport
import Foundation
import Testing

/// The fetcher against a real nginx: conditional requests, redirects told apart, Retry-After, the
/// size limit, many at once in order.
@Suite("Feed fetcher")
struct FeedFetcherTests {
    @Test("a second request with the validators gets a 304, and nginx answered it so")
    func conditional() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        try server.serve(TestFeed(title: "A", items: []).bytes, as: "a.xml")
        let url = server.url("/media/a.xml")
        let first = FeedFetcher().fetch([FeedRequest(url: url)])
        guard case .document(let body) = try #require(first.first) else { Issue.record("\(first)"); return }
        #expect(body.etag != nil && body.lastModified != nil, "\(body.etag ?? "-") \(body.lastModified ?? "-")")
        let second = FeedFetcher().fetch([FeedRequest(url: url, etag: body.etag, lastModified: body.lastModified)])
        #expect(second == [.notModified(movedTo: nil)])
        let statuses = await server.settledAccessLog().filter { $0.uri == "/media/a.xml" }.map(\.status)
        #expect(statuses == [200, 304])
    }

    @Test("a 301 moves the feed, a 302 does not")
    func redirects() throws {
        let server = try NginxServer()
        defer { server.stop() }
        try server.serve(TestFeed(title: "A", items: []).bytes, as: "a.xml")
        let answers = FeedFetcher().fetch([FeedRequest(url: server.url("/moved/a.xml")), FeedRequest(url: server.url("/redirect/a.xml"))])
        guard case .document(let moved) = answers[0], case .document(let found) = answers[1] else { Issue.record("\(answers)"); return }
        #expect(moved.movedTo == server.url("/media/a.xml"))
        #expect(found.movedTo == nil)
    }

    @Test("a 503 with Retry-After says when to ask again; a 404 is its status; a body over the limit is refused")
    func failures() throws {
        let server = try NginxServer()
        defer { server.stop() }
        try server.serve([UInt8](repeating: 0x20, count: 100_000), as: "big.xml")
        var fetcher = FeedFetcher()
        fetcher.limit = 50_000
        let before = Int64(Date().timeIntervalSince1970)
        let answers = fetcher.fetch([server.url("/busy/a.xml"), server.url("/status/404/a.xml"), server.url("/media/big.xml")].map { FeedRequest(url: $0) })
        guard case .failed(let busy, let retryAt?) = answers[0] else { Issue.record("\(answers[0])"); return }
        #expect(busy == "HTTP 503")
        #expect(retryAt >= before + 119 && retryAt <= Int64(Date().timeIntervalSince1970) + 121, "\(retryAt - before)")
        #expect(answers[1] == .failed("HTTP 404", retryAt: nil))
        guard case .failed(let big, nil) = answers[2] else { Issue.record("\(answers[2])"); return }
        #expect(big.contains("larger than"), "\(big)")
    }

    @Test("thirty feeds at once come back in the order asked, each its own")
    func manyInOrder() throws {
        let server = try NginxServer()
        defer { server.stop() }
        for number in 0..<30 { try server.serve(TestFeed(title: "Show \(number)", items: []).bytes, as: "s\(number).xml") }
        var requests = (0..<30).map { FeedRequest(url: server.url("/media/s\($0).xml")) }
        requests.insert(FeedRequest(url: "http://127.0.0.1:1/nothing.xml"), at: 7)
        let counted = Counter()
        let answers = FeedFetcher().fetch(requests) { _ in counted.add() }
        #expect(answers.count == 31 && counted.value == 31)
        for (index, answer) in answers.enumerated() {
            if index == 7 {
                guard case .failed = answer else { Issue.record("\(answer)"); continue }
                continue
            }
            guard case .document(let body) = answer else { Issue.record("\(index): \(answer)"); continue }
            let number = index < 7 ? index : index - 1
            #expect(String(decoding: body.bytes, as: UTF8.self).contains("<title>Show \(number)</title>"))
        }
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
