import AliciaLocks
// Each item at its own quality: the output runs at the format of the item that opened it, and an
// item after it is converted to that format at the join (gapless). Converting downward loses what
// the item has (a 48 kHz stereo episode after a 24 kHz mono synthesis played downmixed, every frame
// L = R): such a join reopens the output at the better format instead, after what is written has
// played out. Converting upward (a synthesis after an episode) keeps the join. Feeder thread only.
extension PlayerCore {
    /// `format` has more than the output keeps (a higher rate, more channels): a join would lose it.
    static func needsBetterOutput(_ format: AudioFormat, than sinkFormat: AudioFormat) -> Bool {
        format.sampleRate > sinkFormat.sampleRate || format.channels > sinkFormat.channels
    }

    /// Plays out what `sink` holds of `previous`, then reopens the output in `next`'s format and
    /// starts it there; nil, or why it cannot start.
    func reopenOutput(for next: ItemSource, after previous: QueueEntryID, title: String, sink: any AudioSink) throws(Detour) -> PlaybackError? {
        guard let format = next.format else { return nil }
        if let chain = feeder.chain { try wrote(chain.flush { self.write($0, to: sink) }, for: previous) }
        try wrote(sink.drain(), for: previous)
        shared.withLock { $0.status.map.markPlayedOut() }
        observe(sink)
        // The entry before has been heard to its end, as a join's passing of it would say.
        let truncated = shared.update { s -> Bool in
            s.consume(previous)
            return s.status.truncated.contains(previous)
        }
        if shared.withLock({ $0.status.heard == previous }) { post(previous, .ended(truncated: truncated)) }
        Log.info(.output, "reopening the output at \(format.sampleRate) Hz, \(format.channels) ch for \(next.entry): "
            + "a join at the output's format would lose what it has")
        closeSink()
        let frame = next.frame(for: next.item.start)
        let ratio = try prepareOutput(for: next, title: title, at: frame)
        if let error = try positioned(next.position(at: frame)) { return error }
        try startEntry(next, at: frame, sameEntry: false, joined: false)
        shared.withLock { $0.commands.sleep.joined() }
        began(next, title: title, at: frame, ratio: ratio)
        return nil
    }
}
