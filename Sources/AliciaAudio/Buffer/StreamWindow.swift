/// A request the fetch thread should send: bytes `start..<end` (`end` nil: to
/// the end of the resource), for the ring or for the tail cache.
struct RangeRequest: Equatable, Sendable {
    enum Purpose: Sendable { case ring, tail }
    var start: Int64
    var end: Int64?
    var purpose: Purpose
    /// The window's generation when planned; a reposition makes it stale.
    var generation: UInt64
}

/// What a stream's bytes look like from the reader's side: the file's first
/// bytes (the header, kept for good), a window of read-ahead in a ring, and
/// the file's last bytes when a decoder has asked for them. Pure bookkeeping
/// over which bytes are where; `RangeFetcher` adds locking and waiting.
///
/// Non-copyable: it owns the head and tail caches and frees them when it goes, so a copy can
/// neither share them nor free them twice, and no owner has to remember a `deallocate()`.
struct StreamWindow: ~Copyable {
    /// What a read found.
    enum ReadStep: Equatable {
        case copied(Int)
        case endOfFile
        /// Not here yet: wait for the fetch thread (a request may have been planned).
        case wait
    }

    /// What the window did with bytes a transfer delivered.
    enum Acceptance: Equatable {
        /// Consumed them all (kept or skipped).
        case consumed
        /// They do not fit yet: pause the transfer and offer them again later.
        case full
        /// The transfer belongs to an older generation: cancel it.
        case stale
    }

    /// A forward jump of up to this many bytes past the ring's end waits for the
    /// running transfer instead of sending a new request.
    static let skipAheadLimit: Int64 = 64 * 1024

    private(set) var ring: ByteRing
    /// File offset of the ring's first byte.
    private(set) var ringStart: Int64 = 0
    var ringEnd: Int64 { ringStart + Int64(ring.count) }

    /// Bytes `0..<headFilled` of the file, kept so re-reading the header costs no request.
    private let head: UnsafeMutableRawBufferPointer
    private(set) var headFilled = 0

    /// Bytes `tailStart..<tailStart + tailFilled`: the file's end, fetched when a
    /// decoder looks there (trailing WAV chunks, ID3v1 tags, Ogg's last page).
    private let tail: UnsafeMutableRawBufferPointer
    private(set) var tailStart: Int64?
    private(set) var tailFilled = 0
    /// A reader waits for the tail.
    private(set) var wantsTail = false

    /// The resource's size, once an answer said it.
    var totalSize: Int64?
    /// Set once the first answer has been seen, whether or not it named a size.
    var sizeResolved = false
    /// Bumped by every reposition; transfers planned before it are stale.
    private(set) var generation: UInt64 = 0
    /// The reader has gone past the header into the audio. Until then only the
    /// head is fetched: a decoder that opens and then jumps to a start position
    /// must not have made us fetch the bytes in between.
    private(set) var streaming = false
    /// A live stream (no length, no ranges): read once through, in order. Nothing is fetched
    /// twice and nothing behind the reader is kept; a reader ahead of the ring waits for the stream.
    private(set) var isLive = false

    init(readAhead: Int, headCapacity: Int = 64 * 1024, tailCapacity: Int = 64 * 1024) {
        ring = ByteRing(capacity: readAhead)
        head = .allocate(byteCount: headCapacity, alignment: 16)
        tail = .allocate(byteCount: tailCapacity, alignment: 16)
    }

    deinit {
        head.deallocate()
        tail.deallocate()
    }

    // MARK: Reader side

    /// Copies bytes at `offset` into `buffer`, or says what is missing. A miss
    /// outside the window repositions it there (bumping the generation) or asks
    /// for the tail.
    mutating func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> ReadStep {
        if let end = totalSize, offset >= end { return .endOfFile }
        if offset < Int64(headFilled) {
            let n = min(buffer.count, headFilled - Int(offset))
            buffer.baseAddress!.copyMemory(from: head.baseAddress! + Int(offset), byteCount: n)
            return .copied(n)
        }
        if offset >= ringStart && offset < ringEnd {
            if offset >= Int64(head.count) { streaming = true }
            discardRing(before: offset)
            let n = ring.copy(from: 0, into: buffer)
            ring.removeFirst(n)
            ringStart += Int64(n)
            wantsTail = false
            return .copied(n)
        }
        if let start = tailStart, offset >= start, offset < start + Int64(tailFilled) {
            let from = Int(offset - start)
            let n = min(buffer.count, tailFilled - from)
            buffer.baseAddress!.copyMemory(from: tail.baseAddress! + from, byteCount: n)
            return .copied(n)
        }
        if !sizeResolved {
            return .wait
        }
        if isLive {
            // Behind the ring, the stream has moved on: what was there is gone.
            guard offset >= ringStart else { return .endOfFile }
            discardRing(before: offset)
            return .wait
        }
        if offset >= ringStart && offset <= ringEnd + Self.skipAheadLimit {
            // On the ring's own path: let the transfer get there, dropping what is skipped.
            // Bytes still inside the header probe do not count as going past the header.
            if offset >= Int64(head.count) { streaming = true }
            discardRing(before: offset)
            return .wait
        }
        if let total = totalSize, offset >= total - Int64(tail.count) {
            wantsTail = true
            return .wait
        }
        reposition(to: offset)
        return .wait
    }

