internal import AliciaCurl
import AliciaLocks

/// The fetcher's state: what its lock guards (`Shared`), the transfer in flight, what the first
/// answer said the file is, and how bytes move.
extension RangeFetcher {
    struct Shared: ~Copyable {
        var window: StreamWindow
        var failure: PlaybackError?
        var interrupted = false
        var shutdown = false
        /// A transfer is in flight (or paused).
        var transferRunning = false
        /// The running transfer is paused because the ring was full (a server that ignored Range).
        var transferPaused = false
        /// A wake-up has been sent that the fetch thread has not yet seen.
        var wakePending = false
        var statistics = FetchStatistics()
        /// Since when (monotonic ns) every attempt has failed: the server is unreachable.
        var outageSince: Int64?
        /// The reader ran dry while playing: reads wait until `refillBytes` are buffered.
        var rebuffering = false
        /// Bytes to have ahead before a dry reader goes on (0: until the format is known, none).
        var refillBytes: Int64 = 0
        /// Where the waiting reader reads, for the share buffered.
        var waitingAt: Int64 = 0
        /// The window generation the reader was last fed in: a dry read in it is a starvation,
        /// a first read after a seek is not.
        var fedGeneration: UInt64?
        /// The next read (the first of a start or a seek) waits for the refill mark too, unless the
        /// link proves fast (see `armStartGate`).
        var startGate = false
        /// When the start gate was armed (monotonic ns) and the bytes received then.
        var gateArmedAt: Int64 = 0
        var gateReceivedAtArm: Int64 = 0
        /// The audio's bytes a second (0: unknown).
        var byteRate: Double = 0
        /// A live stream's name and titles (nil: a file).
        var live: LiveState?

        /// What a waiting reader waits for: the refill mark; a live stream's start, a second (its
        /// server's burst, usually more, is all the margin it will have: it comes at the rate it
        /// plays, so waiting longer only delays the first sound).
        var gateBytes: Int64 {
            guard startGate, !rebuffering, live != nil, byteRate > 0 else { return refillBytes }
            return min(refillBytes, Int64(byteRate))
        }

        /// Whether a reader that was being fed, reading at `offset`, finds nothing there: dry at
        /// the end of the ring it has been reading on (not a seek elsewhere, not the end of the
        /// file). Then it rebuffers, waiting at `offset`.
        mutating func runsDry(at offset: Int64) -> Bool {
            guard !rebuffering, !startGate, refillBytes > 0, fedGeneration == window.generation,
                  offset == window.ringEnd, window.bufferedAhead(of: offset) == 0,
                  failure == nil, !interrupted, !shutdown else { return false }
            if let totalSize = window.totalSize, offset >= totalSize { return false }
            rebuffering = true
            waitingAt = offset
            return true
        }
    }

    struct Transfer {
        var request: RangeRequest
        /// File offset of the next body byte.
        var offset: Int64
        var validated = false
        var paused = false
        /// We ended it ourselves (stale, end of file, error status): ignore its result.
        var abandoned = false
        var receivedAny = false
        /// The server ignored Range and sends the whole resource from byte 0.
        var wholeResource = false
        /// It answered with a status worth asking again (5xx, 429).
        var retryStatus: Int?
        /// A live stream's titles, taken out of the body (`icy-metaint`).
        var icy: ICYMetadata?
    }

    /// What the first answer said the file is; every later answer must say the same.
    struct Identity {
        var etag: String?
        var lastModified: String?
        var total: Int64?
        /// The server answered Range requests with 206.
        var ranges: Bool
    }

    /// How the fetch thread moves bytes: libcurl for a URL (its handles made by the fetch thread);
    /// `pread` for a local file, so that playing one never loads libcurl.
    enum Transport {
        case curl(CurlHandles)
        case file(LocalFile)
    }

    enum Validation {
        /// The body starts at this file offset.
        case body(Int64)
        /// No body to keep: end of file, or an error recorded in `failure`.
        case noBody
        /// A status worth asking again later (5xx, 429).
        case retry(Int)
    }
}
