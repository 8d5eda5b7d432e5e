import AliciaLocks

/// The feeder's steps and the one failure path: how a step ends early (`Detour`), how a failure is
/// made known, and what plays after an entry or the output failed.
extension PlayerCore {
    /// How a step of the feeder ends early. `again`: the loop it runs in starts over, taking the
    /// waiting request there (a command cut a blocking call short, or the sleep timer's pause was
    /// resumed). `next`: the step is over (a request taken, a failure made known and dealt with),
    /// and this is what the feeder does now.
    enum Detour: Error {
        case again
        case next(Request?)
    }

    /// A write through the stages or to the sink went through; a failed one is the output's failure.
    func wrote(_ result: SinkResult, for entry: QueueEntryID) throws(Detour) {
        switch result {
        case .done: return
        case .interrupted: throw .again
        case .failed(let error): throw .next(outputFailed(error, entry: entry))
        }
    }

    /// An entry's decoder opened or moved; nil, or why it cannot.
    func positioned(_ result: ItemSource.Opened) throws(Detour) -> PlaybackError? {
        switch result {
        case .opened: return nil
        case .interrupted: throw .again
        case .failed(let error): return error
        }
    }

    /// Runs `steps`; a detour ends them with what it says (after an interruption: the request
    /// waiting).
    func unwinding(_ steps: () throws(Detour) -> Request?) -> Request? {
        do {
            return try steps()
        } catch {
            switch error {
            case .again: return shared.takeRequest()
            case .next(let request): return request
            }
        }
    }

    /// The one way a failure is made known: recorded against its entry and posted, once.
    func report(_ error: PlaybackError, of entry: QueueEntryID?) {
        if let entry { shared.withLock { $0.status.errors[entry] = error } }
        post(entry, .failed(error))
    }

    /// The entry cannot play: made known, then the one after it plays, or playback stops there
    /// (`fatal`: the output failed; what follows would fail the same way).
    func entryFailed(_ entryID: QueueEntryID, error: PlaybackError, fatal: Bool = false) -> Request? {
        Log.info(.engine, "\(entryID) failed: \(error.message)")
        report(error, of: entryID)
        let next = shared.update { s -> QueueEntryID? in
            s.status.taken = nil
            let queue = s.commands.queue
            var after = fatal ? nil : queue.entry(after: entryID).flatMap { $0.id == entryID ? nil : $0 }
            // A looping queue whose every entry failed last time it was tried ends here: going round
            // again would spin (a missing file fails at once), as it once did, with 100 % CPU, an
            // event storm and a `stop` that never returned.
            if after != nil, queue.entries.allSatisfy({ s.status.errors[$0.id] != nil }) { after = nil }
            if s.status.heard == nil || s.status.heard == entryID || after == nil { s.hear(entryID) }
            s.consume(entryID)
            if after == nil { s.status.state = .failed }
            return after?.id
        }
        // A command that came meanwhile (a stop, a jump) goes first: entries that fail at once
        // must not keep this thread from it.
        if let next { return shared.takeRequest() ?? .play(next, .itemStart) }
        post(entryID, .stateChanged(.failed))
        post(nil, .queueEnded)
        return nil
    }

    /// The stream failed (the server went away, the sink vanished): the player stops there, or,
    /// when the server went away, holds the frame heard and waits for one to come back.
    func outputFailed(_ error: PlaybackError, entry: QueueEntryID) -> Request? {
        if feeder.recovery.waits(for: error) {
            let place = shared.withLock { $0.status.lastHeardPlace ?? $0.status.resting }
            Log.info(.output, "output lost: \(error.message)")
            closeSink()
            if let place {
                feeder.recovery.lost(at: place)
                // Played on from that frame once a sink opens again (`play` waits for the server).
                return shared.takeRequest() ?? .play(place.entry, .frame(place.frame))
            }
        }
        Log.info(.output, "output failed: \(error.message)")
        let heard = shared.update { s -> QueueEntryID in
            s.status.state = .failed
            return s.status.heard ?? entry
        }
        report(error, of: heard)
        post(heard, .stateChanged(.failed))
        closeSink()
        return shared.awaitRequest()
    }
}
