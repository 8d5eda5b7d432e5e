import AliciaLocks
/// The sleep timer on the feeder's side: before each chunk it sets the gain stage's fade for what
/// is written next and says whether the timer ends there (`followChunk`); at an entry's end it says
/// whether the timer ends with it (`Countdown.endsWithEntry`), at a join it counts the entry
/// (`Countdown.joined`), and once playback has played out to the end it turns itself off and
/// pauses the player (`fellAsleep`). Feeder thread only; the countdown itself is a command
/// (`PlayerCommands.sleep`).
final class SleepTimerClock {
    /// The timer as set, counting only what the sink plays: for `.after`, its seconds are what was
    /// left at the sink's played frame `anchor` (of this segment).
    struct Countdown: Equatable {
        private(set) var timer: SleepTimer = .off
        private(set) var anchor: Int64 = 0
        /// For `.endOfChapter`: the chapter it ends with, once read against the entry being
        /// written; nil until then and after a flush (a seek: the chapter sought to is the one).
        private(set) var chapter: ChapterSpan?

        /// A chapter in source frames of its entry; `end` nil: the entry's end.
        struct ChapterSpan: Equatable {
            var entry: QueueEntryID
            var start: Int64
            var end: Int64?
        }

        /// Sets the timer (`Player.setSleepTimer`); a `.after` timer counts from `played`.
        mutating func set(_ timer: SleepTimer, played: Int64) {
            chapter = nil
            if case .after(let seconds) = timer {
                self.timer = .after(seconds: max(0, seconds))
                anchor = played
            } else {
                self.timer = timer
            }
        }

        /// The seconds of playing a `.after` timer has left when the sink has played `played`
        /// frames at `rate` (0: no sink, the clock stands); nil for the others.
        func secondsLeft(played: Int64, rate: Int) -> Double? {
            guard case .after(let seconds) = timer else { return nil }
            guard rate > 0 else { return seconds }
            return max(0, seconds - Double(played - anchor) / Double(rate))
        }

        /// A new segment starts (a flush, a closed sink): a `.after` timer goes on from what it
        /// had left, counted from the segment's first frame.
        mutating func rebase(secondsLeft: Double?) {
            if let secondsLeft { timer = .after(seconds: secondsLeft) }
            anchor = 0
            chapter = nil
        }

        /// The sink frame (of this segment) at which a `.after` timer ends.
        func deadline(rate: Int) -> Int64? {
            guard case .after(let seconds) = timer, rate > 0 else { return nil }
            return anchor + FrameCount.of(seconds: seconds, rate: rate)
        }

        /// The timer ends with the entry being written.
        var endsWithEntry: Bool {
            timer == .endOfEntries(1) || timer == .endOfChapter && chapter != nil && chapter?.end == nil
        }

        /// For `.endOfChapter`: the chapter of `entry` it ends with, read once from the frame heard
        /// (when it is of `entry`), else the frame decoded next.
        mutating func chapter(of entry: QueueEntryID, format: AudioFormat, chapters: [Chapter], decoded: Int64,
                          heard: FrameMap.Location?) -> ChapterSpan {
            if let chapter, chapter.entry == entry { return chapter }
            var frame = decoded
            if let heard, heard.entry == entry, heard.sourceFrame <= decoded { frame = heard.sourceFrame }
            let rate = format.sampleRate
            let seconds = Double(frame) / Double(rate)
            var span = ChapterSpan(entry: entry, start: 0, end: nil)
            var end: Double?
            if let index = ChapterMap.index(of: seconds, in: chapters), index >= 0 {
                span.start = FrameCount.of(seconds: chapters[index].start, rate: rate)
                end = ChapterMap.end(of: index, in: chapters, duration: nil)
            } else {
                // Before the first chapter: until it starts.
                end = chapters.first?.start
            }
            if let end, format.frames.map({ FrameCount.of(seconds: end, rate: rate) < $0 }) ?? true {
                span.end = FrameCount.of(seconds: end, rate: rate)
            }
            chapter = span
            return span
        }

        /// An entry has joined: one fewer to go.
        mutating func joined() {
            if case .endOfEntries(let count) = timer, count > 1 { timer = .endOfEntries(count - 1) }
        }

        /// It has ended.
        mutating func turnOff() {
            timer = .off
            anchor = 0
            chapter = nil
        }
    }

    private let shared: ConditionLock<CoreState>
    /// Frames the next read may decode: fewer than a chunk when the timer ends inside it, so that
    /// at 1× the last frame written is the timer's last.
    private(set) var readLimit = PlayerCore.chunkFrames

    init(shared: ConditionLock<CoreState>) {
        self.shared = shared
    }

    /// Before each chunk of an entry of `format`: the fade for what is written next, the read
    /// limit, and whether the timer has ended (a `.after` one; `end` ends at the entry's end).
    func followChunk(format: AudioFormat, entry: QueueEntryID, gain: GainStage?) -> Bool {
        readLimit = PlayerCore.chunkFrames
        let (deadline, written, rate, ratio, atEntryEnd) = shared.withLock { s -> (Int64?, Int64, Int, Double, Bool) in
            var deadline = s.commands.sleep.deadline(rate: s.status.sinkRate)
            let ratio = s.status.map.spans.last?.ratio ?? 1
            if s.commands.sleep.timer == .endOfChapter {
                let chapter = s.commands.sleep.chapter(of: entry, format: format, chapters: s.status.metadata[entry]?.chapters ?? [],
                                                       decoded: s.status.decodedFrame, heard: s.status.location())
                if let end = chapter.end {
                    // Where the chapter's last frame will be written, at the ratio it is written at.
                    deadline = s.status.map.written + Int64((Double(end - s.status.decodedFrame) / ratio).rounded())
                }
            }
            let atEntryEnd = s.commands.sleep.endsWithEntry
            if atEntryEnd, let frames = format.frames {
                // Where this entry's last frame will be written, at the ratio it is written at.
                deadline = s.status.map.written + Int64((Double(max(0, frames - s.status.decodedFrame)) / ratio).rounded())
            }
            return (deadline, s.status.map.written, s.status.sinkRate, ratio, atEntryEnd)
        }
        guard let deadline, rate > 0 else {
            gain?.fade = nil
            return false
        }
        gain?.fade = GainStage.Fade(end: deadline, length: Int64(SleepTimer.fadeSeconds * Double(rate)))
        let left = deadline - written
        if left > 0 && left * Int64(ratio.rounded(.up)) < Int64(PlayerCore.chunkFrames) {
            readLimit = max(1, Int((Double(left) * ratio).rounded()))
        }
        return written >= deadline && !atEntryEnd
    }

    /// What was written has played out at the timer's end: it goes off and the player pauses
    /// there, as a listener's pause would. Returns the entry heard.
    func fellAsleep(gain: GainStage?) -> QueueEntryID? {
        gain?.fade = nil
        return shared.update { s -> QueueEntryID? in
            s.commands.sleep.turnOff()
            s.commands.paused = true
            s.status.sink?.setPaused(true)
            s.status.state = .paused
            return s.status.heard
        }
    }
}
