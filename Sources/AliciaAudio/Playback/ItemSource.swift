import AliciaLocks

/// One queue entry being fetched and decoded: a Range fetcher (started at once, so that a
/// prefetched entry fills its buffer while another plays) and, once opened, a decoder behind the
/// `AudioDecoder` seam (libmpg123 for MP3, libsndfile, FFmpeg for AAC: `DecoderOpener` picks).
///
/// An entry may be several files heard as one (a synthesis read aloud in chunks): its *parts*, one
/// after another, with one length and one position. Only the part being read has a fetcher and a
/// decoder; the next one starts fetching a second before the current one ends, so the step from
/// one to the next is a read like any other, with nothing between them.
///
/// Opened, read and closed by the feeder thread; other threads only interrupt its reads.
final class ItemSource {
    let entry: QueueEntryID
    let item: QueueItem
    var parts: [MediaLocation]
    /// Parts still being made (a synthesis voiced as it plays): `parts` grows from it.
    let growth: GrowingParts?
    /// The last read ended at the end of the parts known so far, with more to come.
    private(set) var atEndOfKnownParts = false

    /// The part being read's fetcher, and whether reads are to be interrupted: behind a lock, since
    /// other threads interrupt while the feeder moves from one part to the next.
    private struct Reading {
        var fetcher: RangeFetcher
        /// A later part's fetcher whose header is being read at `open`.
        var probing: RangeFetcher?
        var interrupted = false
    }
    private let reading: Locked<Reading>

    // Feeder thread only.
    private var decoder: (any AudioDecoder)?
    /// How the part being read opened, so that a reopen takes the same decoder without probing.
    private var decoderKind: DecoderOpener.Kind?
    /// The part being read, and the fetcher already started for the one after it.
    private(set) var part = 0
    private var nextFetcher: RangeFetcher?
    /// Frames of each part, once its header has been read (all of them at `open`).
    var partFrames: [Int64] = []
    /// Known once the decoder has opened: the first part's format, with every part's frames.
    private(set) var format: AudioFormat?
    /// What the item is about (tags, chapters, transcript): the file's own, what lies beside it and
    /// what the queue item brings, gathered at its first open.
    private(set) var metadata = ItemMetadata()
    /// Bytes per second of the file (for read-ahead and the time buffered).
    private(set) var byteRate: Double = 0
    /// The decoder has just opened: it stands at frame 0 without a seek.
    private var fresh = false
    /// A read was cut short and the decoder kept: it must be positioned before it is read.
    private var needsPosition = false
    private var readAhead = 0

    private let network: NetworkPolicy
    private let onRebuffer: (@Sendable (Bool) -> Void)?
    /// What a reader that ran dry waits for (two seconds of audio), once the format is known.
    private var refillBytes = 0

    /// A fetcher for a part, with the entry's network policy and rebuffering.
    private func makeFetcher(_ location: MediaLocation, readAhead: Int) throws(PlaybackError) -> RangeFetcher {
        let made = try RangeFetcher(location: location, readAhead: readAhead, network: network)
        made.onRebuffer = onRebuffer
        if refillBytes > 0 { made.setRefill(bytes: refillBytes, byteRate: byteRate) }
        return made
    }

    /// Until the format is known the fetcher keeps a small window: enough for any header, and for
    /// a prefetched entry's first second or so (1.4 s of 48 kHz stereo 16-bit).
    static let headerWindow = 256 * 1024
    /// Audio buffered before playback goes on after the reader ran dry.
    static let refillSeconds = 2.0

    /// Starts fetching `item`. `ahead`: it will play from its start after the entry playing now, so
    /// its window fills from the start at once (else only the header comes until the decoder reads
    /// on, so that a start position never costs the bytes before it).
    init(entry: QueueEntryID, item: QueueItem, ahead: Bool = false, network: NetworkPolicy = NetworkPolicy(),
         onRebuffer: (@Sendable (Bool) -> Void)? = nil) throws(PlaybackError) {
        self.entry = entry
        self.item = item
        self.network = network
        self.onRebuffer = onRebuffer
        growth = item.growth
        parts = [item.location] + item.moreParts
        if let growth { parts = Self.merged(parts, growth.state.parts) }
        let fetcher = try RangeFetcher(location: item.location, readAhead: Self.headerWindow, network: network)
        fetcher.onRebuffer = onRebuffer
        if ahead && item.start == nil { fetcher.fetchAhead() }
        fetcher.start()
        reading = Locked(Reading(fetcher: fetcher))
    }

