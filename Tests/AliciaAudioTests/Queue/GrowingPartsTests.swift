import Testing
@testable import AliciaAudio

/// `GrowingParts`: the parts of an item still being made, as its reader and its maker see them.
@Suite struct GrowingPartsTests {
    private func part(_ n: Int) -> MediaLocation { try! MediaLocation("/tmp/chunk-\(n).wav") }

    @Test func partsAppendInOrderUntilFinishedAndNotAfter() {
        let growth = GrowingParts(first: [part(0)], seconds: [2])
        growth.append([part(1), part(2)], seconds: [3, 4])
        growth.finish()
        growth.append([part(3)], seconds: [1])
        let state = growth.state
        #expect(state.parts == [part(0), part(1), part(2)] && state.finished && state.failure == nil)
        #expect(state.secondsLeft == 9)
    }

    @Test func aReaderWaitingAtTheEndSeesTheNextPartOrTheEnd() {
        let growth = GrowingParts(first: [part(0)])
        #expect(growth.awaitPart(after: 1, patience: .milliseconds(10)) == .interrupted)
        #expect(growth.state.readerWaiting)
        growth.append([part(1)], seconds: [1])
        #expect(growth.awaitPart(after: 1, patience: .seconds(5)) == .grown)
        growth.interrupt()
        #expect(growth.awaitPart(after: 2, patience: .seconds(5)) == .interrupted)
        growth.clearInterrupt()
        growth.finish(failure: "failed")
        #expect(growth.awaitPart(after: 2, patience: .seconds(5)) == .finished)
        #expect(growth.state.failure == "failed")
    }

    @Test func theMakerIsWokenSoonerWhenTheReaderRunsShortButNotBeforeTheMinimum() {
        let growth = GrowingParts(first: [part(0)], seconds: [10])
        growth.readerAt(seconds: 9.5)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(growth.awaitDemand(interval: .seconds(5), minimum: .milliseconds(50), shortSeconds: 1.5))
        let waited = clock.now - start
        #expect(waited >= .milliseconds(50) && waited < .seconds(4), "\(waited)")
        growth.abandon()
        #expect(!growth.awaitDemand(interval: .seconds(5), minimum: .milliseconds(50), shortSeconds: 1.5))
    }

    @Test func aSourceMergesTheFixedPartsWithTheGrowingOnes() {
        #expect(ItemSource.merged([part(0)], [part(0), part(1)]) == [part(0), part(1)])
        #expect(ItemSource.merged([part(0)], [part(0)]) == [part(0)])
    }
}
