/// When playback goes to sleep (`--sleep`, key `z`): it fades to silence over its last 10 s, then
/// pauses (it does not stop: the position stays, and a resume goes on from there). Only playing
/// time counts: a pause, a hold for a voice note or a stall stops the clock.
public enum SleepTimer: Sendable, Equatable {
    case off
    /// After this many seconds of playing.
    case after(seconds: Double)
    /// At the end of the entry heard now (1) or of the `count − 1`th after it.
    case endOfEntries(Int)
    /// At the end of the chapter heard (its end, or where the next one starts, in the item's own
    /// time: exact under speed and skipped silence); after a seek, of the chapter sought to. An
    /// item without chapters: at its end.
    case endOfChapter

    /// Seconds of fade before the timer ends.
    public static let fadeSeconds = 10.0

    /// The timers key `z` steps through: off, 15, 30, 45 and 60 minutes, the end of the chapter,
    /// the end of the entry.
    public static let cycle: [SleepTimer] = [.off, .after(seconds: 900), .after(seconds: 1800), .after(seconds: 2700),
                                             .after(seconds: 3600), .endOfChapter, .endOfEntries(1)]

    /// The timer after this one in `cycle` (a running countdown moves on to the next whole step
    /// above what is left: 12 minutes left → 15).
    public var next: SleepTimer {
        switch self {
        case .off: return Self.cycle[1]
        case .endOfEntries: return .off
        case .endOfChapter: return .endOfEntries(1)
        case .after(let seconds):
            for step in Self.cycle.dropFirst() {
                if case .after(let length) = step, length > seconds + 1 { return step }
            }
            return .endOfChapter
        }
    }
}
