#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaHost
import AliciaLocks
import AliciaRender
import AliciaSession

/// `render`'s own options: the file to make and how hard its encoder works.
public struct RenderOptions: Equatable, Sendable {
    public var output: String?
    public var bitrate: Int?
    public var quality: Int?
    /// `--script FILE`: the queue a script builds.
    public var script: String?

    public init() {}
}

/// `alicia-player render REF… -o FILE`: the queue `play` would make, played into a file as fast as
/// it decodes, with what shapes listening applied and a chapter per item.
final class RenderCommand {
    private let options: PlayOptions
    private let format: RenderFormat
    private let output: String
    private let script: String?

    init(options: PlayOptions, render: RenderOptions, format: RenderFormat) {
        self.options = options
        self.format = format
        output = render.output ?? ""
        script = render.script
    }

    func run() -> Int32 {
        // A path that cannot be written is said before anything is fetched.
        if let problem = Renderer.check(output: output) {
            Console.fail(problem.message)
            return ExitCode.usage
        }
        let signals = SignalWatcher()
        let items: [QueueItem]
        if let script {
            switch ScriptCommand(path: script, checkOnly: true, options: options).queue() {
            case .success(let listed): items = listed
            case .failure(let failure): return failure.status
            }
        } else {
            switch PlayCommand(options: options).queueItems(signals: signals) {
            case .success(let listed): items = listed
            case .failure(let status): return status
            }
        }
        guard !items.isEmpty else {
            Console.fail("nothing to render: the list is empty")
            return ExitCode.usage
        }
        var request = RenderRequest(items: items, output: output, format: format)
        request.start = options.start
        request.speed = options.speed
        request.silenceSkipping = options.skipSilence
        request.loudness = options.loudness ?? SessionSetup.defaultLoudness()
        request.configuration.readAheadSeconds = options.readAheadSeconds
        // Nobody hears a render as it goes: every local file is measured whole before it starts.
        request.configuration.wholeMeasureLimit = nil
        request.configuration.network = options.network
        request.title = options.references.count == 1 && options.references[0].hasPrefix("playlist:")
            ? String(options.references[0].dropFirst("playlist:".count)) : nil
        let progress = RenderProgress(onTerminal: isatty(2) == 1)
        let result = Renderer.run(request, stopRequested: { signals.signal != nil }) { event in
            switch event {
            case .progress(let written, let expected): progress.show(written: written, expected: expected)
            case .itemFailed(let title, let error):
                progress.clear()
                Console.fail("render: \(title) skipped: \(error.message)")
            }
        }
        progress.clear()
        switch result {
        case .failure(let problem):
            Console.fail(problem.message)
            return signals.signal.map { 128 + $0 } ?? ExitCode.failure
        case .success(let summary):
            Console.out("rendered \(output): \(TimeSpec.clock(summary.seconds)), \(summary.chapters.count) chapter\(summary.chapters.count == 1 ? "" : "s")\n")
            return summary.failedItems > 0 ? ExitCode.failure : ExitCode.success
        }
    }
}

/// The render's progress on a terminal (one line, redrawn a few times a second, with the time
/// left); nothing on a pipe.
final class RenderProgress {
    private let onTerminal: Bool
    private let began = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?
    private var drawn = false

    init(onTerminal: Bool) {
        self.onTerminal = onTerminal
    }

    func show(written: Double, expected: Double?) {
        guard onTerminal else { return }
        let now = ContinuousClock.now
        if let lastDrawn, now - lastDrawn < .milliseconds(200) { return }
        lastDrawn = now
        let elapsed = Double((now - began).components.seconds) + Double((now - began).components.attoseconds) / 1e18
        var line = "rendering \(TimeSpec.clock(written))"
        if let expected, expected > 0 {
            let share = min(1, written / expected)
            let width = 20
            let filled = Int(share * Double(width))
            line += " of \(TimeSpec.clock(expected)) [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
            if share > 0.01, elapsed > 0.5 { line += " \(TimeSpec.clock(elapsed / share - elapsed)) left" }
        }
        if elapsed > 0.5 { line += " (\(Int(written / elapsed))x)" }
        Console.error("\r" + line + "\u{1B}[K")
        drawn = true
    }

    func clear() {
        guard drawn else { return }
        Console.error("\r\u{1B}[K")
        drawn = false
    }
}