    /// The part being read's fetcher (its failure, its statistics, what it holds).
    var fetcher: RangeFetcher { reading.withLock { $0.fetcher } }

    /// Makes a blocked (or the next) read of the part being read return, until `clearInterrupt`.
    func interruptReader() {
        reading.withLock { r in
            r.interrupted = true
            r.fetcher.interruptReader()
            r.probing?.interruptReader()
        }
        growth?.interrupt()
    }

    func clearInterrupt() {
        reading.withLock { r in
            r.interrupted = false
            r.fetcher.clearInterrupt()
        }
        growth?.clearInterrupt()
    }

    /// What opening found.
    enum Opened {
        case opened(AudioFormat)
        /// A command interrupted the open: take it, then open again if still wanted.
        case interrupted
        case failed(PlaybackError)
    }

    /// Opens the decoder (blocking on the fetcher) and sets the read-ahead for its format. An entry
    /// of several parts reads every part's header first, for its length.
    func open(readAheadSeconds: Double, readAheadMaximumBytes: Int, downstreamSeconds: Double) -> Opened {
        if let format, decoder != nil { return .opened(format) }
        let opened: DecoderOpener.Opened
        switch openDecoder(fetcher, part: 0, metadata: DecoderOpener.Metadata(coverArt: .standard)) {
        case .opened(let made): opened = made
        case .stopped(let outcome): return outcome
        }
        let first = opened.decoder
        decoderKind = opened.kind
        var format = opened.format
        metadata = ItemMetadata.gathered(fromFile: opened.metadata, item: item)
        if isMultiPart {
            refreshParts()
            switch lengths(after: first.format) {
            case .frames(let frames):
                partFrames = frames
                format.frames = frames.contains(-1) || isGrowing ? nil : frames.reduce(0, +)
            case .stopped(let outcome):
                return outcome
            }
        }
        if fetcher.isLive {
            format.isLive = true
            format.frames = nil
        }
        decoder = first
        needsPosition = false
        self.format = format
        fresh = true
        byteRate = sourceByteRate(first)
        // The read-ahead is all the audio fetched ahead of what is heard: the sink's buffer and the
        // chunk the feeder holds keep some of it, the ring the rest.
        let ringSeconds = max(0, readAheadSeconds - downstreamSeconds)
        (readAhead, refillBytes) = Self.bufferSizes(byteRate: byteRate, ringSeconds: ringSeconds, maximum: readAheadMaximumBytes)
        fetcher.setReadAhead(bytes: readAhead)
        fetcher.setRefill(bytes: refillBytes, byteRate: byteRate)
        if !fetcher.location.isFile { fetcher.armStartGate() }
        Log.info(.decode, "\(item.location.display): \(format.description), \(format.sampleRate) Hz, \(format.channels) ch, read-ahead \(readAhead) bytes"
            + (isMultiPart ? ", \(parts.count) parts" + (isGrowing ? " so far (growing)" : "") : "") + (metadata.chapters.isEmpty ? "" : ", \(metadata.chapters.count) chapters"))
        return .opened(format)
    }

    /// What opening a part's decoder found.
    private enum PartOpen {
        case opened(DecoderOpener.Opened)
        /// Interrupted, or failed: what `open` says.
        case stopped(Opened)
    }

    /// Opens a decoder on `source` (part `part`), as `kind` when that is known.
    private func openDecoder(_ source: RangeFetcher, part: Int, as kind: DecoderOpener.Kind? = nil,
                             metadata: DecoderOpener.Metadata? = nil) -> PartOpen {
        do {
            return .opened(try DecoderOpener.open(source, as: kind, metadata: metadata))
        } catch {
            let reason: String
            switch error {
            case .interrupted: return .stopped(.interrupted)
            case .sourceFailed: reason = "the source failed"
            case .unreadable(let words): reason = words
            }
            return .stopped(.failed(source.failure ?? .cannotDecode(url: parts[part].display, reason: reason)))
        }
    }

