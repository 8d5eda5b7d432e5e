import AliciaAudio
import AliciaSession
import AliciaSubscriptions

/// A station list on the web, as radio sites link them: a `.pls`, `.m3u` or `.m3u8` over http(s).
/// It is fetched (at most 64 KiB, within 15 s) and its streams play in order: a station's mirrors,
/// the next one taking over when one cannot be reached. A list from the network names only
/// http(s) URLs: nothing in it can make the player read a local file or ask the backend.
enum StationList {
    /// Whether `reference` is one: an http(s) URL whose path ends in a list's extension.
    static func names(_ reference: String) -> Bool {
        let lower = reference.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return false }
        let path = lower.split(separator: "#", maxSplits: 1).first?.split(separator: "?", maxSplits: 1).first ?? ""
        return [".pls", ".m3u", ".m3u8"].contains { path.hasSuffix($0) }
    }

    static let limit = 64 * 1024

    /// The list's streams as queue items (live: no place kept), or one line saying why not.
    static func items(_ url: String) -> Result<[QueueItem], QueueFile.Problem> {
        var fetcher = FeedFetcher()
        fetcher.limit = limit
        fetcher.timeoutMilliseconds = 15_000
        let shown = RedactedURL.redact(url)
        let bytes: [UInt8]
        switch fetcher.fetch([FeedRequest(url: url)]).first {
        case .document(let body)?: bytes = body.bytes
        case .failed(let reason, _)?: return .failure(.init(line: nil, "\(shown): \(reason)"))
        default: return .failure(.init(line: nil, "\(shown): no list came back"))
        }
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        if text.contains("#EXT-X-") {
            return .failure(.init(line: nil, "\(shown) is an HLS playlist (segments, not a station list): not supported"))
        }
        let file = QueueFile.parse(bytes)
        if let problem = file.problems.first {
            return .failure(.init(line: nil, "\(shown)" + (problem.line.map { ", line \($0)" } ?? "") + ": \(problem.message)"))
        }
        var items: [QueueItem] = []
        for line in file.lines {
            let lower = line.reference.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), let location = try? MediaLocation(line.reference) else {
                return .failure(.init(line: line.number, "\(shown), line \(line.number): not an http(s) URL (a list from the network names only streams)"))
            }
            items.append(QueueItem(location: location, title: line.title ?? location.fileName))
        }
        guard !items.isEmpty else { return .failure(.init(line: nil, "\(shown): the list names nothing to play")) }
        return .success(items)
    }
}
