import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// Redirects are resolved once per item: later Range requests go where the chain ended, and the
/// chain is walked again only when that URL fails. Real libcurl against nginx on loopback; the hops
/// are counted in nginx's access log.
@Suite struct RedirectTests {
    /// 3 MiB of bytes whose value names their offset, so any splice shows.
    static let bytes: [UInt8] = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 12) }

    /// Reads 16 KiB at `offset` through the fetcher and checks them.
    private func expectBytes(_ fetcher: RangeFetcher, at offset: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var done = 0
        while done < buffer.count {
            let got = buffer.withUnsafeMutableBytes { raw in
                fetcher.read(at: Int64(offset + done), into: UnsafeMutableRawBufferPointer(rebasing: raw[done...]))
            }
            guard case .bytes(let n) = got else {
                Issue.record("read at \(offset + done): \(got), \(fetcher.failure?.message ?? "no failure")", sourceLocation: sourceLocation)
                return
            }
            done += n
        }
        #expect(buffer == Array(Self.bytes[offset..<(offset + buffer.count)]), "bytes at \(offset)", sourceLocation: sourceLocation)
    }

    /// Serves ``bytes`` behind nginx's redirect chain, lets `body` read `path` through a fetcher,
    /// closes it and returns it with the access log once every request is in it (nginx logs one
    /// when its connection is done, after close()).
    private func fetch(_ path: String, _ body: (NginxServer, RangeFetcher) throws -> Void) async throws
        -> (fetcher: RangeFetcher, log: [NginxServer.Entry]) {
        let server = try NginxServer()
        defer { server.stop() }
        try server.serve(Self.bytes, as: "episode.mp3")
        let fetcher = try RangeFetcher(location: MediaLocation(server.url(path)), readAhead: 64 * 1024)
        fetcher.start()
        defer { fetcher.close() }
        try body(server, fetcher)
        fetcher.close()
        return (fetcher, await server.settledAccessLog(timeout: .seconds(30)))
    }

    /// Guards against walking `302 → 302 → file` for every Range request (855 requests for one
    /// resume through a tracking prefix, 285 of them for the file).
    @Test func laterRangesGoWhereTheChainEndedAndTheTokenStaysBehind() async throws {
        let (fetcher, log) = try await fetch("/hop1/episode.mp3?token=s3cret") { _, fetcher in
            // Reads far apart: each drops the window and asks where it is.
            for offset in [0, 1 << 20, 2 << 20, 512 << 10, (3 << 20) - 16 * 1024] {
                expectBytes(fetcher, at: offset)
            }
        }
        #expect(fetcher.statistics.redirects == 2)
        let hop1 = log.filter { $0.uri.hasPrefix("/hop1/") }, hop2 = log.filter { $0.uri.hasPrefix("/hop2/") }
        let file = log.filter { $0.uri.hasPrefix("/cdn/") }
        #expect(hop1.count == 1, "\(log)")
        #expect(hop2.count == 1, "\(log)")
        #expect(file.count >= 5 && file.allSatisfy { $0.status == 206 }, "\(log)")
        #expect(hop2.allSatisfy { $0.uri.contains("token=s3cret") }, "the same host's hop keeps the query: \(log)")
        #expect(file.allSatisfy { !$0.uri.contains("token") }, "the token went past the redirect that dropped it: \(log)")
    }

    /// Where the chain ended answers 410 (a signed URL expired): the item's own URL is asked again,
    /// its chain ends somewhere new, and the bytes go on from there.
    @Test func anExpiredEndOfTheChainIsWalkedAgainOnce() async throws {
        let (fetcher, log) = try await fetch("/hop1/episode.mp3") { server, fetcher in
            expectBytes(fetcher, at: 0)
            expectBytes(fetcher, at: 2 << 20)
            try server.expireRedirectTarget()
            expectBytes(fetcher, at: 1 << 20)
            expectBytes(fetcher, at: 512 << 10)
            #expect(fetcher.failure == nil)
        }
        #expect(log.filter { $0.uri.hasPrefix("/hop1/") }.count == 2, "\(log)")
        #expect(log.filter { $0.uri.hasPrefix("/hop2/") }.count == 2, "\(log)")
        #expect(log.filter { $0.uri.hasPrefix("/cdn/") && $0.status == 410 }.count == 1, "\(log)")
        #expect(log.filter { $0.uri.hasPrefix("/cdn2/") }.count >= 2, "\(log)")
        #expect(fetcher.statistics.redirects == 4)
    }

    /// The chain's end is gone for good (the file itself went): one walk again, then the item fails
    /// with the status, not a loop.
    @Test func anEndThatStaysGoneFailsAfterOneMoreWalk() async throws {
        let (_, log) = try await fetch("/hop1/episode.mp3") { server, fetcher in
            expectBytes(fetcher, at: 0)
            try server.remove("episode.mp3")
            try server.expireRedirectTarget()
            var buffer = [UInt8](repeating: 0, count: 1024)
            let got = buffer.withUnsafeMutableBytes { fetcher.read(at: 2 << 20, into: $0) }
            #expect(got == .failed)
            #expect(fetcher.failure == .httpStatus(404, url: server.url("/hop1/episode.mp3")))
        }
        #expect(log.filter { $0.uri.hasPrefix("/hop1/") }.count == 2, "\(log)")
    }
}
