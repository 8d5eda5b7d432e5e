import AliciaLocks
// The output's side of a start: the sink flushed for a new segment, reopened in another format,
// waited for while the sound server is away, closed. Feeder thread only.
extension PlayerCore {
    /// Drops what the sink holds and what the stages hold: a new segment starts. A sink that
    /// cannot flush is closed (the next start opens another), not a failure.
    func flushOutput() -> Request? {
        let sink = shared.withLock { $0.status.sink }
        feeder.chain?.reset()
        guard let sink else { return nil }
        switch sink.flush() {
        case .done: break
        case .interrupted: return shared.takeRequest()
        case .failed(let error):
            Log.info(.output, "flush failed: \(error.message)")
            closeSink()
        }
        shared.withLock { s in
            // Until the new segment is mapped, the listener stands where the old one stopped.
            if let heard = s.status.heard, let location = s.status.map.locate(sink.playedFrames()), location.entry == heard {
                s.status.resting = PlayerStatus.place(location)
            }
            s.rebaseSleep()
            s.status.map.reset()
        }
        return nil
    }

    /// The output for `source` from `frame` (after a flush): the sink reopened in its format when
    /// the stream's is another, waiting for a sound server that went away; a converter only on a
    /// fixed-format device; the speed set. Returns the source frames per sink frame (the speed, times
    /// the conversion's ratio).
    func prepareOutput(for source: ItemSource, title: String, at frame: Int64) throws(Detour) -> Double {
        guard let format = source.format else { throw .next(nil) }
        let wanted = outputFormat(for: format)
        if let sinkFormat = feeder.sinkFormat, sinkFormat != wanted {
            closeSink()
        }
        if feeder.sinkFormat == nil {
            while let error = openSink(format: wanted, title: title) {
                guard feeder.recovery.waits(for: error) else { throw .next(entryFailed(source.entry, error: error, fatal: true)) }
                if let request = feeder.recovery.waitStep(source.entry, frame: frame, error: error) { throw .next(request) }
            }
            feeder.recovery.answered()
        }
        let ratio: Double
        do {
            ratio = try convert(format, into: wanted)
        } catch {
            throw .next(entryFailed(source.entry, error: error))
        }
        let speed = shared.withLock { $0.commands.speed }
        guard feeder.speedStage?.setSpeed(speed) ?? false else {
            throw .next(entryFailed(source.entry, error: .audioOutput(reason: "out of memory changing the speed"), fatal: true))
        }
        return speed * ratio
    }

    /// The chain's front for an item of `format` into a stream of `streamFormat`: a converter where
    /// they differ, none where they do not. Returns its ratio (source frames per stream frame).
    func convert(_ format: AudioFormat, into streamFormat: AudioFormat) throws(PlaybackError) -> Double {
        guard format.streamFormat != streamFormat else {
            feeder.chain?.replaceFront(nil) { $0 is FormatConverter }
            return 1
        }
        let made = try FormatConverter(from: format, to: streamFormat, maxInputFrames: Self.chunkFrames)
        feeder.chain?.replaceFront(made) { $0 is FormatConverter }
        return made.ratio
    }

    /// The stream's format for an item of `format`: its own, or a fixed-format device's (decided by
    /// the first item and kept).
    private func outputFormat(for format: AudioFormat) -> AudioFormat {
        guard let fix = output.fixedFormat else { return format.streamFormat }
        if let fixed = feeder.fixedFormat { return fixed }
        let fixed = fix(format.streamFormat)
        feeder.fixedFormat = fixed
        return fixed
    }

    private func openSink(format streamFormat: AudioFormat, title: String) -> PlaybackError? {
        let sink: any AudioSink
        do {
            sink = try output.makeSink(streamFormat, title)
        } catch {
            return error
        }
        let gain = feeder.makeChain(for: streamFormat)
        let held = shared.update { s -> Bool in
            s.rebaseSleep()
            s.status.sink = sink
            s.status.sinkRate = streamFormat.sampleRate
            s.status.map.reset()
            sink.setPaused(s.commands.paused)
            gain.setTarget(s.commands.gain, ramp: 0)
            feeder.gainChangesApplied = s.commands.gainChanges
            if s.commands.hasRequest { sink.interrupt() }
            return s.commands.held
        }
        // A server round trip: not under the lock the UI's snapshots take. A release that came
        // meanwhile found this sink not held yet: let go here.
        if held {
            sink.setHeld(true)
            if !shared.withLock({ $0.commands.held }) { sink.setHeld(false) }
        }
        return nil
    }

    func closeSink() {
        let sink = shared.withLock { s -> (any AudioSink)? in
            defer {
                s.rebaseSleep()
                s.status.sink = nil
                s.status.sinkRate = 0
                s.status.map.reset()
            }
            return s.status.sink
        }
        sink?.close()
        feeder.dropChain()
    }
}