    /// Bytes held in the ring at and after `offset`.
    func bufferedAhead(of offset: Int64) -> Int64 {
        guard offset >= ringStart, offset <= ringEnd else { return 0 }
        return ringEnd - offset
    }

    // MARK: Fetch side

    /// The request to send when no transfer is running, if any.
    func nextRequest() -> RangeRequest? {
        if wantsTail, let total = totalSize {
            let start = max(0, total - Int64(tail.count))
            if tailStart != start || start + Int64(tailFilled) < total {
                return RangeRequest(start: start, end: total, purpose: .tail, generation: generation)
            }
        }
        let from = ringEnd
        if let total = totalSize, from >= total { return nil }
        var end: Int64
        if streaming {
            // Refill in big steps: only once half the ring is free (or it ran dry). A live stream
            // that dropped is asked for again at once: it does not wait while the ring drains.
            guard ring.isEmpty || ring.free >= (isLive ? 1 : ring.capacity / 2) else { return nil }
            end = from + Int64(ring.free)
        } else {
            // The header probe: the first bytes only.
            guard from < Int64(head.count) else { return nil }
            end = min(Int64(head.count), from + Int64(ring.free))
        }
        if let total = totalSize { end = min(end, total) }
        // A live stream is asked for once (again after a drop), from where the ring ends, unbounded.
        return RangeRequest(start: from, end: isLive ? nil : end, purpose: .ring, generation: generation)
    }

    /// Whether a running ring transfer should make way for the tail a reader waits for.
    var tailPreemptsRing: Bool { wantsTail && nextRequest()?.purpose == .tail }

    /// Makes room for the tail request that is about to be sent.
    mutating func beginTail(at start: Int64) {
        if tailStart != start {
            tailStart = start
            tailFilled = 0
        }
    }

    /// Takes `bytes`, which sit at file offset `offset`, delivered by `request`.
    mutating func accept(_ bytes: UnsafeRawBufferPointer, at offset: Int64, for request: RangeRequest) -> Acceptance {
        guard request.generation == generation else { return .stale }
        switch request.purpose {
        case .tail:
            guard let start = tailStart else { return .stale }
            let filledEnd = start + Int64(tailFilled)
            let from = max(offset, filledEnd)
            let to = min(offset + Int64(bytes.count), start + Int64(tail.count))
            if from < to && from == filledEnd {
                (tail.baseAddress! + Int(from - start))
                    .copyMemory(from: bytes.baseAddress! + Int(from - offset), byteCount: Int(to - from))
                tailFilled += Int(to - from)
            }
            return .consumed
        case .ring:
            keepHead(bytes, at: offset)
            let skip = Int(min(Int64(bytes.count), max(0, ringEnd - offset)))
            guard offset + Int64(skip) == ringEnd || skip == bytes.count else {
                // A gap between the ring and these bytes: only a bug could cause it.
                return .stale
            }
            let rest = bytes.count - skip
            guard rest <= ring.free else { return .full }
            ring.append(UnsafeRawBufferPointer(rebasing: bytes[skip...]))
            return .consumed
        }
    }

    /// Fetches past the header from the start, without waiting for a reader to go there: a
    /// prefetched entry's first seconds are then in the ring when its decoder opens at a join.
    mutating func streamFromStart() {
        streaming = true
    }

    /// The first answer showed a live stream: no size, and from now on no ranges.
    mutating func goLive() {
        isLive = true
        streaming = true
        sizeResolved = true
        totalSize = nil
        wantsTail = false
    }

    /// Grows (or shrinks, keeping what is buffered) the read-ahead.
    mutating func setReadAhead(_ bytes: Int) {
        ring.resize(to: max(bytes, ring.count, 4096))
    }

    private mutating func keepHead(_ bytes: UnsafeRawBufferPointer, at offset: Int64) {
        guard offset <= Int64(headFilled), headFilled < head.count else { return }
        let end = min(offset + Int64(bytes.count), Int64(head.count))
        guard end > Int64(headFilled) else { return }
        let from = headFilled
        (head.baseAddress! + from).copyMemory(from: bytes.baseAddress! + Int(Int64(from) - offset),
                                              byteCount: Int(end) - from)
        headFilled = Int(end)
    }

    private mutating func discardRing(before offset: Int64) {
        if offset >= ringEnd {
            ring.removeAll()
            ringStart = max(ringStart, offset)
        } else if offset > ringStart {
            ring.removeFirst(Int(offset - ringStart))
            ringStart = offset
        }
    }

    private mutating func reposition(to offset: Int64) {
        streaming = true
        ring.removeAll()
        ringStart = offset
        wantsTail = false
        generation &+= 1
    }
}
