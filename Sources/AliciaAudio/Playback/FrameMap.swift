/// Which stretch of the sink's frames holds which entry's source frames, and at what ratio.
///
/// The feeder records a span whenever what it writes changes meaning (an item joins, a seek or a
/// speed change starts a new segment, skipped silence cuts source frames out); the position is then
/// *looked up* for the frame the sink has played, so joins, speed changes, format conversion and
/// skipped silence need no special cases. Frames count from
/// the last flush of the sink (`reset`), as the sink's `playedFrames` does. Pure value type.
struct FrameMap: Sendable, Equatable {
    struct Span: Sendable, Equatable {
        /// Sink frame (since the flush) where the span begins.
        var sinkStart: Int64
        var entry: QueueEntryID
        /// The entry's own format (its source frames, its duration).
        var format: AudioFormat
        /// The entry's source frame heard at `sinkStart`.
        var sourceStart: Int64
        /// Source frames per sink frame: speed × source rate / sink rate.
        var ratio: Double
        /// One past the last source frame the span holds, once the entry's decoding has ended.
        var sourceEnd: Int64?
        /// Source frames of the same entry cut out (skipped silence) just before `sourceStart`: the
        /// span goes on from the one before it rather than starting an entry.
        var skipped: Int64 = 0

        /// The span continues the one before it after a cut.
        var isCut: Bool { skipped > 0 }
    }

    /// What a sink frame holds.
    struct Location: Sendable, Equatable {
        var entry: QueueEntryID
        var format: AudioFormat
        var sourceFrame: Int64
        /// The index of its span in `spans`.
        var span: Int
        /// The frame is at or past the end of everything the entry's span holds.
        var atEnd: Bool
    }

    private(set) var spans: [Span] = []
    /// Sink frames written since the last reset.
    private(set) var written: Int64 = 0
    /// The sink has drained: every frame written has been played, whatever its (possibly older)
    /// timing info says.
    private(set) var playedOut = false

    /// Every span since `keepHistory()`, in sink frames counted from then (across flushes): what a
    /// rendered file's chapters are placed by. Nil unless asked for (a player on a device).
    private(set) var history: [Span]?
    /// Sink frames written before the last flush, and where the live spans begin in `history`.
    private var historyBase: Int64 = 0
    private var historyMark = 0

    /// From now on every span is kept in `history`.
    mutating func keepHistory() {
        history = []
    }

    /// `history`'s tail is the live spans, moved by the frames before the last flush.
    private mutating func syncHistory() {
        guard history != nil else { return }
        history!.removeSubrange(min(historyMark, history!.count)...)
        for span in spans {
            var kept = span
            kept.sinkStart += historyBase
            history!.append(kept)
        }
    }

    /// The sink was flushed: nothing written, nothing mapped.
    mutating func reset() {
        if history != nil {
            historyBase += written
            historyMark = history!.count
        }
        spans.removeAll(keepingCapacity: true)
        written = 0
        playedOut = false
    }

    /// The sink has played everything written (a drain completed).
    mutating func markPlayedOut() {
        playedOut = true
    }

    /// From the next frame written on, the sink holds `entry` from `sourceStart` at `ratio`.
    mutating func begin(entry: QueueEntryID, format: AudioFormat, sourceStart: Int64, ratio: Double) {
        // A cut is placed where the span's ratio puts its source frame, which a speed changer's
        // rounding can leave a few frames past what it really wrote: never past this boundary.
        for i in spans.indices.reversed() where spans[i].sinkStart > written { spans[i].sinkStart = written }
        if let last = spans.last, last.sinkStart == written, last.entry == entry, last.sourceEnd == nil {
            // Nothing was written in the last span: replace it rather than keep an empty one.
            spans[spans.count - 1] = Span(sinkStart: written, entry: entry, format: format, sourceStart: sourceStart, ratio: ratio)
            syncHistory()
            return
        }
        spans.append(Span(sinkStart: written, entry: entry, format: format, sourceStart: sourceStart, ratio: ratio))
        syncHistory()
    }

    /// `frames` sink frames were written.
    mutating func advance(by frames: Int64) {
        written += frames
        playedOut = false
    }

    /// The current span's source frames from `from` up to `to` were cut out (skipped silence): from
    /// the sink frame where `from` would have been heard, the span goes on at `to`. Where that sink
    /// frame is comes from the span's own ratio, so at 1× it is exact and at other speeds it is as
    /// exact as every other position of the span.
    mutating func cut(from: Int64, to: Int64) {
        guard let last = spans.last, to > from else { return }
        let offset = Double(from - last.sourceStart) / last.ratio
        let sinkAt = max(last.sinkStart, last.sinkStart + Int64(offset.rounded()))
        spans.append(Span(sinkStart: sinkAt, entry: last.entry, format: last.format, sourceStart: to,
                          ratio: last.ratio, skipped: to - from))
        syncHistory()
    }

    /// The current span's entry has no source frames past `sourceEnd`.
    mutating func end(at sourceEnd: Int64) {
        guard !spans.isEmpty else { return }
        spans[spans.count - 1].sourceEnd = sourceEnd
        syncHistory()
    }

    /// What the sink frame `played` holds; nil when nothing is mapped.
    func locate(_ reported: Int64) -> Location? {
        guard !spans.isEmpty else { return nil }
        let played = playedOut ? written : reported
        var index = 0
        // Spans are few (one per join or segment since the last discard): a linear scan from the end.
        for i in stride(from: spans.count - 1, through: 0, by: -1) where spans[i].sinkStart <= played {
            index = i
            break
        }
        let span = spans[index]
        let offset = max(0, played - span.sinkStart)
        var frame = span.sourceStart + (span.ratio == 1 ? offset : Int64((Double(offset) * span.ratio).rounded()))
        var atEnd = false
        // Drained: the entry stands at its end, whatever the rounding of a speed changer's output.
        if let end = span.sourceEnd, frame >= end || (index == spans.count - 1 && playedOut) {
            frame = end
            atEnd = true
        }
        return Location(entry: span.entry, format: span.format, sourceFrame: frame, span: index, atEnd: atEnd)
    }

    /// Forgets the spans before `index` (they have been heard).
    mutating func discard(before index: Int) {
        guard index > 0 else { return }
        historyMark += min(index, spans.count)
        spans.removeFirst(min(index, spans.count))
    }
}
