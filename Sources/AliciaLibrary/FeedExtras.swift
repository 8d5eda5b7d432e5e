import AliciaAudio
import AliciaCurl
import AliciaFeeds
import AliciaJSON
import AliciaLocks

/// A feed episode's `podcast:chapters` and `podcast:transcript`, fetched when the episode is
/// queued and kept in `cacheDirectory` (one file a URL, named by its hash): a second play reads
/// them from disk. Each is at most 4 MiB, over http(s) only, within 10 s; one that cannot be had
/// leaves the item without chapters or a transcript (a line in the log), never without audio.
struct FeedExtras {
    let cacheDirectory: String?

    static let byteLimit = 4 << 20

    func chapters(_ url: String) -> [Chapter] {
        guard let bytes = fetch(url) else { return [] }
        guard let chapters = ChaptersFile.chapters(json: bytes) else {
            Log.warning(.fetch, "feed chapters at \(URLRedaction.redact(url)) are not a chapters file")
            return []
        }
        return chapters
    }

    func transcript(_ url: String, type: String) -> [TranscriptCue] {
        guard let bytes = fetch(url) else { return [] }
        do {
            return try Transcript.parse(bytes, as: Self.form(type: type, url: url))
        } catch {
            Log.warning(.fetch, "feed transcript at \(URLRedaction.redact(url)): \(error.message)")
            return []
        }
    }

    /// WebVTT, SubRip or JSON, by the MIME type the feed gives, else the URL's extension.
    static func form(type: String, url: String) -> Transcript.Form {
        let lower = type.lowercased()
        if lower.contains("srt") || lower.contains("subrip") { return .subRip }
        if lower.contains("json") { return .json }
        if lower.contains("vtt") { return .webVTT }
        let path = url.lowercased().prefix { $0 != "?" && $0 != "#" }
        if path.hasSuffix(".srt") { return .subRip }
        if path.hasSuffix(".json") { return .json }
        return .webVTT
    }

    /// The transcript for a listener whose language is `language`, from the JSON the library keeps
    /// (`EpisodeInfo.transcripts`), by `FeedTranscript.preferred` (the language, then the format).
    static func preferredTranscript(_ stored: String?, language: String?) -> FeedTranscript? {
        guard let stored, case .array(let items)? = JSONValue(parsing: Array(stored.utf8)) else { return nil }
        let transcripts = items.compactMap { item -> FeedTranscript? in
            guard case .string(let url)? = item["url"] else { return nil }
            func text(_ key: String) -> String? {
                if case .string(let value)? = item[key] { return value }
                return nil
            }
            return FeedTranscript(url: url, type: text("type") ?? "", language: text("language"), rel: text("rel"))
        }
        return transcripts.preferred(language: language)
    }

    /// The bytes at `url`, from the cache or fetched (and then cached); nil when they cannot be had.
    private func fetch(_ url: String) -> [UInt8]? {
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else { return nil }
        let cached = cacheDirectory.map { $0 + "/" + Self.name(url) }
        if let cached, case .success(let bytes) = AtomicFile.read(cached, limit: Self.byteLimit) { return bytes }
        guard let bytes = Self.get(url) else { return nil }
        if let cached { _ = AtomicFile.write(bytes, to: cached, mode: 0o600, makeDirectories: true) }
        return bytes
    }

    private static func get(_ url: String) -> [UInt8]? {
        guard let easy = try? CurlEasy() else { return nil }
        easy.apply(HTTPPolicy())
        easy.acceptCompressed()
        easy.limitTotalTime(milliseconds: 10_000)
        easy.setURL(url)
        let body = Locked<[UInt8]>([])
        easy.onBody { bytes in
            body.withLock { body in
                guard body.count + bytes.count <= byteLimit else { return 0 }
                body.append(contentsOf: bytes)
                return bytes.count
            }
        }
        if let failure = easy.perform() {
            Log.warning(.fetch, "\(URLRedaction.redact(url)): \(failure.message)")
            return nil
        }
        guard (200..<300).contains(easy.responseCode) else {
            Log.warning(.fetch, "\(URLRedaction.redact(url)): HTTP \(easy.responseCode)")
            return nil
        }
        return body.withLock { $0 }
    }

    /// FNV-1a of the URL, 16 hex digits: a file name that says nothing of the URL.
    static func name(_ url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
