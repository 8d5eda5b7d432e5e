import Testing
import AliciaCurl

@Suite struct ContentRangeTests {
    @Test(arguments: [
        ("bytes 0-99/1000", ContentRange(first: 0, last: 99, total: 1000)),
        ("bytes 100-199/*", ContentRange(first: 100, last: 199, total: nil)),
        ("bytes */1000", ContentRange(first: nil, last: nil, total: 1000)),
        ("  BYTES 5-5/6 ", ContentRange(first: 5, last: 5, total: 6)),
    ])
    func parses(header: String, expected: ContentRange) {
        #expect(ContentRange(header) == expected)
    }

    @Test(arguments: ["", "bytes", "bytes 10-5/100", "bytes 0-100/100", "items 0-1/2", "bytes */*", "bytes a-b/10", "bytes -5/10"])
    func rejects(header: String) {
        #expect(ContentRange(header) == nil)
    }
}