    /// The frames of every part (-1 where a header gives none), the first one's from `first`;
    /// parts in another format than the first cannot be heard as one.
    private enum Lengths {
        case frames([Int64])
        /// Interrupted, or a part that cannot be read or is in another format.
        case stopped(Opened)
    }

    private func lengths(after first: AudioFormat) -> Lengths {
        var frames = [first.frames ?? -1]
        for (index, location) in parts.enumerated().dropFirst() {
            let fetcher: RangeFetcher
            do {
                fetcher = try makeFetcher(location, readAhead: Self.headerWindow)
            } catch {
                return .stopped(.failed(error))
            }
            fetcher.start()
            let interrupted = reading.withLock { r -> Bool in
                // An interrupt meant for this open reaches the header being read.
                r.probing = fetcher
                if r.interrupted { fetcher.interruptReader() }
                return r.interrupted
            }
            defer {
                reading.withLock { $0.probing = nil }
                fetcher.close()
            }
            if interrupted { return .stopped(.interrupted) }
            switch openDecoder(fetcher, part: index) {
            case .opened(let header):
                let format = header.decoder.format
                guard format.sampleRate == first.sampleRate, format.channels == first.channels, format.sampleType == first.sampleType else {
                    return .stopped(.failed(.cannotDecode(url: location.display,
                        reason: "part \(index + 1) of \(item.title) is \(format.sampleRate) Hz, \(format.channels) ch, not like the first")))
                }
                frames.append(format.frames ?? -1)
            case .stopped(let outcome):
                return .stopped(outcome)
            }
        }
        return .frames(frames)
    }

    /// Decodes up to `frames` frames into `buffer`, going on into the next part where one ends.
    func read(into buffer: UnsafeMutableRawPointer, frames: Int) -> Int {
        guard let format else { return 0 }
        var total = 0
        atEndOfKnownParts = false
        while total < frames, let decoder {
            let got = decoder.read(into: buffer + total * format.bytesPerFrame, frames: frames - total)
            total += got
            decodedInPart += Int64(got)
            if total == frames || decoder.interrupted || !isMultiPart { break }
            if got == 0 {
                // This part has ended: on into the next, if there is one (a growing item's may
                // have been listed since).
                // Asked before the list is looked at: parts listed before the end was known are seen.
                let growing = isGrowing
                if part + 1 >= parts.count { refreshParts() }
                guard part + 1 < parts.count else {
                    atEndOfKnownParts = growing
                    break
                }
                guard nextPart() else { break }
            }
        }
        if isMultiPart && nextFetcher == nil { refreshParts(); startNextPartWhenDue() }
        if let growth {
            growth.readerAt(seconds: Double(start(ofPart: part) + decodedInPart) / Double(format.sampleRate))
        }
        return total
    }

    /// A read was cut short by an interrupt: the decoder's state is unknown (or, between parts, there
    /// is no decoder yet).
    var interrupted: Bool { (decoder?.interrupted ?? false) || reading.withLock { $0.interrupted } }
    /// The header promised more than the file held.
    var isTruncated: Bool { decoder?.isTruncated ?? false }
    var hasDecoder: Bool { decoder != nil && !needsPosition }

    /// Where the part being read starts, in the entry's frames.
    private func start(ofPart index: Int) -> Int64 {
        partFrames.prefix(index).reduce(0) { $0 + max(0, $1) }
    }

    /// Fetches the next part a second before the part being read ends.
    private func startNextPartWhenDue() {
        guard let format, part + 1 < parts.count, partFrames.indices.contains(part), partFrames[part] >= 0 else { return }
        guard partFrames[part] - decodedInPart <= Int64(format.sampleRate) else { return }
        do {
            let made = try makeFetcher(parts[part + 1], readAhead: readAhead)
            made.fetchAhead()
            made.start()
            nextFetcher = made
        } catch {
            // Said when the part is reached and cannot be opened then either.
            Log.info(.fetch, "part \(part + 2) of \(item.title): \(error.message)")
        }
    }

