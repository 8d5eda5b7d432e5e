import AliciaLocks
/// Matched loudness on the feeder's side: the gain of the entry being written, from its known
/// figures (cached, or measured whole by `LoudnessAnalyzer` first) or else from a running
/// measurement, moved with slow ramps. The feeder calls it when a sink opens (`attach`), at an
/// entry's start (`startEntry`, which may wait for a whole measure), after each chunk
/// (`followChunk`), at the entry's end (`endEntry`), and when the next entry starts fetching
/// (`prefetching`). Feeder thread only; `shutdown` after the feeder has joined.
final class LoudnessMatcher {
    private let shared: ConditionLock<CoreState>
    private let hub: EventHub
    private let configuration: PlayerConfiguration
    private var stage: LoudnessStage?
    /// The entry being written: its running measurement (when no whole-item figures are known),
    /// whether that started at its first frame, and the gain aimed at.
    private var runningMeter: LoudnessMeter?
    private var runningFromStart = false
    private var entry: QueueEntryID?
    private var aim: Double?
    /// The matching the gain was set for (a change plays on from the frame heard, like a speed).
    private var appliedMatching: LoudnessMatching?
    /// Frames the running meter had when the gain was last revised.
    private var revisedAt: Int64 = 0
    /// Made when first needed.
    private var analyzer: LoudnessAnalyzer?
    /// Entries that started on the running estimate while their whole measure was made: it is kept
    /// for their next play, never applied partway through this one (when it would land depends on
    /// the machine's speed).
    private var measuredAside: Set<QueueEntryID> = []

    init(shared: ConditionLock<CoreState>, hub: EventHub, configuration: PlayerConfiguration) {
        self.shared = shared
        self.hub = hub
        self.configuration = configuration
    }

    /// A new sink's chain has its own stage: the next entry starts its gain afresh.
    func attach(_ stage: LoudnessStage) {
        self.stage = stage
        entry = nil
    }

    /// Local files and single-file items of a player that measures first are measured whole.
    private func wholeMeasureWanted(_ item: QueueItem) -> Bool {
        item.loudness == nil && item.moreParts.isEmpty && item.growth == nil && (item.location.isFile || configuration.measureLoudnessFirst)
    }

    private func loudnessAnalyzer() -> LoudnessAnalyzer {
        if let analyzer { return analyzer }
        let shared = self.shared
        let hub = self.hub
        // The event goes out before the figures are published: once they are, the feeder may play
        // a short note to its end and post `queueEnded` while this thread is still descheduled, and
        // a reader that stops at the end would never see the measure (a loaded CI machine did).
        let made = LoudnessAnalyzer { entry, figures in
            if let figures { hub.post(PlayerEvent(entry: entry, kind: .loudnessMeasured(figures))) }
            shared.update { $0.status.measured[entry] = PlayerStatus.Measurement(figures: figures) }
        }
        analyzer = made
        return made
    }

    /// Sets the gain for `source`, which starts being written at `frame` (a start, a seek, or a
    /// join after another entry): from its known figures (cached, or measured whole, which the
    /// first entry of a start waits for), else from a running measurement. A request that comes
    /// during the wait is returned.
    func startEntry(_ source: ItemSource, format: AudioFormat, at frame: Int64, sameEntry: Bool, joined: Bool) -> PlayerCore.Request? {
        guard let stage else { return nil }
        let matching = shared.withLock { $0.commands.loudness }
        guard case .target(let target) = matching else {
            appliedMatching = matching
            if stage.enabled {
                stage.setEnabled(false)
                runningMeter = nil
                entry = nil
                aim = nil
            }
            shared.withLock { $0.status.loudnessGain = 0 }
            return nil
        }
        stage.setEnabled(true)
        let changed = appliedMatching != matching
        appliedMatching = matching
        if sameEntry && entry == source.entry && !changed {
            // A seek within the entry: the gain stays; a running measure is no longer of the whole.
            if frame != 0 { runningFromStart = false }
            return nil
        }
        entry = source.entry
        var figures: LoudnessFigures?
        switch knownFigures(source, joined: joined) {
        case .figures(let known): figures = known
        case .request(let request): return request
        }
        runningMeter = nil
        revisedAt = 0
        if let figures {
            aimGain(figures.gain(toward: target), immediately: !joined)
        } else {
            runningMeter = LoudnessMeter(channels: format.channels, sampleRate: format.sampleRate)
            runningFromStart = frame == 0
            // Until the estimate settles, the gain stays where it was (the entry before, or 0 dB).
            if !joined { aimGain(aim ?? 0, immediately: true) }
        }
        return nil
    }

