import Testing
@testable import AliciaAudio

/// The window's bookkeeping, driven by hand: which requests it plans and what reads find.
@Suite struct StreamWindowTests {
    /// A file whose byte at offset i is UInt8(i % 251).
    static func content(_ range: Range<Int64>) -> [UInt8] { range.map { UInt8($0 % 251) } }

    private func deliver(_ window: inout StreamWindow, _ request: RangeRequest, from: Int64, to: Int64) -> StreamWindow.Acceptance {
        Self.content(from..<to).withUnsafeBytes { window.accept($0, at: from, for: request) }
    }

    private func read(_ window: inout StreamWindow, at offset: Int64, count: Int) -> (StreamWindow.ReadStep, [UInt8]) {
        var out = [UInt8](repeating: 0, count: count)
        let step = out.withUnsafeMutableBytes { window.read(at: offset, into: $0) }
        if case .copied(let n) = step { return (step, Array(out.prefix(n))) }
        return (step, [])
    }

    @Test func theFirstRequestIsAHeaderProbe() {
        let window = StreamWindow(readAhead: 256 * 1024, headCapacity: 64 * 1024)
        #expect(window.nextRequest() == RangeRequest(start: 0, end: 64 * 1024, purpose: .ring, generation: 0))
    }

    // Regression: `--start 50%` fetched the first half of the file because the
    // ring refilled from the header on before the decoder had jumped.
    @Test func nothingPastTheHeaderIsFetchedUntilTheReaderGoesThere() {
        var window = StreamWindow(readAhead: 1000, headCapacity: 100)
        let probe = window.nextRequest()!
        #expect(probe.end == 100)
        window.totalSize = 1_000_000
        window.sizeResolved = true
        #expect(deliver(&window, probe, from: 0, to: 100) == .consumed)
        #expect(read(&window, at: 0, count: 44).1 == Self.content(0..<44))
        #expect(window.nextRequest() == nil)
        // The decoder jumps to its start position: the next request starts there.
        #expect(read(&window, at: 500_000, count: 10).0 == .wait)
        #expect(window.nextRequest() == RangeRequest(start: 500_000, end: 501_000, purpose: .ring, generation: 1))
    }

    // Regression: on a loaded machine the header probe arrived in pieces, a read just past
    // the first piece counted as "past the header", and `--start 50%` fetched everything.
    @Test func aHeaderArrivingInPiecesDoesNotStartStreaming() {
        var window = StreamWindow(readAhead: 1000, headCapacity: 100)
        let probe = window.nextRequest()!
        window.totalSize = 1_000_000
        window.sizeResolved = true
        #expect(deliver(&window, probe, from: 0, to: 30) == .consumed)
        #expect(read(&window, at: 30, count: 10).0 == .wait)
        let streaming = window.streaming
        #expect(!streaming)
        #expect(deliver(&window, probe, from: 30, to: 100) == .consumed)
        #expect(window.nextRequest() == nil)
        #expect(read(&window, at: 500_000, count: 10).0 == .wait)
        #expect(window.nextRequest()?.start == 500_000)
    }

    @Test func readingOnFromTheHeaderStreams() {
        var window = StreamWindow(readAhead: 1000, headCapacity: 100)
        let probe = window.nextRequest()!
        window.totalSize = 100_000
        window.sizeResolved = true
        #expect(deliver(&window, probe, from: 0, to: 100) == .consumed)
        #expect(read(&window, at: 100, count: 10).0 == .wait)
        #expect(window.nextRequest() == RangeRequest(start: 100, end: 1100, purpose: .ring, generation: 0))
    }

    @Test func readsConsumeTheRingAndRefillOnlyWhenHalfIsFree() {
        var window = StreamWindow(readAhead: 1000, headCapacity: 100)
        window.totalSize = 10_000
        window.sizeResolved = true
        #expect(deliver(&window, window.nextRequest()!, from: 0, to: 100) == .consumed)
        #expect(read(&window, at: 100, count: 1).0 == .wait)
        let request = window.nextRequest()!
        #expect(request == RangeRequest(start: 100, end: 1100, purpose: .ring, generation: 0))
        #expect(deliver(&window, request, from: 100, to: 1100) == .consumed)
        #expect(window.nextRequest() == nil)
        // The head (first 100 bytes) is served from its cache, not the ring.
        let (step, bytes) = read(&window, at: 10, count: 50)
        #expect(step == .copied(50))
        #expect(bytes == Self.content(10..<60))
        #expect(window.ring.count == 1000)
        // Reading at 400 drops everything before it and takes 100 bytes: 600 left, not yet half free.
        #expect(read(&window, at: 400, count: 100).1 == Self.content(400..<500))
        #expect(window.ring.count == 600)
        #expect(window.nextRequest() == nil)
        #expect(read(&window, at: 500, count: 100).1 == Self.content(500..<600))
        #expect(window.nextRequest() == RangeRequest(start: 1100, end: 1600, purpose: .ring, generation: 0))
    }