    /// Why the entry stopped short of its end, if it did: its fetcher failed, or a part after the
    /// first could not be opened.
    var failure: PlaybackError? { partFailure ?? fetcher.failure }
    private var partFailure: PlaybackError?

    /// Frames read of the part being read (kept by `read` and `position`).
    private var decodedInPart: Int64 = 0

    /// Moves to the next part, its decoder open at its start. False (the entry ends there) when it
    /// cannot be opened.
    private func nextPart() -> Bool {
        // A part of unknown length (0xFFFFFFFF sizes) has just ended: its length is known now, so
        // later frames map past it and a reopen never goes back into it.
        if partFrames.indices.contains(part), partFrames[part] < 0 { partFrames[part] = decodedInPart }
        part += 1
        let made: RangeFetcher
        if let nextFetcher {
            made = nextFetcher
            self.nextFetcher = nil
        } else {
            do {
                made = try makeFetcher(parts[part], readAhead: readAhead)
            } catch {
                partFailure = error
                return false
            }
            made.fetchAhead()
            made.start()
        }
        switchFetcher(to: made)
        (decoder, decoderKind, needsPosition) = (nil, nil, false)
        decodedInPart = 0
        switch openDecoder(made, part: part) {
        case .opened(let opened):
            if let problem = learnFrames(of: opened.decoder.format) {
                partFailure = problem
                return false
            }
            (decoder, decoderKind) = (opened.decoder, opened.kind)
            return true
        case .stopped(.failed(let error)):
            partFailure = error
            return false
        case .stopped:
            return false
        }
    }

    /// Makes `fetcher` the one being read (closing the old one), carrying an interrupt over.
    /// A live stream goes neither back nor ahead: a reposition (a speed change replays from what was
    /// heard) goes on from where the stream is; a decoder that cannot starts again on a new
    /// connection, at the live point.
    private func goOnLive() -> Opened {
        fresh = false
        needsPosition = false
        if let decoder, !decoder.interrupted || decoder.clearInterruption() {
            return format.map { .opened($0) } ?? .interrupted
        }
        decoder = nil
        let made: RangeFetcher
        do {
            made = try makeFetcher(parts[0], readAhead: readAhead)
        } catch {
            return .failed(error)
        }
        made.start()
        switchFetcher(to: made)
        switch openDecoder(made, part: 0, as: decoderKind) {
        case .stopped(let outcome):
            return outcome
        case .opened(let opened):
            decoder = opened.decoder
            decoderKind = opened.kind
            return format.map { .opened($0) } ?? .opened(opened.format)
        }
    }

    /// A live stream's name and title now, and a count that changes with them; nil for a file.
    var liveStream: (info: LiveStreamInfo, changes: Int)? { fetcher.liveStream }

    private func switchFetcher(to fetcher: RangeFetcher) {
        let old = reading.withLock { r -> RangeFetcher in
            defer { r.fetcher = fetcher }
            if r.interrupted { fetcher.interruptReader() }
            return r.fetcher
        }
        old.close()
    }

