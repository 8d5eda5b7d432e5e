import AliciaAudio

/// `alicia-player play`: plays one stream to its end.
struct PlayCommand {
    let options: PlayOptions

    /// How often the progress line is redrawn on a terminal.
    static let refresh: Duration = .milliseconds(250)

    func run() -> Int32 {
        let signals = SignalWatcher()
        let location: MediaLocation
        do {
            location = try MediaLocation(options.reference)
        } catch {
            switch error {
            case .empty: Console.fail("play needs a URL or a path")
            case .unsupportedScheme(let scheme): Console.fail("cannot play \(scheme):// links: use http://, https://, file:// or a path")
            }
            return CommandLineTool.Status.usage
        }
        var configuration = PlayerConfiguration(device: options.device)
        configuration.readAheadSeconds = options.readAheadSeconds
        configuration.mediaName = mediaName(location)
        let player = Player(configuration: configuration)
        signals.whenSignalled { player.wakeEventWaiters() }
        do {
            try player.play(location, from: options.start)
        } catch {
            Console.fail(error.message)
            return CommandLineTool.Status.failure
        }
        let progress = Console.stderrIsTerminal ? ProgressDisplay() : nil
        defer { player.stop() }
        while true {
            if let signal = signals.signal {
                player.stop()
                progress?.finish()
                return 128 + signal
            }
            let event = player.nextEvent(timeout: progress == nil ? nil : Self.refresh)
            switch event {
            case .formatKnown(let format):
                if let status = checkStart(format: format, location: location) {
                    progress?.finish()
                    return status
                }
            case .ended(let truncated):
                progress?.show(player.snapshot())
                progress?.finish()
                if truncated {
                    let played = TimeSpec.clock(player.snapshot().position)
                    Console.fail("\(location.display) is truncated: its header promises more audio than it holds (played \(played))")
                    return CommandLineTool.Status.failure
                }
                return CommandLineTool.Status.success
            case .failed(let error):
                progress?.finish()
                Console.fail(error.message)
                return CommandLineTool.Status.failure
            case .stateChanged, .seeked, nil:
                break
            }
            progress?.show(player.snapshot())
        }
    }

    /// A `--start` past the end is a mistake worth saying, not a silent exit.
    private func checkStart(format: AudioFormat, location: MediaLocation) -> Int32? {
        guard case .seconds(let seconds)? = options.start, let duration = format.duration, seconds > duration else {
            return nil
        }
        Console.fail("--start \(options.startText ?? "") is past the end of \(location.display) (\(TimeSpec.clock(duration)) long)")
        return CommandLineTool.Status.usage
    }

    /// The stream's name in mixers: the file name, without its query.
    private func mediaName(_ location: MediaLocation) -> String {
        let path = location.display.split(separator: "?").first.map(String.init) ?? location.display
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return MediaLocation.percentDecoded(name)
    }
}

/// The progress line on a terminal: redrawn in place, cleared at the end.
final class ProgressDisplay {
    private var shown = false

    func show(_ snapshot: PlayerSnapshot) {
        let width = Console.stderrColumns ?? 80
        Console.error("\r" + ProgressLine.render(snapshot, width: width) + "\u{1B}[K")
        shown = true
    }

    func finish() {
        if shown { Console.error("\n") }
        shown = false
    }
}
