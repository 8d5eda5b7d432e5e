import Testing
@testable import AliciaAudio

/// The read-ahead and refill mark an item's byte rate gives.
@Suite struct ItemSourceTests {
    @Test func aCDRateGivesTenSecondsAndATwoSecondMark() {
        let sizes = ItemSource.bufferSizes(byteRate: 176_400, ringSeconds: 10, maximum: 4 << 20)
        #expect(sizes.readAhead == 1_764_000)
        #expect(sizes.refill == 352_800)
    }

    @Test func slowRatesKeep64KiBAndFastOnesTheMaximum() {
        #expect(ItemSource.bufferSizes(byteRate: 100, ringSeconds: 10, maximum: 4 << 20) == (65_536, 200))
        #expect(ItemSource.bufferSizes(byteRate: 10_000_000, ringSeconds: 10, maximum: 4 << 20) == (4 << 20, 2 << 20))
    }

    /// Regression: a server claiming a total of 9e18 bytes for a one-second WAV made the rate 9e18
    /// bytes a second, and Int(_:) of ten seconds of it trapped.
    @Test func anAbsurdRateIsTheMaximumNotATrap() {
        #expect(ItemSource.bufferSizes(byteRate: 9e18, ringSeconds: 10, maximum: 4 << 20) == (4 << 20, 2 << 20))
        #expect(ItemSource.bufferSizes(byteRate: .infinity, ringSeconds: 10, maximum: 4 << 20) == (4 << 20, 2 << 20))
        #expect(ItemSource.bufferSizes(byteRate: .nan, ringSeconds: 10, maximum: 4 << 20) == (65_536, 0))
    }
}
