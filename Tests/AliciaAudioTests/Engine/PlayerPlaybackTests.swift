import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// The engine end to end: real libcurl against nginx on loopback, real
/// libsndfile, a real PulseAudio whose pipe sink shows what was played.
/// Serialized: each test plays in real time and the suite shares one nginx.
@Suite(.serialized) struct PlayerPlaybackTests {
    static let rate = 48_000

    /// Waits (bounded) for an event matching `match`; returns the events seen.
    private func waitFor(_ player: Player, timeout: Duration = .seconds(20), _ match: (PlayerEvent) -> Bool) -> [PlayerEvent] {
        var seen: [PlayerEvent] = []
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard let event = player.nextEvent(timeout: .milliseconds(100)) else { continue }
            seen.append(event)
            if match(event) { return seen }
        }
        Issue.record("timed out waiting; saw \(seen)")
        return seen
    }

    /// Waits (bounded) until the played position reaches `seconds`.
    private func waitForPosition(_ player: Player, atLeast seconds: Double) {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if player.snapshot().position >= seconds { return }
            _ = player.nextEvent(timeout: .milliseconds(20))
        }
        Issue.record("position never reached \(seconds) s: \(player.snapshot())")
    }

    private static func isEnd(_ event: PlayerEvent) -> Bool {
        if case .ended = event { return true }
        if case .failed = event { return true }
        return false
    }

    private static func withoutSilentFrames(_ samples: [Int16]) -> [Int16] {
        var kept: [Int16] = []
        kept.reserveCapacity(samples.count)
        for frame in stride(from: 0, to: samples.count - 1, by: 2) where samples[frame] != 0 || samples[frame + 1] != 0 {
            kept.append(samples[frame])
            kept.append(samples[frame + 1])
        }
        return kept
    }

    @Test func aSeekDuringPlaybackContinuesExactlyAtTheTarget() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let fixture = WAVFixture(seconds: 4, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 21)
        try server.serve(fixture, as: "seek.wav")
        let capture = try PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let player = Player(configuration: PlayerConfiguration(device: capture.sinkName))

        try player.play(MediaLocation(server.url("/media/seek.wav")))
        waitForPosition(player, atLeast: 1.0)
        let target = 3 * Self.rate
        player.seek(to: 3.0)
        let events = waitFor(player, Self.isEnd)
        #expect(events.contains(.seeked(toFrame: Int64(target))))
        #expect(events.last == .ended(truncated: false), "\(events)")
        #expect(player.snapshot().positionFrames == Int64(fixture.frameCount))
        player.stop()

        // The seek corks the stream for a moment; the sink fills that with silence,
        // which is not audio: drop silent frames (the noise has none), then the
        // capture must be the source up to some frame k, then from the target on.
        let captured = Self.withoutSilentFrames(await capture.finishInt16())
        let k = AudioCompare.seekJoin(capture: captured, source: fixture.samples16, channels: 2, target: target)
        #expect(k != nil, "capture is not source[0..<k] ++ source[\(target)...]: \(captured.count / 2) frames")
        if let k { #expect(k >= Self.rate, "the seek came at 1 s or later, yet only \(k) frames played before it") }
    }

    @Test func pauseHoldsThePositionAndResumeLosesNothing() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let fixture = WAVFixture(seconds: 3, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 22)
        try server.serve(fixture, as: "pause.wav")
        let capture = try PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let player = Player(configuration: PlayerConfiguration(device: capture.sinkName))

        try player.play(MediaLocation(server.url("/media/pause.wav")))
        waitForPosition(player, atLeast: 1.0)
        player.pause()
        _ = waitFor(player) { $0 == .stateChanged(.paused) }
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
        let events = waitFor(player, Self.isEnd)
        #expect(events.last == .ended(truncated: false), "\(events)")
        player.stop()

        let captured = Self.withoutSilentFrames(await capture.finishInt16())
        #expect(captured == fixture.samples16, "\(AudioCompare.describeDifference(expected: fixture.samples16, actual: captured, channels: 2))")
    }

    @Test func theReportedPositionIsWhatTheSinkHasPlayed() async throws {
        let server = try NginxServer()
        defer { server.stop() }
        let fixture = WAVFixture(seconds: 3, sampleRate: Self.rate, channels: 2, format: .pcm16, seed: 23)
        try server.serve(fixture, as: "position.wav")
        let capture = try PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let player = Player(configuration: PlayerConfiguration(device: capture.sinkName))

        try player.play(MediaLocation(server.url("/media/position.wav")))
        waitForPosition(player, atLeast: 1.0)
        player.pause()
        _ = waitFor(player) { $0 == .stateChanged(.paused) }
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
