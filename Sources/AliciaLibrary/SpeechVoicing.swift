#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaLocks
import AliciaSession

/// A text voiced as it is heard (`/api/speak`, alicia-api.md "Playlists and read-aloud"): asked
/// until its first chunk is listed, then played as a growing item (`GrowingParts`) while a thread
/// of its own keeps asking for the chunks after it — about once a second, sooner when what is left
/// of the known chunks runs short (under `shortSeconds`, or the player waits for the next), never
/// more often than every `minimumInterval` — until `ready` ends the growth. `failed` / `empty`
/// after some chunks played ends the item with one line; the queue goes on.
package enum SpeechVoicing {
    /// What is asked of `/api/speak`, as the app asks it: `"<title>.\n\n<body>"` (the backend's
    /// cache key: asked with the body alone, a piece with a title is voiced a second time), and
    /// what kind of text it is.
    package struct Request: Sendable, Equatable {
        package var title: String?
        package var body: String
        package var kind: SpeechKind

        package init(title: String?, body: String, kind: SpeechKind = .synthesis) {
            self.title = title
            self.body = body
            self.kind = kind
        }
    }

    /// How long the first chunk is waited for, asking about once a second.
    package static let firstChunkPatience: Duration = .seconds(60)
    /// How long the chunks after it may keep coming.
    package static let growthPatience: Duration = .seconds(1800)
    package static let interval: Duration = .seconds(1)
    package static let minimumInterval: Duration = .milliseconds(250)
    package static let shortSeconds = 1.5

    /// What voicing a text found before it could play.
    package enum Voiced {
        /// Every chunk is there.
        case ready([PlaylistItem.Chunk])
        /// The chunks so far; the rest come through `growth`, asked for by a thread of its own.
        case growing([PlaylistItem.Chunk], GrowingParts)
    }

    /// Asks `/api/speak` for `text` until its first chunk is listed (or all are, or it cannot be
    /// voiced), then hands what is there; while `streaming`, a thread goes on asking for the rest.
    /// `warn`: where a voicing that stops after some chunks is said (the Studio's status line, not
    /// stderr under its screen); `announce`: say "voicing…" on a terminal's stderr while waiting.
    package static func voice(_ request: Request, title: String, client: BackendClient, stop: () -> Bool = { false },
                              announce: Bool = true, warn: @escaping @Sendable (String) -> Void = { Console.fail($0) })
        -> Result<Voiced, QueueFile.Problem> {
        let deadline = ContinuousClock.now + firstChunkPatience
        var said = false
        var asks = 0
        while true {
            let status: SpeechStatus
            do {
                status = try client.speak(title: request.title, body: request.body, kind: request.kind)
                asks += 1
            } catch {
                return .failure(.init(line: nil, "\(title): \(error.message)"))
            }
            switch status.status {
            case "ready":
                guard !status.chunks.isEmpty else { return .failure(.init(line: nil, "\(title) was voiced as nothing")) }
                return .success(.ready(status.chunks))
            case "failed", "empty":
                return .failure(.init(line: nil, "\(title) cannot be voiced (\(status.status))"))
            case "streaming" where !status.chunks.isEmpty:
                return grow(request, title: title, from: status.chunks, client: client, warn: warn)
            default:
                if announce && !said && Console.stderrIsTerminal {
                    Console.error("alicia-player: voicing \(title)…\n")
                    said = true
                }
                guard !stop() else { return .failure(.init(line: nil, "\(title): stopped while it was being voiced")) }
                guard ContinuousClock.now < deadline else {
                    return .failure(.init(line: nil, "\(title) was not voiced within \(firstChunkPatience)"))
                }
                // As the app asks: every 1.5 s at first, then every 4 s.
                SpeechPollPolicy.app.wait(afterAsks: asks)
            }
        }
    }

    /// `text` as one queue item: all its chunks, or those so far and the rest as they are voiced.
    package static func item(_ request: Request, title: String, reference: String?, client: BackendClient,
                             stop: () -> Bool = { false }, announce: Bool = true,
                             warn: @escaping @Sendable (String) -> Void = { Console.fail($0) }) -> Result<QueueItem, QueueFile.Problem> {
        let chunks: [PlaylistItem.Chunk]
        var growth: GrowingParts?
        switch voice(request, title: title, client: client, stop: stop, announce: announce, warn: warn) {
        case .failure(let problem): return .failure(problem)
        case .success(.ready(let all)): chunks = all
        case .success(.growing(let some, let growing)):
            chunks = some
            growth = growing
        }
        guard let locations = locations(of: chunks, client: client), let first = locations.first else {
            return .failure(.init(line: nil, "\(title) has a chunk path that is not a URL"))
        }
        var item = QueueItem(location: first, title: title, reference: reference)
        if let growth {
            item.growth = growth
        } else {
            item.moreParts = Array(locations.dropFirst())
            item.transcript = SpeechTranscript.cues(chunks: chunks, text: request.body)
            item = OfflineCache.substitute(chunks: chunks.map(\.url), of: item)
        }
        return .success(item)
    }

    /// What a text read aloud is called: its first words (up to about 40 characters).
    package static func title(of text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace)
        var title = ""
        for word in words {
            if !title.isEmpty && title.count + word.count > 40 { return title + "…" }
            title += (title.isEmpty ? "" : " ") + word
        }
        return title
    }

    /// The chunks so far as a growing item's parts, and the thread that asks for the rest.
    private static func grow(_ request: Request, title: String, from chunks: [PlaylistItem.Chunk], client: BackendClient,
                             warn: @escaping @Sendable (String) -> Void) -> Result<Voiced, QueueFile.Problem> {
        guard let locations = locations(of: chunks, client: client) else {
            return .failure(.init(line: nil, "\(title) has a chunk path that is not a URL"))
        }
        let growth = GrowingParts(first: locations, seconds: chunks.map { $0.duration ?? 0 })
        let configuration = client.configuration
        let known = chunks.count
        _ = NativeThread(name: "alicia-voicing") {
            follow(request, title: title, known: known, growth: growth, configuration: configuration, warn: warn)
        }
        return .success(.growing(chunks, growth))
    }

    /// Asks for the chunks after the first `known` until the growth ends.
    private static func follow(_ request: Request, title: String, known: Int, growth: GrowingParts,
                               configuration: BackendConfiguration, warn: @Sendable (String) -> Void) {
        guard let client = try? BackendClient(configuration: configuration) else {
            growth.finish(failure: "no client")
            return
        }
        // An ask in flight ends when the item is done with (left the queue, the player closed).
        client.cancel { growth.state.abandoned }
        let deadline = ContinuousClock.now + growthPatience
        var listed = known
        var misses = 0
        while growth.awaitDemand(interval: interval, minimum: minimumInterval, shortSeconds: shortSeconds) {
            guard ContinuousClock.now < deadline else {
                growth.finish(failure: "stopped")
                return
            }
            let status: SpeechStatus
            do {
                status = try client.speak(title: request.title, body: request.body, kind: request.kind)
                misses = 0
            } catch {
                // A few failed asks in a row end the voicing; one is asked again.
                misses += 1
                if misses >= 5 { end(title, growth: growth, listed: listed, why: error.message, warn: warn) }
                continue
            }
            if status.chunks.count > listed, let more = locations(of: Array(status.chunks[listed...]), client: client) {
                growth.append(more, seconds: status.chunks[listed...].map { $0.duration ?? 0 })
                listed = status.chunks.count
            }
            switch status.status {
            case "ready": growth.finish()
            case "failed", "empty": end(title, growth: growth, listed: listed, why: status.status, warn: warn)
            default: continue
            }
        }
    }

    /// The voicing cannot go on: the item ends after the chunks played, said in one line.
    private static func end(_ title: String, growth: GrowingParts, listed: Int, why: String, warn: @Sendable (String) -> Void) {
        warn("warning: \(title) could not be voiced past chunk \(listed) (\(why)); it ends there")
        growth.finish(failure: why)
    }

    private static func locations(of chunks: [PlaylistItem.Chunk], client: BackendClient) -> [MediaLocation]? {
        let locations = chunks.compactMap { client.mediaLocation(for: $0.url) }
        return locations.count == chunks.count ? locations : nil
    }
}
