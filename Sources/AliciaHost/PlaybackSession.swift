#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaLocks
import AliciaSession
import AliciaTerminal
import AliciaLibrary

/// `play` and `queue` off the Studio: plays a queue to its end on a `SessionHost`, showing
/// progress on a terminal. What it gives the host: the progress line, and what it says of notices.
package final class PlaybackFrontEnd: HostedFrontEnd {
    private let host: SessionHost
    private let options: PlayOptions
    private let queueCount: Int
    private let progress: ProgressDisplay?
    private var status = ExitCode.success
    private var checkedStart: Bool
    /// When the code that ran only to start is to leave the resident set (monotonic seconds): a
    /// moment after the first item started, once its first audio is out (nil: not yet started, or
    /// done).
    private var startupReleaseDue: Double?
    private var startupCodeReleased = false
    /// How long after the first item started its start-up code is released: past its first audio
    /// (released at once, it was faulted back in by the threads writing that audio).
    static let startupReleaseDelay = 0.5
    /// When the progress line was drawn last (monotonic seconds).
    private var drawnAt = 0.0

    /// How often the progress line is redrawn on a terminal.
    package static let refresh = 0.25

    package init(host: SessionHost, queueCount: Int) {
        self.host = host
        options = host.options
        self.queueCount = queueCount
        progress = Console.stderrIsTerminal ? ProgressDisplay() : nil
        checkedStart = options.start == nil
    }

    /// Plays `items` (with `cues`: voice notes at positions of the first) to the end; the exit status.
    package static func play(_ items: [QueueItem], cues: [VoiceCue] = [], host: SessionHost) -> Int32 {
        // Start-up code leaves the resident set half a second after the first item starts (`turn`),
        // not here: released before the first audio, the code that opens the item and the stream
        // faulted straight back in on its path (DECISIONS.md, "Start-up code leaves the resident set").
        let options = host.options
        host.session.perform(.load(LoadPlan(items, start: options.start, loop: options.loop ? .queue : .off,
                                            shuffle: options.shuffle, voiceCues: cues)))
        let frontEnd = PlaybackFrontEnd(host: host, queueCount: items.count)
        // From a download's thread: on a terminal the line clears the progress line first.
        let clear = Console.stderrIsTerminal ? "\r\u{1B}[K" : ""
        host.start { Console.error(clear + "alicia-player: warning: " + $0 + "\n") }
        let status = host.run(frontEnd)
        frontEnd.progress?.finish()
        return status
    }

    package var descriptors: [Int32] { [] }

    package func deadline() -> Double? {
        [progress == nil ? nil : drawnAt + Self.refresh, startupReleaseDue].compactMap { $0 }.min()
    }

    package func turn(_ notices: [SessionNotice], readable: Set<Int32>, signals: [Int32]) -> Int32? {
        for notice in notices {
            if let ended = take(notice) { return ended }
        }
        if host.signals.signal != nil { return nil }
        if let due = startupReleaseDue, MonotonicClock.seconds() >= due {
            // Playing: what ran only to open the item and the stream leaves the resident set too,
            // with the pages the loader read to relocate the libraries (their symbol tables).
            startupReleaseDue = nil
            ResidentMemory.releaseStartupCode()
            ResidentMemory.releaseLoadedLibraryPages()
        }
        if host.session.isFinished {
            // The line ends on the final state, not on the last second drawn while playing.
            progress?.finish(with: host.session.view.snapshot())
            if let quit = host.session.quitRequested, quit != 0 { return quit }
            return status
        }
        if let progress {
            progress.show(host.session.view.snapshot(), voice: host.session.view.voice.title)
            drawnAt = MonotonicClock.seconds()
        }
        return nil
    }

    /// What a notice changes; an exit status when it ends the command.
    private func take(_ notice: SessionNotice) -> Int32? {
        switch notice {
        case .started where !startupCodeReleased:
            startupCodeReleased = true
            startupReleaseDue = MonotonicClock.seconds() + Self.startupReleaseDelay
        case .opened(_, let item, let format) where !checkedStart:
            checkedStart = true
            if let failed = Self.checkStart(options, format: format, item: item) {
                progress?.finish()
                return failed
            }
        case .failed(_, let item, let error):
            checkedStart = true
            say(Self.failureLine(error, item: item, queueCount: queueCount))
            status = ExitCode.failure
        case .finished(_, let item?, _) where item.growth?.state.failure != nil:
            // A synthesis that stopped partway: what was voiced played, its line was said; a script
            // can tell from the status.
            status = ExitCode.failure
        case .finished(_, let item?, truncated: true):
            let played = TimeSpec.clock(host.session.view.snapshot().position)
            // Said as what happened: the audio stopped before the length the file gave (its header,
            // or its size when it was opened); why is the listener's to know (still being written, cut short).
            say("\(item.location.display) ended at \(played), before the length its header gave: truncated, or still being written")
            status = ExitCode.failure
        case .voice(.failed(let title, let error)):
            say("voice note \(title): \(error.message)")
        case .outputMoved(let move):
            say(Self.movedLine(move))
        case .alicia(.failed(_, _, let message)):
            say(message)
        case .asleep:
            // Off the Studio nobody is there to resume: the command ends after the fade.
            progress?.finish()
            return status
        default:
            break
        }
        return nil
    }

    private func say(_ line: String) {
        progress?.finish()
        Console.fail(line)
    }

    /// What is said when the output moves: playback goes on, on another sink.
    package static func movedLine(_ move: SinkMove) -> String {
        "sink '\(move.from)' is gone (or the stream was moved): playing on '\(move.to)'"
    }

    /// What is said when an item cannot be played: its error, after its title when the queue has others.
    package static func failureLine(_ error: PlaybackError, item: QueueItem?, queueCount: Int) -> String {
        if queueCount > 1, let item { return "\(item.title): \(error.message)" }
        return error.message
    }

    /// A `--start` past the end is a mistake worth saying (exit 2), not a silent exit.
    package static func checkStart(_ options: PlayOptions, format: AudioFormat, item: QueueItem) -> Int32? {
        guard case .seconds(let seconds)? = options.start, let duration = format.duration, seconds > duration else {
            return nil
        }
        Console.fail("--start \(options.startText ?? "") is past the end of \(item.location.display) (\(TimeSpec.clock(duration)) long)")
        return ExitCode.usage
    }
}

/// The progress line on a terminal: redrawn in place, cleared at the end.
package final class ProgressDisplay {
    private var shown = false

    package func show(_ snapshot: PlayerSnapshot, voice: String? = nil) {
        let width = Console.stderrColumns ?? 80
        var line = ProgressLine.render(snapshot, width: voice == nil ? width : max(20, width - 24))
        if let voice { line += "  🎙 " + DisplayWidth.pad(voice, to: 18) }
        Console.error("\r" + line + "\u{1B}[K")
        shown = true
    }

    /// Ends the line (drawn once more as `snapshot`, when given) and goes to the next.
    package func finish(with snapshot: PlayerSnapshot? = nil) {
        if shown, let snapshot { show(snapshot) }
        if shown { Console.error("\n") }
        shown = false
    }
}
