import Testing
@testable import AliciaAudio

@Suite struct FrameMapTests {
    static let stereo48 = AudioFormat(sampleRate: 48_000, channels: 2, sampleType: .int16, frames: 48_000)
    static let mono24 = AudioFormat(sampleRate: 24_000, channels: 1, sampleType: .int16, frames: 12_000)
    let a = QueueEntryID(rawValue: 1)
    let b = QueueEntryID(rawValue: 2)

    @Test func aJoinIsLookedUpAcrossTheBoundary() {
        var map = FrameMap()
        map.begin(entry: a, format: Self.stereo48, sourceStart: 1000, ratio: 1)
        map.advance(by: 47_000)
        map.end(at: 48_000)
        map.begin(entry: b, format: Self.mono24, sourceStart: 0, ratio: 0.5)
        map.advance(by: 24_000)
        #expect(map.locate(0) == .init(entry: a, format: Self.stereo48, sourceFrame: 1000, span: 0, atEnd: false))
        #expect(map.locate(46_999)?.sourceFrame == 47_999)
        let joined = map.locate(47_000)
        #expect(joined?.entry == b && joined?.sourceFrame == 0)
        // Half a source frame per sink frame: 24 kHz heard through a 48 kHz stream.
        #expect(map.locate(47_000 + 2_000)?.sourceFrame == 1_000)
    }

    @Test func aSpeedRatioScalesTheSourceFrames() {
        var map = FrameMap()
        map.begin(entry: a, format: Self.stereo48, sourceStart: 10_000, ratio: 2)
        map.advance(by: 5_000)
        #expect(map.locate(1_000)?.sourceFrame == 12_000)
    }

    @Test func theEndClampsAndADrainedSinkStandsAtTheEnd() {
        var map = FrameMap()
        map.begin(entry: a, format: Self.stereo48, sourceStart: 0, ratio: 2)
        map.advance(by: 23_990)
        map.end(at: 48_000)
        #expect(map.locate(23_990)?.sourceFrame == 47_980)
        map.markPlayedOut()
        let end = map.locate(23_000)
        #expect(end?.sourceFrame == 48_000 && end?.atEnd == true, "a drained entry is at its last frame")
        #expect(map.locate(99_999)?.sourceFrame == 48_000)
    }

    @Test func discardForgetsWhatWasHeardAndResetForgetsAll() {
        var map = FrameMap()
        map.begin(entry: a, format: Self.stereo48, sourceStart: 0, ratio: 1)
        map.advance(by: 100)
        map.end(at: 100)
        map.begin(entry: b, format: Self.stereo48, sourceStart: 0, ratio: 1)
        map.advance(by: 100)
        let location = map.locate(150)
        #expect(location?.span == 1)
        map.discard(before: 1)
        #expect(map.spans.count == 1)
        #expect(map.locate(150)?.entry == b && map.locate(150)?.sourceFrame == 50)
        map.reset()
        #expect(map.locate(0) == nil && map.written == 0)
    }

    @Test func anEmptySpanIsReplacedNotKept() {
        var map = FrameMap()
        map.begin(entry: a, format: Self.stereo48, sourceStart: 0, ratio: 1)
        map.begin(entry: a, format: Self.stereo48, sourceStart: 500, ratio: 1)
        #expect(map.spans.count == 1)
        #expect(map.locate(0)?.sourceFrame == 500)
    }
}
