import AliciaLocks
/// A player core's shared state: the front side's commands and the feeder's status, under one
/// lock (`PlayerCore.shared`), as mpv's `audio/out/buffer.c` keeps the fields of `struct
/// buffer_state` "protected by lock" apart from those of the AO thread alone (here
/// `FeederState`). What needs both halves is here.
struct CoreState {
    var commands = PlayerCommands()
    var status = PlayerStatus()

    /// Takes the waiting request, noting a jump or seek in flight (`.quit` once shutting down).
    mutating func takeRequest() -> PlayerCore.Request? {
        if commands.shutdown { return .quit }
        guard commands.request != nil else { return nil }
        status.idle = false
        status.clearInterrupts()
        let request = commands.take()
        if case .play(let entry, let start)? = request { status.taken = (entry, start) } else { status.taken = nil }
        return request
    }

    /// `entry` is the one heard now: the queue's current entry follows it (the feeder's).
    mutating func hear(_ entry: QueueEntryID) {
        status.heard = entry
        commands.queue.setCurrent(entry)
    }

    /// `entry` has been played or passed over: a consuming queue drops it (the feeder's).
    mutating func consume(_ entry: QueueEntryID) {
        if commands.queue.consume { commands.queue.remove(entry) }
    }

    /// The seconds of playing a `.after` sleep timer has left; nil for the others.
    func sleepSecondsLeft() -> Double? {
        commands.sleep.secondsLeft(played: status.played(), rate: status.sink == nil ? 0 : status.sinkRate)
    }

    /// Counts a `.after` timer from the frame played now: before the sink is flushed or closed
    /// (its frames count from 0 again), and when it is set.
    mutating func rebaseSleep() {
        commands.sleep.rebase(secondsLeft: sleepSecondsLeft())
    }

    /// The sleep timer as the snapshot shows it.
    var sleepTimer: SleepTimer {
        sleepSecondsLeft().map { .after(seconds: $0) } ?? commands.sleep.timer
    }

    /// Cues set since the feeder last looked are all armed again.
    mutating func armNewCues() {
        guard status.cuesArmed != commands.cueChanges else { return }
        status.firedCues.removeAll()
        status.cuesArmed = commands.cueChanges
    }

    /// Reads the frame the sink has played against the map: the entries heard to their end (a
    /// consuming queue drops them), skipped silence passed, the entry heard now (the queue's
    /// current entry follows it), cues passed. Returns the events to post.
    mutating func listenerReached(_ played: Int64) -> [PlayerEvent] {
        var events: [PlayerEvent] = []
        guard let location = status.map.locate(played) else { return events }
        armNewCues()
        status.lastHeardPlace = PlayerStatus.place(location)
        var started = false
        for (index, span) in status.map.spans.prefix(location.span).enumerated() {
            let following = status.map.spans[index + 1]
            if following.isCut {
                // Skipped silence: the same entry goes on further along; the listener's position jumps.
                let seconds = Double(following.skipped) / Double(following.format.sampleRate)
                status.silenceSaved[following.entry, default: 0] += seconds
                status.silenceSavedTotal += seconds
                events.append(PlayerEvent(entry: following.entry, kind: .silenceSkipped(
                    fromFrame: following.sourceStart - following.skipped, toFrame: following.sourceStart)))
                continue
            }
            started = true
            events.append(PlayerEvent(entry: span.entry, kind: .ended(truncated: status.truncated.contains(span.entry))))
            if span.entry != location.entry { consume(span.entry) }
        }
        status.map.discard(before: location.span)
        if started || status.heard != location.entry {
            hear(location.entry)
            for cue in commands.cues where cue.entry == location.entry { status.firedCues.remove(cue.id) }
            events.append(PlayerEvent(entry: location.entry, kind: .entryStarted))
        }
        for cue in commands.cues where cue.entry == location.entry && !status.firedCues.contains(cue.id) {
            if cue.at.frame(in: location.format) <= location.sourceFrame {
                status.firedCues.insert(cue.id)
                events.append(PlayerEvent(entry: cue.entry, kind: .cueReached(cue.id)))
            }
        }
        return events
    }
}

extension PlayerStatus {
    /// Wakes the feeder from whatever it blocks on.
    func interrupt() {
        item?.interruptReader()
        prefetch?.interruptReader()
        sink?.interrupt()
    }

    func clearInterrupts() {
        item?.clearInterrupt()
        prefetch?.clearInterrupt()
        sink?.clearInterrupt()
    }
}

extension ConditionLock where State == CoreState {
    /// The feeder's one wait: until a request comes (then taken, its interrupts cleared, and
    /// returned; `.quit` once the player shuts down), or `done` holds, or `timeout` passes (nil).
    func awaitRequest(orUntil done: (inout CoreState) -> Bool = { _ in false }, timeout: Duration? = nil) -> PlayerCore.Request? {
        withLock(waitingUntil: { $0.commands.hasRequest || done(&$0) }, timeout: timeout) { $0.takeRequest() }
    }

    /// Takes a newer request, if one waits. Feeder thread.
    func takeRequest() -> PlayerCore.Request? {
        withLock { $0.takeRequest() }
    }
}

extension StartPosition {
    /// The frame this names in `format` (a fraction of a length not known: of a very long one).
    func frame(in format: AudioFormat) -> Int64 {
        switch self {
        case .seconds(let seconds): return FrameCount.of(seconds: seconds, rate: format.sampleRate)
        case .fraction(let fraction): return FrameCount.clamped(fraction * Double(format.frames ?? Int64.max / 2))
        }
    }
}
