import Testing
@testable import AliciaDemoBackend

/// `If-Range` dates as the demo backend reads them.
@Suite struct HTTPDateTests {
    @Test func anIMFFixdateReadsBackAsWritten() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    /// Regression: a year of -2147483648 overflowed `year - 1900` and ended the server.
    @Test(arguments: [
        "Wed, 01 Jan -2147483648 00:00:00 GMT", "Wed, 01 Jan 2147483647 00:00:00 GMT", "Wed, 00 Jan 2025 00:00:00 GMT",
        "Wed, 32 Jan 2025 00:00:00 GMT", "Wed, 01 Jan 2025 24:00:00 GMT", "Wed, 01 Jan 2025 00:60:00 GMT",
        "Wed, 01 Jan 2025 00:00:61 GMT", "Wed, 01 Foo 2025 00:00:00 GMT", "Wed, 01 Jan 2025 00:00:00 UTC",
    ])
    func fieldsOutOfTheirRangesAreNoDate(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