    /// Moves the decoder to `frame` of the entry, reopening it when a read was cut short (its state
    /// is then unknown; the header comes from the fetcher's cache, so that costs no request).
    func position(at frame: Int64) -> Opened {
        atEndOfKnownParts = false
        if format?.isLive == true { return goOnLive() }
        let target: (part: Int, offset: Int64) = isMultiPart ? partAndOffset(of: frame) : (0, frame)
        if target.part != part {
            nextFetcher?.close()
            nextFetcher = nil
            let made: RangeFetcher
            do {
                made = try makeFetcher(parts[target.part], readAhead: readAhead)
            } catch {
                return .failed(error)
            }
            made.start()
            part = target.part
            switchFetcher(to: made)
            (decoder, decoderKind, needsPosition) = (nil, nil, false)
            fresh = false
        }
        decodedInPart = target.offset
        // A seek on a slow link starts with as much in hand as a start.
        if refillBytes > 0 && !fetcher.location.isFile { fetcher.armStartGate() }
        if let decoder, fresh, target.offset == 0, !decoder.interrupted, !needsPosition {
            fresh = false
            return format.map { .opened($0) } ?? .interrupted
        }
        fresh = false
        if let decoder, !decoder.interrupted || decoder.clearInterruption() {
            if decoder.seek(toFrame: target.offset), !decoder.interrupted {
                needsPosition = false
                return format.map { .opened($0) } ?? .interrupted
            }
            // Cut short again: kept (its next seek starts afresh), or reopened below.
            if decoder.interrupted && decoder.clearInterruption() { return .interrupted }
        }
        (decoder, needsPosition) = (nil, false)
        // No clearing of an interrupt here: one that came after the request was taken is for a
        // newer command, and must cut this reopen short.
        switch openDecoder(fetcher, part: part, as: decoderKind) {
        case .stopped(let outcome):
            return outcome
        case .opened(let opened):
            let reopened = opened.decoder
            decoderKind = opened.kind
            if target.offset > 0 && !reopened.seek(toFrame: target.offset) {
                if reopened.interrupted { return .interrupted }
                let detail = (reopened as? SndFile).map { ": \($0.lastError)" } ?? ""
                return .failed(.cannotDecode(url: parts[part].display, reason: "cannot seek to frame \(target.offset)\(detail)"))
            }
            if reopened.interrupted { return .interrupted }
            decoder = reopened
            return format.map { .opened($0) } ?? .opened(opened.format)
        }
    }

    /// The part holding `frame` of the entry, and the frame within it.
    private func partAndOffset(of frame: Int64) -> (part: Int, offset: Int64) {
        var start: Int64 = 0
        for (index, frames) in partFrames.enumerated() {
            if frames < 0 || frame < start + frames || index == partFrames.count - 1 {
                return (index, max(0, frame - start))
            }
            start += frames
        }
        return (0, frame)
    }

    /// A read was cut short: `position(at:)` makes the decoder usable again, by a seek where it
    /// can recover that way (libmpg123, FFmpeg: nothing is read again), else by reopening it.
    func dropDecoder() {
        guard let decoder else { return }
        if decoder.clearInterruption() { needsPosition = true } else { self.decoder = nil }
    }

    func close() {
        decoder = nil
        nextFetcher?.close()
        nextFetcher = nil
        fetcher.close()
    }

    /// The frame `start` names in this item's format, clamped to it.
    func frame(for start: StartPosition?) -> Int64 {
        guard let start, let format else { return 0 }
        var target: Int64
        switch start {
        case .seconds(let seconds): target = FrameCount.of(seconds: seconds, rate: format.sampleRate)
        case .fraction(let fraction): target = FrameCount.clamped(fraction * Double(format.frames ?? 0))
        }
        target = max(0, target)
        if let frames = format.frames { target = min(target, frames) }
        // A growing item starts no later than what has been listed of it (the rest, as it comes).
        if isGrowing, let known = knownFrames { target = min(target, known) }
        return target
    }

    /// The read-ahead and the refill mark for `byteRate`: the read-ahead `ringSeconds` of it (64 KiB to
    /// `maximum`); a link slower than the audio pauses a few times for two seconds' worth rather than
    /// stuttering (at most half the ring, so the mark can always be reached). Worked out in doubles:
    /// a server that claims an exabyte total for a one-second WAV makes the rate ~1e18 B/s, and
    /// `Int(_:)` of ten seconds of that trapped.
    static func bufferSizes(byteRate: Double, ringSeconds: Double, maximum: Int) -> (readAhead: Int, refill: Int) {
        let wanted = ringSeconds * byteRate
        let readAhead = max(64 * 1024, wanted.isNaN ? 0 : Int(min(Double(maximum), wanted)))
        let refill = refillSeconds * byteRate
        return (readAhead, refill.isNaN ? 0 : Int(max(0, min(Double(readAhead / 2), refill))))
    }

    /// Size over duration where both are known (right for compressed formats too), else the PCM rate.
    private func sourceByteRate(_ decoder: AudioDecoder) -> Double {
        let format = decoder.format
        if let size = fetcher.length(), let duration = format.duration, duration > 0 {
            return Double(size) / duration
        }
        // No length (a live stream): the rate the headers state, else the decoded one (PCM).
        return decoder.nominalByteRate ?? Double(format.sampleRate * format.bytesPerFrame)
    }
}
