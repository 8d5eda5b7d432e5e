/// One queue entry being fetched and decoded: its own Range fetcher (started at once, so that a
/// prefetched entry fills its buffer while another plays) and, once opened, its libsndfile decoder.
/// Opened, read and closed by the feeder thread; other threads only interrupt its reads.
final class ItemSource {
    let entry: QueueEntryID
    let item: QueueItem
    let fetcher: RangeFetcher
    /// Feeder thread only.
    private(set) var decoder: SndFile?
    /// Known once the decoder has opened.
    private(set) var format: AudioFormat?
    /// Bytes per second of the file (for read-ahead and the time buffered).
    private(set) var byteRate: Double = 0
    /// The decoder has just opened: it stands at frame 0 without a seek.
    private var fresh = false

    /// Until the format is known the fetcher keeps a small window: enough for any header, and for
    /// a prefetched entry's first second or so (1.4 s of 48 kHz stereo 16-bit).
    static let headerWindow = 256 * 1024

    /// Starts fetching `item`. `ahead`: it will play from its start after the entry playing now, so
    /// its window fills from the start at once (else only the header comes until the decoder reads
    /// on, so that a start position never costs the bytes before it).
    init(entry: QueueEntryID, item: QueueItem, ahead: Bool = false) throws(PlaybackError) {
        self.entry = entry
        self.item = item
        fetcher = try RangeFetcher(location: item.location, readAhead: Self.headerWindow)
        if ahead && item.start == nil { fetcher.fetchAhead() }
        fetcher.start()
    }

    /// What opening found.
    enum Opened {
        case opened(AudioFormat)
        /// A command interrupted the open: take it, then open again if still wanted.
        case interrupted
        case failed(PlaybackError)
    }

    /// Opens the decoder (blocking on the fetcher) and sets the read-ahead for its format.
    func open(readAheadSeconds: Double, readAheadMaximumBytes: Int, downstreamSeconds: Double) -> Opened {
        if let format, decoder != nil { return .opened(format) }
        do {
            let opened = try SndFile(source: fetcher)
            decoder = opened
            format = opened.format
            fresh = true
        } catch {
            if error.code == SndfileError.interrupted { return .interrupted }
            return .failed(fetcher.failure ?? .cannotDecode(url: item.location.display, reason: error.message))
        }
        let format = self.format!
        byteRate = sourceByteRate(format)
        // The read-ahead is all the audio fetched ahead of what is heard: the sink's buffer and the
        // chunk the feeder holds keep some of it, the ring the rest.
        let ringSeconds = max(0, readAheadSeconds - downstreamSeconds)
        let readAhead = min(readAheadMaximumBytes, Int(ringSeconds * byteRate))
        fetcher.setReadAhead(bytes: max(readAhead, 64 * 1024))
        Log.info(.decode, "\(item.location.display): \(format.description), \(format.sampleRate) Hz, \(format.channels) ch, read-ahead \(readAhead) bytes")
        return .opened(format)
    }

    /// Moves the decoder to `frame`, reopening it when a read was cut short (its state is then
    /// unknown; the header comes from the fetcher's cache, so that costs no request).
    func position(at frame: Int64) -> Opened {
        if let decoder, fresh, frame == 0, !decoder.interrupted {
            fresh = false
            return format.map { .opened($0) } ?? .interrupted
        }
        fresh = false
        if let decoder, !decoder.interrupted, decoder.seek(toFrame: frame), !decoder.interrupted {
            return format.map { .opened($0) } ?? .interrupted
        }
        decoder = nil
        fetcher.clearInterrupt()
        do {
            let reopened = try SndFile(source: fetcher)
            if frame > 0 && !reopened.seek(toFrame: frame) {
                if reopened.interrupted { return .interrupted }
                return .failed(.cannotDecode(url: item.location.display, reason: "cannot seek to frame \(frame): \(reopened.lastError)"))
            }
            if reopened.interrupted { return .interrupted }
            decoder = reopened
            return .opened(reopened.format)
        } catch {
            if error.code == SndfileError.interrupted { return .interrupted }
            return .failed(fetcher.failure ?? .cannotDecode(url: item.location.display, reason: error.message))
        }
    }

    /// The decoder is gone (a cut-short read): `position(at:)` makes it again.
    func dropDecoder() { decoder = nil }

    func close() {
        decoder = nil
        fetcher.close()
    }

    /// The frame `start` names in this item's format, clamped to it.
    func frame(for start: StartPosition?) -> Int64 {
        guard let start, let format else { return 0 }
        var target: Int64
        switch start {
        case .seconds(let seconds): target = Int64((seconds * Double(format.sampleRate)).rounded())
        case .fraction(let fraction): target = Int64((fraction * Double(format.frames ?? 0)).rounded())
        }
        target = max(0, target)
        if let frames = format.frames { target = min(target, frames) }
        return target
    }

    /// Size over duration where both are known (right for compressed formats too), else the PCM rate.
    private func sourceByteRate(_ format: AudioFormat) -> Double {
        if let size = fetcher.length(), let duration = format.duration, duration > 0 {
            return Double(size) / duration
        }
        return Double(format.sampleRate * format.bytesPerFrame)
    }
}
