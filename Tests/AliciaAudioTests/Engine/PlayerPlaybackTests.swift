import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// The engine end to end: real libcurl against nginx on loopback, real
/// libsndfile, a real PulseAudio whose pipe sink shows what was played.
/// Serialized: each test plays in real time and the suite shares one nginx.
@Suite(.serialized) struct PlayerPlaybackTests {
    static let rate = 48_000

    @Test func aSeekDuringPlaybackContinuesExactlyAtTheTarget() async throws {
        let fixture = WAVFixture(seconds: 4, seed: 21)
        let rig = try await PipeSinkRig.playing(fixture, as: "seek.wav", untilHeard: 1.0)
        defer { rig.stop() }
        let player = rig.player
        let target = 3 * Self.rate
        player.seek(to: 3.0)
        let events = player.waitForEnd()
        #expect(events.contains(.seeked(toFrame: Int64(target))))
        #expect(events.last == .ended(truncated: false), "\(events)")
        #expect(player.snapshot().positionFrames == Int64(fixture.frameCount))

        // The seek corks the stream for a moment; the sink fills that with silence,
        // which is not audio: drop silent frames (the noise has none), then the
        // capture must be the source up to some frame k, then from the target on.
        let captured = await rig.finishPlayed()
        let k = AudioCompare.seekJoin(capture: captured, source: fixture.samples16, channels: 2, target: target)
        #expect(k != nil, "capture is not source[0..<k] ++ source[\(target)...]: \(captured.count / 2) frames")
        if let k { #expect(k >= Self.rate, "the seek came at 1 s or later, yet only \(k) frames played before it") }
    }

    /// A new speed plays on from the frame playing now: exact up to there, then the rest at 2×.
    @Test func aNewSpeedPlaysOnFromTheFramePlayingNow() async throws {
        let fixture = WAVFixture(seconds: 4, seed: 23)
        let rig = try await PipeSinkRig.playing(fixture, as: "speed.wav", untilHeard: 1.0)
        defer { rig.stop() }
        let player = rig.player
        let before = player.snapshot().positionFrames
        player.setSpeed(2)
        #expect(player.snapshot().speed == 2)
        let events = player.waitForEnd()
        let target = events.compactMap { event -> Int64? in
            if case .seeked(let frame) = event { return frame }
            return nil
        }.first
        #expect(events.last == .ended(truncated: false), "\(events)")
        #expect(player.snapshot().positionFrames == Int64(fixture.frameCount))
        let captured = await rig.finishPlayed()
        guard let target else {
            Issue.record("no new segment: \(events)")
            return
        }
        #expect(abs(target - before) <= Int64(Self.rate / 10), "asked at frame \(before), went on from \(target)")

        // Up to (almost) the change, what played is the source exactly; the position estimate may
        // lead what the sink had played by a few milliseconds.
        let exact = (Int(target) - Self.rate / 20) * 2
        #expect(Array(captured.prefix(exact)) == Array(fixture.samples16.prefix(exact)), "not exact before the change")
        let expected = Double(target) + Double(fixture.frameCount - Int(target)) / 2
        let frames = Double(captured.count / 2)
        #expect(abs(frames - expected) <= 0.1 * Double(Self.rate), "\(Int(frames)) frames played, about \(Int(expected)) expected")
    }

    @Test func pauseHoldsThePositionAndResumeLosesNothing() async throws {
        let fixture = WAVFixture(seconds: 3, seed: 22)
        let rig = try await PipeSinkRig.playing(fixture, as: "pause.wav", untilHeard: 1.0)
        defer { rig.stop() }
        let player = rig.player
        // Let the cork reach the server, then the position must stand still.
        rig.pauseAndSettle(settle: .milliseconds(300))
        let held = player.snapshot()
        #expect(held.state == .paused)
        let audibleBefore = rig.audibleSoFar().count
        _ = player.nextEvent(timeout: .milliseconds(500))
        #expect(player.snapshot().positionFrames == held.positionFrames)
        let audibleAfter = rig.audibleSoFar().count
        #expect(audibleAfter == audibleBefore, "the sink kept receiving audio while paused")
        #expect(held.positionFrames > 0 && held.positionFrames < Int64(fixture.frameCount))

        player.resume()
        let events = player.waitForEnd()
        #expect(events.last == .ended(truncated: false), "\(events)")
        let captured = await rig.finishPlayed()
        #expect(captured == fixture.samples16, "\(AudioCompare.describeDifference(expected: fixture.samples16, actual: captured, channels: 2))")
    }

    @Test func theReportedPositionIsWhatTheSinkHasPlayed() async throws {
        let fixture = WAVFixture(seconds: 3, seed: 23)
        let rig = try await PipeSinkRig.playing(fixture, as: "position.wav", untilHeard: 1.0)
        defer { rig.stop() }
        let player = rig.player
        rig.pauseAndSettle()
        // Corked and rewound: the position is exact, and it is what reached the sink,
        // not what was written (which runs 200 ms ahead).
        let position = player.snapshot().positionFrames
        let reached = rig.audibleSoFar().count / 2
        #expect(abs(Int(position) - reached) <= Self.rate / 50, "position \(position) but the sink got \(reached) frames")
        _ = await rig.finishPlayed()
    }
}
