#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaLocks

/// What to render, and how it should sound: everything that shapes listening, as `play` has it.
public struct RenderRequest: Sendable {
    public var items: [QueueItem]
    /// The file to make (its extension names the format).
    public var output: String
    public var format: RenderFormat
    /// Where the first item begins.
    public var start: StartPosition?
    public var speed = 1.0
    public var silenceSkipping: SilenceSkipping = .off
    public var loudness: LoudnessMatching = .off
    public var configuration = PlayerConfiguration()
    /// The file's title (a playlist's name); nil: the first item's.
    public var title: String?

    public init(items: [QueueItem], output: String, format: RenderFormat) {
        self.items = items
        self.output = output
        self.format = format
    }
}

/// What a render says while it runs.
public enum RenderEvent: Sendable, Equatable {
    /// Seconds of the output written, and the output's expected length when known.
    case progress(written: Double, expected: Double?)
    /// An item could not be played; the render goes on without it.
    case itemFailed(title: String, error: PlaybackError)
}

/// What a finished render made.
public struct RenderSummary: Sendable, Equatable {
    public var seconds: Double
    public var chapters: [RenderedChapter]
    public var failedItems: Int
}

/// A queue played into a file, as fast as it decodes and encodes: a player on a fixed-format
/// output whose frames go to the encoder, the chapters placed by the spans it wrote, the file made
/// beside its name and renamed into place only when whole.
public enum Renderer {
    /// Why `request` cannot be rendered before anything is fetched (nil: it can).
    public static func check(output path: String) -> RenderProblem? {
        let directory = OutputFiles.directory(of: path)
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            return RenderProblem("\(path) is a directory: give render a file name (-o episode.opus)")
        }
        guard stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            return RenderProblem("\(path): no such directory '\(directory)'")
        }
        guard access(directory, W_OK) == 0 else { return RenderProblem("\(path): the directory '\(directory)' cannot be written to") }
        return nil
    }

    public static func run(_ request: RenderRequest, stopRequested: @escaping () -> Bool,
                           report: (RenderEvent) -> Void) -> Result<RenderSummary, RenderProblem> {
        let files = OutputFiles(request.output)
        let encoder = EncoderSlot(path: files.encoded, format: request.format)
        defer { files.removeLeftovers() }
        let player = Player(configuration: request.configuration, output: .stream(fix: request.format.outputFormat, consume: encoder.write))
        defer { player.stop() }
        let events = player.subscribe()
        _ = player.setSpeed(request.speed)
        player.setSilenceSkipping(request.silenceSkipping)
        player.setLoudness(request.loudness)
        player.play(request.items, at: 0, from: request.start)
        guard let failed = follow(player, events, encoder: encoder, speed: request.speed, stopRequested: stopRequested, report: report) else {
            _ = encoder.close()
            return .failure(RenderProblem("stopped: \(request.output) was not made"))
        }
        let timeline = player.timeline()
        let titles = Dictionary(player.queue.entries.map { ($0.id, title(of: $0.item, timeline.metadata[$0.id])) }) { first, _ in first }
        player.stop()
        if let problem = encoder.close() { return .failure(problem) }
        guard let format = encoder.format, encoder.frames > 0 else {
            return .failure(RenderProblem("nothing was rendered: \(failed == 0 ? "the queue held no audio" : "every item failed")"))
        }
        var tags = fileTags(request, timeline: timeline, titles: titles)
        tags.chapters = RenderedChapters.make(timeline, titles: titles, rate: format.sampleRate, totalFrames: encoder.frames)
        if let problem = files.finish(request.format.kind, tags: tags) { return .failure(problem) }
        return .success(RenderSummary(seconds: Double(encoder.frames) / Double(format.sampleRate), chapters: tags.chapters,
                                      failedItems: failed))
    }

    /// Follows the player to the end of its queue, reporting progress and failed items; nil when a
    /// stop was asked for.
    private static func follow(_ player: Player, _ events: PlayerSubscription, encoder: EncoderSlot, speed: Double,
                               stopRequested: () -> Bool, report: (RenderEvent) -> Void) -> Int? {
        var failed = 0
        var lengths: [QueueEntryID: Double] = [:]
        let count = player.queue.entries.count
        while true {
            if stopRequested() { return nil }
            let event = events.next(timeout: .milliseconds(250))
            switch event?.kind {
            case .queueEnded?, .stopped?: return failed
            case .failed(let error)?:
                failed += 1
                let title = event?.entry.flatMap { id in player.queue.entries.first { $0.id == id }?.item.title } ?? "an item"
                report(.itemFailed(title: title, error: error))
            case .formatKnown(let format)?:
                if let entry = event?.entry, let frames = format.frames { lengths[entry] = Double(frames) / Double(format.sampleRate) }
            default: break
            }
            let expected = lengths.count + failed >= count ? lengths.values.reduce(0, +) / speed : nil
            report(.progress(written: encoder.seconds, expected: expected))
        }
    }

    /// An item's chapter title: what the backend or a feed calls it; for a file known only by its
    /// name, its own title tag.
    static func title(of item: QueueItem, _ metadata: ItemMetadata?) -> String {
        if item.title == item.location.fileName, let tagged = metadata?.tags.title, !tagged.isEmpty { return tagged }
        return item.title
    }

    private static func fileTags(_ request: RenderRequest, timeline: OutputTimeline, titles: [QueueEntryID: String]) -> RenderTags {
        let first = timeline.spans.first?.entry
        let firstTags = first.flatMap { timeline.metadata[$0]?.tags }
        let title = request.title ?? first.flatMap { titles[$0] } ?? "alicia-player"
        return RenderTags(title: title, album: firstTags?.album ?? request.title ?? title, artist: firstTags?.artist,
                          coverPath: firstTags?.coverArt)
    }
}

/// The encoder, opened by the first frames (whose format the player decides), shared with the
/// player's thread.
final class EncoderSlot: Sendable {
    private let path: String
    private let render: RenderFormat
    private let state = Locked<(encoder: FileEncoder?, problem: RenderProblem?)>((nil, nil))

    init(path: String, format: RenderFormat) {
        self.path = path
        self.render = format
    }

    /// What the output device hands on.
    var write: StreamSink.Consumer {
        { [self] bytes, format in
            let encoder = state.withLock { s -> FileEncoder? in
                if s.encoder == nil, s.problem == nil {
                    do throws(RenderProblem) { s.encoder = try FileEncoder(path: path, format: format, render: render) } catch { s.problem = error }
                }
                return s.encoder
            }
            guard let encoder else {
                return .audioOutput(reason: state.withLock { $0.problem?.message } ?? "\(path): the encoder did not open")
            }
            return encoder.write(bytes)
        }
    }

    var format: AudioFormat? { state.withLock { $0.encoder?.format } }
    var frames: Int64 { state.withLock { $0.encoder?.frames } ?? 0 }
    var seconds: Double { state.withLock { s in s.encoder.map { Double($0.frames) / Double($0.format.sampleRate) } } ?? 0 }

    func close() -> RenderProblem? {
        let (encoder, problem) = state.withLock { ($0.encoder, $0.problem) }
        return encoder?.close() ?? problem
    }
}
