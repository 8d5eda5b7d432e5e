import AliciaLocks

/// The parts of an item that are still being made while it plays (a synthesis voiced as it is
/// heard, `/api/speak` answering `streaming`): the ones known so far, appended to by whoever asks
/// for more (`SpeechVoicing` in AliciaLibrary), read by the item's `ItemSource`, until `finish`.
///
/// Like a live HLS playlist without `EXT-X-ENDLIST`: the reader plays what is listed, and when it
/// reaches the end of that before the end is known it waits ("voicing…") rather than ending. The
/// maker learns from `progress` how much of what is known is left to read, so it can ask again
/// sooner when that runs short, and `awaitDemand` wakes it the moment the reader runs dry.
///
/// Shared by threads: everything is behind one lock. One item's parts for its whole life: played
/// again (a loop, a seek back), it reads the same parts.
public final class GrowingParts: Sendable, Equatable, CustomStringConvertible {
    public struct State: Sendable {
        /// The parts known so far, in order, with their seconds (as the maker was told).
        public var parts: [MediaLocation] = []
        public var seconds: [Double] = []
        /// No more parts will come: all are there (`ready`), or the rest cannot be made.
        public var finished = false
        /// Why the rest could not be made, when it could not.
        public var failure: String?
        /// Seconds of the known parts the reader has read.
        public var readSeconds = 0.0
        /// The reader is at the end of the known parts, waiting for the next.
        public var readerWaiting = false
        /// The reader's waits are to end (a command for the player), until cleared.
        var interrupted = false
        /// The maker is to stop asking (the item is done with).
        public var abandoned = false

        /// Seconds of the known parts not yet read.
        public var secondsLeft: Double { max(0, seconds.reduce(0, +) - readSeconds) }
    }

    private let lock: ConditionLock<State>

    public init(first: [MediaLocation], seconds: [Double] = []) {
        var state = State()
        state.parts = first
        state.seconds = seconds.count == first.count ? seconds : Array(repeating: 0, count: first.count)
        lock = ConditionLock(state)
    }

    public var state: State { lock.withLock { $0 } }

    /// More parts, in order, after those already known.
    public func append(_ parts: [MediaLocation], seconds: [Double]) {
        guard !parts.isEmpty else { return }
        lock.update { s in
            guard !s.finished else { return }
            s.parts += parts
            s.seconds += seconds.count == parts.count ? seconds : Array(repeating: 0, count: parts.count)
        }
    }

    /// No more parts come; `failure`: why the rest could not be made.
    public func finish(failure: String? = nil) {
        lock.update { s in
            guard !s.finished else { return }
            s.finished = true
            s.failure = failure
        }
    }

    /// The item is done with: its maker stops asking.
    public func abandon() {
        lock.update { $0.abandoned = true }
    }

    /// The reader has read `seconds` of the known parts (it is not waiting).
    func readerAt(seconds: Double) {
        lock.withLock { s in
            s.readSeconds = seconds
            s.readerWaiting = false
        }
    }

    /// What a wait for a part after the first `known` found.
    enum Wait: Equatable {
        /// There are more parts now.
        case grown
        /// No more will come.
        case finished
        /// A command ended the wait, or it timed out: look at the player's requests, then ask again.
        case interrupted
    }

    /// Waits (at most `patience`) until there are more than `known` parts, no more will come, or
    /// an interrupt; the maker is told at once that the reader is waiting.
    func awaitPart(after known: Int, patience: Duration) -> Wait {
        lock.update { $0.readerWaiting = true }
        return lock.withLock(waitingUntil: { $0.parts.count > known || $0.finished || $0.interrupted }, timeout: patience) { s -> Wait in
            if s.parts.count > known { s.readerWaiting = false; return .grown }
            if s.finished { s.readerWaiting = false; return .finished }
            return .interrupted
        }
    }

    func interrupt() { lock.update { $0.interrupted = true } }
    func clearInterrupt() { lock.withLock { $0.interrupted = false } }

    /// The maker's wait between asks: `interval`, or less when the reader runs short of known
    /// parts (under `shortSeconds` left, or waiting) but never under `minimum`, or until abandoned.
    /// True while it is to go on asking.
    public func awaitDemand(interval: Duration, minimum: Duration, shortSeconds: Double) -> Bool {
        let clock = ContinuousClock()
        let start = clock.now
        lock.withLock(waitingUntil: { $0.abandoned || $0.finished }, timeout: minimum) { _ in }
        let waited = clock.now - start
        guard waited < interval else { return lock.withLock { !$0.abandoned && !$0.finished } }
        return lock.withLock(waitingUntil: { s in s.abandoned || s.finished || s.readerWaiting || s.secondsLeft < shortSeconds },
                             timeout: interval - waited) { s -> Bool in !s.abandoned && !s.finished }
    }

    public static func == (a: GrowingParts, b: GrowingParts) -> Bool { a === b }

    public var description: String {
        let s = state
        return "\(s.parts.count) parts" + (s.finished ? (s.failure.map { ", failed: \($0)" } ?? ", all there") : ", growing")
    }
}
