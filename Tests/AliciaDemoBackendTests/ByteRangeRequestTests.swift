@testable import AliciaDemoBackend
import Testing

/// Range header parsing and resolution (RFC 9110 §14), against a 1000-byte body.
@Suite("ByteRangeRequest")
struct ByteRangeRequestTests {
    @Test("valid ranges resolve to the bytes served", arguments: [
        ("bytes=0-99", 0...99),
        ("bytes=0-0", 0...0),
        ("bytes=500-", 500...999),
        ("bytes=999-", 999...999),
        ("bytes=-1", 999...999),
        ("bytes=-100", 900...999),
        ("bytes=-5000", 0...999),
        ("bytes=900-5000", 900...999),
        ("bytes=100-199,300-399", 100...199),
        ("bytes=2000-3000,10-19", 10...19),
        ("Bytes = 10-19", 10...19),
        ("bytes= 10-19 , 30-39", 10...19),
    ])
    func partial(header: String, expected: ClosedRange<Int>) {
        #expect(ByteRangeRequest(header: header, length: 1000) == .partial(expected))
    }

    @Test("ranges entirely past the end are unsatisfiable", arguments: [
        "bytes=1000-", "bytes=1000-2000", "bytes=-0", "bytes=5000-6000,7000-", "bytes=99999999999999999999999-",
    ])
    func unsatisfiable(header: String) {
        #expect(ByteRangeRequest(header: header, length: 1000) == .unsatisfiable)
    }

    @Test("headers that are not a bytes range set are ignored", arguments: [
        nil, "", "bytes", "bytes=", "items=0-1", "bytes=a-b", "bytes=5-1", "bytes=1-2,x", "bytes=-", "bytes=--1", "bytes=+1-2", "bytes=0x10-",
    ])
    func ignored(header: String?) {
        #expect(ByteRangeRequest(header: header, length: 1000) == .whole)
    }

    @Test("an empty body has no satisfiable range")
    func emptyBody() {
        #expect(ByteRangeRequest(header: "bytes=0-", length: 0) == .unsatisfiable)
        #expect(ByteRangeRequest(header: "bytes=-5", length: 0) == .unsatisfiable)
    }
}
