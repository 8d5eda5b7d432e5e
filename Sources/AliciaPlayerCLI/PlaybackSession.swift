#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaControl
import AliciaSession
import AliciaTerminal

/// Plays a queue to its end through a `ListeningSession`, showing progress on a terminal and
/// stopping at once on a signal. The loop of `play` and `voice` off the Studio.
struct PlaybackSession {
    enum Outcome: Equatable {
        case finished
        /// Ended with this exit status (an error was printed).
        case failed(Int32)
        /// A signal asked to stop; exit with 128 + signal.
        case stopped(signal: Int32)
    }

    let session: ListeningSession
    let signals: SignalWatcher
    let options: PlayOptions

    /// How often the progress line is redrawn on a terminal.
    static let refresh: Duration = .milliseconds(250)

    func play(_ items: [QueueItem], voiceAt cues: [(at: StartPosition, location: MediaLocation, title: String)] = []) -> Outcome {
        let waker = session.waker
        signals.whenSignalled { waker() }
        // Before the buffers fill: what ran to get here (the command line, the backend, libcurl's
        // and OpenSSL's start) leaves the resident set, so the peak is not start-up plus playing.
        ResidentMemory.releaseStartupCode(preparingHTTP: items.contains { !$0.location.isFile })
        let listener: ControlSocket.Listener?
        switch RemoteControl.listen(options) {
        case .success(let bound): listener = bound
        case .failure(let failure):
            session.close()
            return .failed(failure.status)
        }
        session.play(items, from: options.start, loop: options.loop ? .queue : .off, shuffle: options.shuffle)
        if !cues.isEmpty { session.setVoiceCues(cues) }
        let progress = Console.stderrIsTerminal ? ProgressDisplay() : nil
        defer { session.close() }
        // Closed first (defers run last to first): clients hear `end-file` (quit) and `shutdown`.
        let remote = options.noIPC ? nil : RemoteControl.serve(session, listener: listener, options: options)
        defer { remote?.close() }
        // From a download's thread: on a terminal the line clears the progress line first.
        let clear = Console.stderrIsTerminal ? "\r\u{1B}[K" : ""
        let downloads = AutoDownloader.start(options.autoDownload, player: session.player) { Console.error(clear + "alicia-player: warning: " + $0 + "\n") }
        defer { downloads?.close() }
        var status = CommandLineTool.Status.success
        var checkedStart = options.start == nil
        var startupCodeReleased = false
        while true {
            if let signal = signals.signal {
                session.close()
                progress?.finish()
                return .stopped(signal: signal)
            }
            // Voice notes after the queue's end are waited for on a timer (their player has its own
            // events), and positions are saved on one.
            let timeout: Duration? = progress != nil || session.queueEnded ? Self.refresh : .seconds(1)
            for notice in session.nextNotices(timeout: timeout) {
                switch notice {
                case .started where !startupCodeReleased:
                    // Playing: what ran only to open the item and the stream leaves the resident set too.
                    startupCodeReleased = true
                    ResidentMemory.releaseStartupCode()
                case .opened(_, let item, let format) where !checkedStart:
                    checkedStart = true
                    if let failed = Self.checkStart(options, format: format, item: item) {
                        progress?.finish()
                        return .failed(failed)
                    }
                case .failed(_, let item, let error):
                    checkedStart = true
                    progress?.finish()
                    Console.fail(Self.failureLine(error, item: item, queueCount: items.count))
                    status = CommandLineTool.Status.failure
                case .finished(_, let item?, truncated: true):
                    progress?.finish()
                    let played = TimeSpec.clock(session.player.snapshot().position)
                    Console.fail("\(item.location.display) is truncated: its header promises more audio than it holds (played \(played))")
                    status = CommandLineTool.Status.failure
                case .voice(.failed(let title, let error)):
                    progress?.finish()
                    Console.fail("voice note \(title): \(error.message)")
                case .outputMoved(let move):
                    progress?.finish()
                    Console.fail(Self.movedLine(move))
                case .asleep:
                    // Off the Studio nobody is there to resume: the command ends after the fade.
                    progress?.finish()
                    return status == CommandLineTool.Status.success ? .finished : .failed(status)
                default:
                    break
                }
            }
            session.tick()
            downloads?.update()
            if session.isFinished { break }
            progress?.show(session.player.snapshot(), voice: session.voiceNotes?.nowPlaying.title)
        }
        progress?.finish()
        if let quit = session.quitRequested, quit != 0 { return .failed(quit) }
        return status == CommandLineTool.Status.success ? .finished : .failed(status)
    }

    /// What is said when the output moves: playback goes on, on another sink.
    static func movedLine(_ move: SinkMove) -> String {
        "sink '\(move.from)' is gone (or the stream was moved): playing on '\(move.to)'"
    }

    /// What is said when an item cannot be played: its error, after its title when the queue has others.
    static func failureLine(_ error: PlaybackError, item: QueueItem?, queueCount: Int) -> String {
        if queueCount > 1, let item { return "\(item.title): \(error.message)" }
        return error.message
    }

    /// A `--start` past the end is a mistake worth saying (exit 2), not a silent exit.
    static func checkStart(_ options: PlayOptions, format: AudioFormat, item: QueueItem) -> Int32? {
        guard case .seconds(let seconds)? = options.start, let duration = format.duration, seconds > duration else {
            return nil
        }
        Console.fail("--start \(options.startText ?? "") is past the end of \(item.location.display) (\(TimeSpec.clock(duration)) long)")
        return CommandLineTool.Status.usage
    }

    static func status(of outcome: Outcome) -> Int32 {
        switch outcome {
        case .finished: return CommandLineTool.Status.success
        case .failed(let status): return status
        case .stopped(let signal): return 128 + signal
        }
    }

    /// Matched loudness when `--loudness` is not given: `ALICIA_LOUDNESS`, else −16 LUFS.
    static func defaultLoudness() -> LoudnessMatching {
        guard let text = getenv("ALICIA_LOUDNESS").map({ String(cString: $0) }), !text.isEmpty else { return .standard }
        guard let matching = Invocation.loudness(text) else {
            Console.fail("warning: ALICIA_LOUDNESS='\(text)' is not off or a target from -40 to -5: matching to -16 LUFS")
            return .standard
        }
        return matching
    }

    /// The session's options from the command line's.
    static func sessionOptions(_ options: PlayOptions, voiceNotes: Bool = true) -> ListeningSession.Options {
        var made = ListeningSession.Options()
        made.configuration = PlayerConfiguration(device: options.device)
        made.configuration.readAheadSeconds = options.readAheadSeconds
        made.configuration.network = options.network
        made.speed = options.speed
        made.silenceSkipping = options.skipSilence
        made.sleepTimer = options.sleep
        made.loudness = options.loudness ?? defaultLoudness()
        made.volume = VolumeScale.linear(percent: options.volume ?? 100)
        made.voiceFocus = options.voiceFocus
        made.resumeRewind = options.resumeRewind
        made.voiceNotes = voiceNotes
        made.fromStart = options.fromStart
        if let directory = PositionStore.defaultDirectory() {
            let store = PositionStore(directory: directory)
            for warning in store.warnings { Console.fail("warning: " + warning) }
            made.positions = store
            made.loudnessCache = LoudnessCache(directory: directory)
        }
        return made
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
