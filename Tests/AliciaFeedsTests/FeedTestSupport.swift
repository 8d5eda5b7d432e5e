#if canImport(Glibc)
import Glibc
#endif
import AliciaFeeds
import Testing

/// A reading the test did not expect (a page where a feed was wanted, …).
struct Unexpected: Error, CustomStringConvertible {
    let description: String
}

/// The time the tests read at: 2027-01-15, after every date in the fixtures.
let testNow: Int64 = 1_800_000_000

/// `xml` read as a feed from `url`; throws when it is anything else.
func readFeed(_ xml: String, url: String = "https://example.com/feed.xml", contentType: String? = nil,
              now: Int64 = testNow) throws -> Feed {
    try readFeed(bytes: Array(xml.utf8), url: url, contentType: contentType, now: now)
}

func readFeed(bytes: [UInt8], url: String = "https://example.com/feed.xml", contentType: String? = nil,
              now: Int64 = testNow) throws -> Feed {
    let document = try FeedDocument.read(bytes, url: url, contentType: contentType, now: now).get()
    guard case .feed(let feed) = document else { throw Unexpected(description: "not a feed: \(document)") }
    return feed
}

/// The one item of `xml`.
func readItem(_ xml: String, url: String = "https://example.com/feed.xml") throws -> FeedItem {
    let feed = try readFeed(xml, url: url)
    guard feed.items.count == 1, let item = feed.items.first else { throw Unexpected(description: "\(feed.items.count) items") }
    return item
}

/// An RSS 2.0 feed with the usual podcast namespaces declared, around `items` (and `channel`).
func rss(_ items: String, channel: String = "<title>Show</title>", declarations: String = "") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
         xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
         xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/" \(declarations)>
    <channel>\(channel)
    \(items)
    </channel>
    </rss>
    """
}

/// The fixture files of Tests/AliciaFeedsTests/Fixtures.
enum Fixture {
    static let directory = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")) + "/Fixtures"

    static func bytes(_ name: String) throws -> [UInt8] {
        try contents(of: directory + "/" + name)
    }

    static func contents(of path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw Unexpected(description: "cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            bytes += chunk[0..<count]
            if count < chunk.count { return bytes }
        }
    }
}

/// The process's peak resident memory, in bytes (getrusage's ru_maxrss).
func peakResidentBytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
}

/// Monotonic seconds.
func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