    @Test func aReadFarAwayRepositionsAndMakesOldTransfersStale() {
        var window = StreamWindow(readAhead: 1000)
        let first = window.nextRequest()!
        window.totalSize = 1_000_000
        window.sizeResolved = true
        #expect(deliver(&window, first, from: 0, to: 200) == .consumed)
        #expect(read(&window, at: 500_000, count: 10).0 == .wait)
        #expect(window.generation == 1)
        #expect(window.ringStart == 500_000)
        #expect(deliver(&window, first, from: 200, to: 300) == .stale)
        let next = window.nextRequest()!
        #expect(next == RangeRequest(start: 500_000, end: 501_000, purpose: .ring, generation: 1))
        #expect(deliver(&window, next, from: 500_000, to: 500_010) == .consumed)
        #expect(read(&window, at: 500_000, count: 10).1 == Self.content(500_000..<500_010))
    }

    @Test func aShortJumpAheadWaitsForTheRunningTransfer() {
        var window = StreamWindow(readAhead: 100_000)
        let request = window.nextRequest()!
        window.totalSize = 1_000_000
        window.sizeResolved = true
        #expect(deliver(&window, request, from: 0, to: 70_000) == .consumed)
        #expect(read(&window, at: 80_000, count: 10).0 == .wait)
        #expect(window.generation == 0)
        // Bytes before the reader are skipped, the rest kept.
        #expect(deliver(&window, request, from: 70_000, to: 80_100) == .consumed)
        #expect(read(&window, at: 80_000, count: 200).1 == Self.content(80_000..<80_100))
    }

    @Test func readsAtOrPastTheEndAreEndOfFile() {
        var window = StreamWindow(readAhead: 1000)
        window.totalSize = 500
        window.sizeResolved = true
        #expect(read(&window, at: 500, count: 10).0 == .endOfFile)
        #expect(read(&window, at: 9999, count: 10).0 == .endOfFile)
    }

    @Test func theTailIsFetchedApartAndTheRingIsKept() {
        var window = StreamWindow(readAhead: 1000, headCapacity: 100, tailCapacity: 100)
        let first = window.nextRequest()!
        window.totalSize = 1_000_000
        window.sizeResolved = true
        #expect(deliver(&window, first, from: 0, to: 600) == .consumed)
        // A decoder looks at the last bytes (a trailing chunk).
        #expect(read(&window, at: 999_950, count: 8).0 == .wait)
        let preempts = window.tailPreemptsRing
        #expect(preempts)
        let tail = window.nextRequest()!
        #expect(tail == RangeRequest(start: 999_900, end: 1_000_000, purpose: .tail, generation: 0))
        window.beginTail(at: tail.start)
        #expect(deliver(&window, tail, from: 999_900, to: 1_000_000) == .consumed)
        #expect(read(&window, at: 999_950, count: 8).1 == Self.content(999_950..<999_958))
        // Back to the audio: the ring still has it, no new request from 0.
        #expect(read(&window, at: 150, count: 10).1 == Self.content(150..<160))
        #expect(window.generation == 0)
        #expect(window.nextRequest()?.start == 600)
    }

    @Test func aWholeResourceAnswerIsSkippedUpToTheReader() {
        // A server that ignores Range sends from byte 0 whatever was asked.
        var window = StreamWindow(readAhead: 1000, headCapacity: 100)
        window.totalSize = 1_000_000
        window.sizeResolved = true
        #expect(read(&window, at: 500_000, count: 10).0 == .wait)
        let request = window.nextRequest()!
        #expect(deliver(&window, request, from: 0, to: 499_990) == .consumed)
        #expect(window.ring.isEmpty)
        #expect(deliver(&window, request, from: 499_990, to: 500_020) == .consumed)
        #expect(read(&window, at: 500_000, count: 100).1 == Self.content(500_000..<500_020))
    }

    @Test func bytesThatDoNotFitAreRefusedWhole() {
        var window = StreamWindow(readAhead: 100, headCapacity: 10)
        let request = window.nextRequest()!
        #expect(deliver(&window, request, from: 0, to: 90) == .consumed)
        #expect(deliver(&window, request, from: 90, to: 120) == .full)
        #expect(window.ring.count == 90)
    }
}
