import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// The engine end to end: real libcurl against nginx on loopback, real
/// libsndfile, a real PulseAudio whose pipe sink shows what was played.
/// Serialized: each test plays in real time and the suite shares one nginx.
@Suite(.serialized) struct PlayerPlaybackTests {
    static let rate = 48_000

    @Test func aSeekDuringPlaybackContinuesExactlyAtTheTarget() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let fixture = WAVFixture(seconds: 4, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 21)
        try server.serve(fixture, as: "seek.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let player = Player(configuration: PlayerConfiguration(device: capture.sinkName))

        try player.play(MediaLocation(server.url("/media/seek.wav")))
        player.waitForPosition(atLeast: 1.0)
        let target = 3 * Self.rate
        player.seek(to: 3.0)
        let events = player.waitForEnd()
        #expect(events.contains(.seeked(toFrame: Int64(target))))
        #expect(events.last == .ended(truncated: false), "\(events)")
        #expect(player.snapshot().positionFrames == Int64(fixture.frameCount))
        player.stop()

        // The seek corks the stream for a moment; the sink fills that with silence,
        // which is not audio: drop silent frames (the noise has none), then the
        // capture must be the source up to some frame k, then from the target on.
        let captured = withoutSilentFrames(await capture.finishInt16())
        let k = AudioCompare.seekJoin(capture: captured, source: fixture.samples16, channels: 2, target: target)
        #expect(k != nil, "capture is not source[0..<k] ++ source[\(target)...]: \(captured.count / 2) frames")
        if let k { #expect(k >= Self.rate, "the seek came at 1 s or later, yet only \(k) frames played before it") }
    }

    /// A new speed plays on from the frame playing now: exact up to there, then the rest at 2×.
    @Test func aNewSpeedPlaysOnFromTheFramePlayingNow() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let fixture = WAVFixture(seconds: 4, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 23)
        try server.serve(fixture, as: "speed.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let player = Player(configuration: PlayerConfiguration(device: capture.sinkName))

        try player.play(MediaLocation(server.url("/media/speed.wav")))
        player.waitForPosition(atLeast: 1.0)
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
        player.stop()
        guard let target else {
            Issue.record("no new segment: \(events)")
            return
        }
        #expect(abs(target - before) <= Int64(Self.rate / 10), "asked at frame \(before), went on from \(target)")

        let captured = withoutSilentFrames(await capture.finishInt16())
        // Up to (almost) the change, what played is the source exactly; the position estimate may
        // lead what the sink had played by a few milliseconds.
        let exact = (Int(target) - Self.rate / 20) * 2
        #expect(Array(captured.prefix(exact)) == Array(fixture.samples16.prefix(exact)), "not exact before the change")
        let expected = Double(target) + Double(fixture.frameCount - Int(target)) / 2
        let frames = Double(captured.count / 2)
        #expect(abs(frames - expected) <= 0.1 * Double(Self.rate), "\(Int(frames)) frames played, about \(Int(expected)) expected")
    }

    @Test func pauseHoldsThePositionAndResumeLosesNothing() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let fixture = WAVFixture(seconds: 3, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 22)
        try server.serve(fixture, as: "pause.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let player = Player(configuration: PlayerConfiguration(device: capture.sinkName))

        try player.play(MediaLocation(server.url("/media/pause.wav")))
        player.waitForPosition(atLeast: 1.0)
        player.pause()
        player.waitForEvent { $0 == .stateChanged(.paused) }
        // Let the cork reach the server, then the position must stand still.
        _ = player.nextEvent(timeout: .milliseconds(300))
        let held = player.snapshot()
        #expect(held.state == .paused)
        let audibleBefore = AudioCompare.trimmingSilentFrames(AudioCompare.int16Samples(littleEndian: capture.bytesSoFar), channels: 2).count
        _ = player.nextEvent(timeout: .milliseconds(500))
        #expect(player.snapshot().positionFrames == held.positionFrames)
        let audibleAfter = AudioCompare.trimmingSilentFrames(AudioCompare.int16Samples(littleEndian: capture.bytesSoFar), channels: 2).count
        #expect(audibleAfter == audibleBefore, "the sink kept receiving audio while paused")
        #expect(held.positionFrames > 0 && held.positionFrames < Int64(fixture.frameCount))

        player.resume()
        let events = player.waitForEnd()
        #expect(events.last == .ended(truncated: false), "\(events)")
        player.stop()

        let captured = withoutSilentFrames(await capture.finishInt16())
        #expect(captured == fixture.samples16, "\(AudioCompare.describeDifference(expected: fixture.samples16, actual: captured, channels: 2))")
    }

    @Test func theReportedPositionIsWhatTheSinkHasPlayed() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let fixture = WAVFixture(seconds: 3, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 23)
        try server.serve(fixture, as: "position.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let player = Player(configuration: PlayerConfiguration(device: capture.sinkName))

        try player.play(MediaLocation(server.url("/media/position.wav")))
        player.waitForPosition(atLeast: 1.0)
        player.pause()
        player.waitForEvent { $0 == .stateChanged(.paused) }
        _ = player.nextEvent(timeout: .milliseconds(500))
        // Corked and rewound: the position is exact, and it is what reached the sink,
        // not what was written (which runs 200 ms ahead).
        let position = player.snapshot().positionFrames
        let reached = AudioCompare.trimmingSilentFrames(AudioCompare.int16Samples(littleEndian: capture.bytesSoFar), channels: 2).count / 2
        #expect(abs(Int(position) - reached) <= Self.rate / 50, "position \(position) but the sink got \(reached) frames")
        player.stop()
        _ = await capture.finish()
    }
}
