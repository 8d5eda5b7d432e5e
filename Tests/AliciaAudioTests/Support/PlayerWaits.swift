import Testing
@testable import AliciaAudio

/// Bounded waits on a real player, shared by the engine's playback tests. A wait that
/// runs out records an issue (the test fails) and returns what it saw.
extension Player {
    /// Waits for an event matching `match`; returns the kinds of the events seen (the hang guard
    /// is generous: it is never the figure a test checks).
    @discardableResult
    func waitForEvent(timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
                      _ match: (PlayerEvent.Kind) -> Bool) -> [PlayerEvent.Kind] {
        var seen: [PlayerEvent.Kind] = []
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard let event = nextEvent(timeout: .milliseconds(100)) else { continue }
            seen.append(event.kind)
            if match(event.kind) { return seen }
        }
        Issue.record("timed out waiting; saw \(seen)", sourceLocation: sourceLocation)
        return seen
    }

    /// Waits for the end; a failure instead records an issue. Returns the events seen.
    @discardableResult
    func waitForEnd(sourceLocation: SourceLocation = #_sourceLocation) -> [PlayerEvent.Kind] {
        waitForEvent(timeout: .seconds(90), sourceLocation: sourceLocation) { event in
            if case .ended = event { return true }
            if case .failed(let error) = event {
                Issue.record("playback failed: \(error.message)", sourceLocation: sourceLocation)
                return true
            }
            return false
        }
    }

    /// Waits until the played position reaches `seconds`.
    func waitForPosition(atLeast seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if snapshot().position >= seconds { return }
            _ = nextEvent(timeout: .milliseconds(20))
        }
        Issue.record("position never reached \(seconds) s: \(snapshot())", sourceLocation: sourceLocation)
    }
}

/// Interleaved 16-bit samples without their silent frames: what a sink played, less the
/// silence it fills gaps with (a cork, a held episode). Noise fixtures have no silent frame.
///
/// Over raw buffers: a slice and a closure per frame crawl in debug and AddressSanitizer builds.
func withoutSilentFrames(_ samples: [Int16], channels: Int = 2) -> [Int16] {
    samples.withUnsafeBufferPointer { samples in
        [Int16](unsafeUninitializedCapacity: samples.count) { kept, count in
            count = 0
            var frame = 0
            while frame + channels <= samples.count {
                var audible = false
                for index in frame..<frame + channels where samples[index] != 0 {
                    audible = true
                }
                if audible {
                    for index in frame..<frame + channels {
                        (kept.baseAddress! + count).initialize(to: samples[index])
                        count += 1
                    }
                }
                frame += channels
            }
        }
    }
}
