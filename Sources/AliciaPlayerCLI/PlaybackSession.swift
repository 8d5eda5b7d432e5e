import AliciaAudio
import AliciaTerminal

/// Plays one stream to its end on a `Player`, showing progress on a terminal and
/// stopping at once on a signal. Shared by `play` and `demo`.
struct PlaybackSession {
    enum Outcome: Equatable {
        case finished
        /// Ended early with this exit status (an error was printed).
        case failed(Int32)
        /// A signal asked to stop; exit with 128 + signal.
        case stopped(signal: Int32)
    }

    let player: Player
    let signals: SignalWatcher
    let options: PlayOptions
    /// The voice-note player, for `--voice-at` triggers and to wait for notes at the end.
    var voiceNotes: VoiceNotes?
    /// Voice notes to queue when the episode reaches their position.
    var triggers: [(at: StartPosition, location: MediaLocation, title: String)] = []

    /// How often the progress line is redrawn on a terminal.
    static let refresh: Duration = .milliseconds(250)

    func play(_ location: MediaLocation) -> Outcome {
        do {
            try player.play(location, from: options.start)
        } catch {
            Console.fail(error.message)
            return .failed(CommandLineTool.Status.failure)
        }
        let progress = Console.stderrIsTerminal ? ProgressDisplay() : nil
        defer { player.stop() }
        var pending = triggers
        var duration: Double?
        while true {
            if let signal = signals.signal {
                voiceNotes?.stop()
                player.stop()
                progress?.finish()
                return .stopped(signal: signal)
            }
            if !pending.isEmpty, let duration {
                let position = player.snapshot().position
                pending.removeAll { trigger in
                    guard Self.seconds(trigger.at, duration: duration) <= position else { return false }
                    voiceNotes?.enqueue(trigger.location, title: trigger.title)
                    return true
                }
            }
            // Triggers are positions of the episode: look at the position often while any wait.
            let timeout: Duration? = !pending.isEmpty ? .milliseconds(20) : (progress == nil ? nil : Self.refresh)
            switch player.nextEvent(timeout: timeout) {
            case .formatKnown(let format):
                duration = format.duration ?? .infinity
                if let status = checkStart(format: format, location: location) {
                    progress?.finish()
                    return .failed(status)
                }
            case .ended(let truncated):
                progress?.show(player.snapshot())
                if let stopped = waitForVoiceNotes(progress: progress) { return stopped }
                progress?.finish()
                if truncated {
                    let played = TimeSpec.clock(player.snapshot().position)
                    Console.fail("\(location.display) is truncated: its header promises more audio than it holds (played \(played))")
                    return .failed(CommandLineTool.Status.failure)
                }
                return .finished
            case .failed(let error):
                progress?.finish()
                Console.fail(error.message)
                return .failed(CommandLineTool.Status.failure)
            case .stateChanged, .seeked, nil:
                break
            }
            progress?.show(player.snapshot(), voice: voiceNotes?.nowPlaying.title)
        }
    }

    /// The episode has ended: notes still playing or queued play to their end.
    private func waitForVoiceNotes(progress: ProgressDisplay?) -> Outcome? {
        guard let voiceNotes else { return nil }
        while !voiceNotes.waitUntilIdle(timeout: Self.refresh) {
            if let signal = signals.signal {
                voiceNotes.stop()
                progress?.finish()
                return .stopped(signal: signal)
            }
            progress?.show(player.snapshot(), voice: voiceNotes.nowPlaying.title)
        }
        return nil
    }

    static func seconds(_ position: StartPosition, duration: Double) -> Double {
        switch position {
        case .seconds(let seconds): return seconds
        case .fraction(let fraction): return fraction * duration
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

    static func status(of outcome: Outcome) -> Int32 {
        switch outcome {
        case .finished: return CommandLineTool.Status.success
        case .failed(let status): return status
        case .stopped(let signal): return 128 + signal
        }
    }
}

/// The progress line on a terminal: redrawn in place, cleared at the end.
final class ProgressDisplay {
    private var shown = false

    func show(_ snapshot: PlayerSnapshot, voice: String? = nil) {
        let width = Console.stderrColumns ?? 80
        var line = ProgressLine.render(snapshot, width: voice == nil ? width : max(20, width - 24))
        if let voice { line += "  🎙 " + DisplayWidth.pad(voice, to: 18) }
        Console.error("\r" + line + "\u{1B}[K")
        shown = true
    }

    func finish() {
        if shown { Console.error("\n") }
        shown = false
    }
}
