import AliciaLocks
// The front side's way in (`Player`, any thread): the commands are written here and nowhere else
// outside the feeder, under the core's lock, and the status is read.
extension PlayerCore {
    /// Runs `body` on the commands, with the status to read, under the core's lock, and wakes the
    /// feeder's waits. A request asked interrupts whatever the feeder blocks on, and a play asked
    /// of a player at rest shows as loading (paused, if it is) at once; a new queue drops the old
    /// one's errors.
    func command<R>(_ body: (inout PlayerCommands, PlayerStatus) -> R) -> R {
        shared.update { s in
            let asked = s.commands.asked
            let queues = s.commands.queuesReplaced
            let result = body(&s.commands, s.status)
            if s.commands.queuesReplaced != queues { s.status.errors.removeAll() }
            if s.commands.asked != asked {
                let state = s.status.state
                if case .play? = s.commands.request, state == .ended || state == .failed || state == .idle {
                    s.status.state = s.commands.paused ? .paused : .loading
                }
                s.status.interrupt()
            }
            return result
        }
    }

    /// Reads both halves under the core's lock.
    func read<R>(_ body: (CoreState) -> R) -> R {
        shared.withLock { body($0) }
    }

    /// Pauses (true) or resumes: the sink corks or uncorks at once and the state shows it before
    /// the feeder has looked. Posts the state when it changed.
    func setPaused(_ paused: Bool) {
        let changed = shared.update { s -> (QueueEntryID?, PlayerState)? in
            guard s.commands.paused != paused else { return nil }
            s.commands.paused = paused
            s.status.sink?.setPaused(paused)
            let state = s.status.state
            if paused && (state == .playing || state == .buffering || state == .voicing || state == .loading) {
                s.status.state = .paused
                return (s.status.heard, .paused)
            }
            if !paused && state == .paused {
                s.status.state = s.status.sink == nil ? .loading : .playing
                return (s.status.heard, s.status.state)
            }
            return nil
        }
        if let (entry, state) = changed { post(entry, .stateChanged(state)) }
    }

    /// Holds playback (true) for another player's focus, or lets it go. The server round trip runs
    /// outside the core's lock, so snapshots are never blocked by it.
    func setHeld(_ held: Bool) {
        let sink = shared.withLock { s -> (any AudioSink)? in
            s.commands.held = held
            return s.status.sink
        }
        sink?.setHeld(held)
        // Held, the sink's position is exact: the place to go on from if the server goes away while
        // the other player has the focus (the last look, at the last write, was a little before it).
        if held, let sink { rememberPlace(heardOn: sink) }
    }

    /// Asks for a stop and returns once the feeder has closed the output; whether anything played.
    func stop() -> Bool {
        let wasPlaying = command { c, s -> Bool in
            let playing = !(s.idle && c.request == nil && s.sink == nil)
            c.ask(.stop)
            return playing
        }
        let stopped = shared.withLock(waitingUntil: { ($0.status.idle && $0.commands.request == nil) || $0.commands.shutdown },
                                      timeout: feederPatience) { s in (s.status.idle && s.commands.request == nil) || s.commands.shutdown }
        // A feeder stuck in a decoder's C code is not waited for again until it is seen stopped.
        feederStuck.store(!stopped, ordering: .relaxed)
        if !stopped { Log.warning(.engine, "stop: the feeder did not stop") }
        return wasPlaying
    }

    /// Takes where the listener is now from `sink` (exact while it is held) as the place to go on
    /// from if the server goes away.
    private func rememberPlace(heardOn sink: any AudioSink) {
        let played = sink.playedFrames()
        shared.withLock { s in
            guard s.status.sink === sink, let location = s.status.map.locate(played) else { return }
            s.status.lastHeardPlace = PlayerStatus.place(location)
        }
    }
}