    private enum Known {
        case figures(LoudnessFigures?)
        case request(PlayerCore.Request)
    }

    /// The entry's figures: the item's own, a measure done, or one started now, which a start
    /// waits for when the item is a note or a local file of at most `wholeMeasureLimit` seconds (a
    /// join, or a longer file, goes on with a running estimate; the longer file's measure is only
    /// kept, `measuredAside`).
    private func knownFigures(_ source: ItemSource, joined: Bool) -> Known {
        let entry = source.entry
        let figures = source.item.loudness ?? shared.withLock { $0.status.measured[entry]?.figures }
        guard figures == nil && wholeMeasureWanted(source.item) else { return .figures(figures) }
        loudnessAnalyzer().measure(entry, source.item)
        guard !joined || configuration.measureLoudnessFirst else { return .figures(nil) }
        let seconds = source.format.flatMap { format in format.frames.map { Double($0) / Double(format.sampleRate) } } ?? .infinity
        if !configuration.measureLoudnessFirst, let limit = configuration.wholeMeasureLimit, seconds > limit {
            measuredAside.insert(entry)
            return .figures(nil)
        }
        if let request = shared.awaitRequest(orUntil: { $0.status.measured[entry] != nil }) { return .request(request) }
        return .figures(shared.withLock { $0.status.measured[entry]?.figures })
    }

    /// Moves the gain to `decibels`: at once at a start (nothing is heard before it), else over at
    /// least a second, and no faster than 5 dB a second (half a decibel per 100 ms: a join of two
    /// episodes 12 dB apart ramps over 2.4 s), so nothing steps and speech never pumps.
    private func aimGain(_ decibels: Double, immediately: Bool) {
        aim = decibels
        stage?.setGain(decibels: decibels, ramp: immediately ? 0 : max(1, abs(decibels - (stage?.gainDecibels ?? 0)) / 5))
        shared.withLock { $0.status.loudnessGain = decibels }
    }

    /// After each chunk: the running estimate revised once a second of audio (from 3 s on, when
    /// BS.1770's gating has something to stand on), or the whole-item figures taken once they arrive.
    func followChunk(_ buffer: UnsafeMutableRawPointer, frames: Int, format: AudioFormat, entry: QueueEntryID) {
        if let stage, stage.enabled {
            let reduction = stage.takeDeepestReduction()
            if reduction < 0 { shared.withLock { $0.status.limiterReduction = min($0.status.limiterReduction, reduction) } }
        }
        guard let meter = runningMeter, case .target(let target) = shared.withLock({ $0.commands.loudness }) else { return }
        if !measuredAside.contains(entry), let measured = shared.withLock({ $0.status.measured[entry] }), let figures = measured.figures {
            runningMeter = nil
            aimGain(figures.gain(toward: target), immediately: false)
            return
        }
        meter.add(buffer, frames: frames, type: format.sampleType)
        guard meter.frames >= 3 * Int64(format.sampleRate), meter.frames - revisedAt >= Int64(format.sampleRate) else { return }
        revisedAt = meter.frames
        guard let figures = meter.figures else { return }
        let gain = figures.gain(toward: target)
        if abs(gain - (aim ?? 0)) >= 0.5 { aimGain(gain, immediately: false) }
    }

    /// The entry's decoding has ended at `decoded`: one measured as it played from its first frame
    /// to its last has whole-item figures, posted for the session to keep.
    func endEntry(_ source: ItemSource, decoded: Int64) {
        guard let meter = runningMeter, runningFromStart, let frames = source.format?.frames, decoded >= frames,
              let figures = meter.figures else { return }
        runningMeter = nil
        shared.withLock { $0.status.measured[source.entry] = PlayerStatus.Measurement(figures: figures) }
        hub.post(PlayerEvent(entry: source.entry, kind: .loudnessMeasured(figures)))
    }

    /// The next entry starts fetching: one to be measured whole is measured from now on.
    func prefetching(_ entry: QueueEntryID, _ item: QueueItem) {
        guard wholeMeasureWanted(item), shared.withLock({ $0.commands.loudness != .off && $0.status.measured[entry] == nil }) else { return }
        loudnessAnalyzer().measure(entry, item)
    }

    func shutdown() {
        analyzer?.shutdown()
        analyzer = nil
    }
}
