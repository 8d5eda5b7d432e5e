import Testing
import AliciaTestSupport
import AliciaAudio
@testable import AliciaSession

/// The session after the sleep timer, on a real PulseAudio: it paused where the timer ended, and
/// the resume steps back 5 s.
@Suite(.serialized) struct SleepResumeTests {
    static let rate = 48_000

    @Test func aResumeAfterTheSleepTimerStepsBackFiveSeconds() async throws {
        let capture = try await PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        let directory = try TemporaryDirectory(prefix: "sleep")
        let noise = WAVFixture(seconds: 10, sampleRate: Self.rate, channels: 2, seed: 91)
        let path = try directory.write(noise.bytes, as: "noise.wav")
        var options = ListeningSession.Options()
        options.configuration = PlayerConfiguration(device: capture.sinkName)
        options.voiceNotes = false
        options.sleepTimer = .after(seconds: 6)
        let session = ListeningSession(options)
        defer { session.close() }
        let events = session.player.subscribe()
        session.perform(.load(LoadPlan([QueueItem(location: try MediaLocation(path), title: "noise")])))

        // A hang guard only: the timer is what ends the wait.
        let deadline = ContinuousClock.now + .seconds(90)
        var asleep = false
        while !asleep && ContinuousClock.now < deadline {
            asleep = session.nextNotices(timeout: .milliseconds(200)).contains(.asleep)
        }
        #expect(asleep, "the sleep timer never ended")
        let paused = session.player.snapshot()
        #expect(paused.state == .paused)
        #expect(paused.positionFrames == Int64(6 * Self.rate), "paused at frame \(paused.positionFrames)")
        #expect(session.asleep)

        session.perform(.togglePause)
        var seekedTo: Int64?
        while seekedTo == nil && ContinuousClock.now < deadline {
            _ = session.nextNotices(timeout: .milliseconds(100))
            for event in events.drain() {
                if case .seeked(let frame) = event.kind { seekedTo = frame }
            }
        }
        #expect(seekedTo == Int64(Self.rate), "the resume went on from \(seekedTo.map(String.init) ?? "nowhere"), 1 s expected")
        #expect(!session.asleep)
    }
}
