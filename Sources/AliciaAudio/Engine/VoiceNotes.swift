#if canImport(Glibc)
import Glibc
#endif

/// What an episode does while a voice note plays.
public enum VoiceFocus: Sendable, Equatable {
    /// The episode is held at its exact frame and resumes there afterwards.
    case pause
    /// The episode plays on, this many decibels lower (negative), with smooth ramps.
    case duck(decibels: Double)
    /// Both play at full level.
    case mix
}

/// What the voice-note player tells its user interface.
public enum VoiceEvent: Sendable, Equatable {
    /// A note began; `heldAtFrame` is the episode's exact frame when the focus policy is `pause`.
    case started(title: String, heldAtFrame: Int64?)
    case finished(title: String)
    case failed(title: String, error: PlaybackError)
    /// No more notes: the episode has its focus back.
    case focusReleased
}

/// The second, independent player: voice notes (chat replies, Alicia's notes)
/// play on a player of their own, one after another, while the episode's player
/// keeps its position (held, ducked, or mixed, by `VoiceFocus`). Either player
/// can start, stop, seek or fail without touching the other's state.
///
/// A coordinator thread takes notes from the queue, applies the focus policy to
/// the episode, plays each note and gives the focus back when the queue is empty.
/// The thread keeps the object alive: call `stop()` when done with it.
public final class VoiceNotes: Sendable {
    private struct Note: Sendable {
        var location: MediaLocation
        var title: String
    }

    private struct State {
        var queue: [Note] = []
        var playing: Note?
        var shutdown = false
        var skip = false
        var events: [VoiceEvent] = []
    }

    /// The voice notes' own player: its own fetcher, decoder and PulseAudio stream.
    public let player: Player
    private let episode: Player
    private let focus: VoiceFocus
    private let resumeRewind: Double
    private let state = ConditionLock(State())
    private let thread: ConditionLock<NativeThread?> = ConditionLock(nil)

    /// Ramps last about 200 ms, in 20 steps of 10 ms (each at most 0.6 dB at −12 dB: no clicks).
    static let rampSteps = 20
    static let rampStep: Duration = .milliseconds(10)

    public init(episode: Player, configuration: PlayerConfiguration, focus: VoiceFocus = .pause, resumeRewind: Double = 0) {
        self.episode = episode
        self.focus = focus
        self.resumeRewind = max(0, resumeRewind)
        var configuration = configuration
        if configuration.mediaName == PlayerConfiguration().mediaName { configuration.mediaName = "Alicia voice note" }
        player = Player(configuration: configuration)
        let made = NativeThread(name: "alicia-voice") { [self] in run() }
        thread.withLock { $0 = made }
    }

    /// Queues a note; it plays after those already queued.
    public func enqueue(_ location: MediaLocation, title: String) {
        state.update { $0.queue.append(Note(location: location, title: title)) }
    }

    /// True when no note plays and none waits.
    public var isIdle: Bool { state.withLock { $0.queue.isEmpty && $0.playing == nil } }

    /// The note playing now, if any, and how many wait.
    public var nowPlaying: (title: String?, waiting: Int) {
        state.withLock { ($0.playing?.title, $0.queue.count) }
    }

    /// Waits until idle (or the timeout passes); returns whether idle.
    public func waitUntilIdle(timeout: Duration) -> Bool {
        state.withLock(waitingUntil: { ($0.queue.isEmpty && $0.playing == nil) || $0.shutdown }, timeout: timeout) {
            $0.queue.isEmpty && $0.playing == nil
        }
    }

    /// The next event, waiting up to `timeout` for one.
    public func nextEvent(timeout: Duration?) -> VoiceEvent? {
        state.withLock(waitingUntil: { !$0.events.isEmpty || $0.shutdown }, timeout: timeout) { s in
            s.events.isEmpty ? nil : s.events.removeFirst()
        }
    }

    /// Ends the note playing now; the next queued one (if any) follows.
    public func skip() {
        state.update { $0.skip = true }
        player.wakeEventWaiters()
    }

    /// Stops everything, drops the queue and gives the episode its focus back. Idempotent.
    public func stop() {
        state.update { s in
            s.shutdown = true
            s.queue.removeAll()
        }
        player.wakeEventWaiters()
        let joining = thread.withLock { current -> NativeThread? in
            defer { current = nil }
            return current
        }
        joining?.join()
        player.stop()
    }

    // MARK: Coordinator thread

    private func run() {
        var focusTaken = false
        while true {
            let next = state.withLock(waitingUntil: { !$0.queue.isEmpty || $0.shutdown }) { s -> Note? in
                guard !s.shutdown else { return nil }
                let note = s.queue.removeFirst()
                s.playing = note
                s.skip = false
                return note
            }
            guard let note = next else { break }
            var heldAt: Int64?
            if !focusTaken {
                heldAt = takeFocus()
                focusTaken = true
            }
            post(.started(title: note.title, heldAtFrame: heldAt))
            do {
                try player.play(note.location)
                post(waitForEnd(of: note))
            } catch {
                post(.failed(title: note.title, error: error))
            }
            player.stop()
            let more = state.update { s -> Bool in
                s.playing = nil
                return !s.queue.isEmpty && !s.shutdown
            }
            if !more {
                releaseFocus()
                focusTaken = false
                post(.focusReleased)
            }
        }
        if focusTaken { releaseFocus() }
    }

    private func waitForEnd(of note: Note) -> VoiceEvent {
        while true {
            let interrupted = state.withLock { $0.shutdown || $0.skip }
            if interrupted { return .finished(title: note.title) }
            switch player.nextEvent(timeout: nil) {
            case .ended: return .finished(title: note.title)
            case .failed(let error): return .failed(title: note.title, error: error)
            default: continue
            }
        }
    }

    private func takeFocus() -> Int64? {
        switch focus {
        case .pause: return episode.setHeld(true)
        case .duck(let decibels): ramp(from: 0, to: decibels)
        case .mix: break
        }
        return nil
    }

    private func releaseFocus() {
        switch focus {
        case .pause:
            if resumeRewind > 0 { episode.seek(by: -resumeRewind) }
            episode.setHeld(false)
        case .duck(let decibels):
            ramp(from: decibels, to: 0)
        case .mix:
            break
        }
    }

    /// Moves the episode's volume in even decibel steps.
    private func ramp(from start: Double, to end: Double) {
        for step in 1...Self.rampSteps {
            let decibels = start + (end - start) * Double(step) / Double(Self.rampSteps)
            episode.setVolume(pow(10, decibels / 20))
            if step < Self.rampSteps {
                // A timed wait, not a poll: ends early only at shutdown.
                _ = state.withLock(waitingUntil: { $0.shutdown }, timeout: Self.rampStep) { $0.shutdown }
            }
        }
    }

    private func post(_ event: VoiceEvent) {
        state.update { $0.events.append(event) }
    }
}
