import AliciaTestSupport
import Testing
@testable import AliciaAudio

/// The speed changer (the pitch stretcher between sample formats): the length scales by the speed, the pitch stays, in
/// each sample format the decoder produces.
@Suite struct SpeedChangerTests {
    static let rate = 48_000
    static let channels = 2

    /// Runs `seconds` of a 440 Hz tone through a changer at `speed` in 2048-frame chunks; returns the
    /// output as ±1 samples.
    private func change(_ type: SampleType, speed: Double, seconds: Double = 3) throws -> [Double] {
        let format = AudioFormat(sampleRate: Self.rate, channels: Self.channels, sampleType: type, frames: nil)
        let changer = try #require(SpeedChanger(format: format, maxFrames: PlayerCore.chunkFrames, speed: speed))
        let tone = Tone.samples(frequency: 440, seconds: seconds, rate: Self.rate, channels: Self.channels, amplitude: 0.25)
        var output: [Double] = []
        func collect(_ block: UnsafeRawBufferPointer) -> SinkResult {
            switch type {
            case .int16: output += block.bindMemory(to: Int16.self).map { Double($0) / 32768 }
            case .int32: output += block.bindMemory(to: Int32.self).map { Double($0) / 2_147_483_648 }
            case .float32: output += block.bindMemory(to: Float.self).map { Double($0) }
            }
            return .done
        }
        let chunk = PlayerCore.chunkFrames * Self.channels
        for start in stride(from: 0, to: tone.count, by: chunk) {
            let piece = tone[start..<min(start + chunk, tone.count)]
            let result: SinkResult
            switch type {
            case .int16: result = Array(piece).withUnsafeBytes { changer.process($0, emit: collect) }
            case .int32: result = piece.map { Int32($0) << 16 }.withUnsafeBytes { changer.process($0, emit: collect) }
            case .float32: result = piece.map { Float($0) / 32768 }.withUnsafeBytes { changer.process($0, emit: collect) }
            }
            #expect(result == .done)
        }
        #expect(changer.finish(emit: collect) == .done)
        return output
    }

    @Test(arguments: [(SampleType.int16, 2.0), (.int16, 1.5), (.int16, 0.5), (.int16, 3.0), (.int32, 2.0), (.float32, 2.0), (.float32, 0.75)])
    func theLengthScalesByTheSpeedAndThePitchStays(type: SampleType, speed: Double) throws {
        let seconds = 3.0
        let output = try change(type, speed: speed, seconds: seconds)
        let frames = output.count / Self.channels
        let expected = seconds / speed * Double(Self.rate)
        #expect(abs(Double(frames) - expected) <= 0.02 * expected, "\(frames) frames out, \(Int(expected)) expected")
        // A window from the middle: the tone is still 440 Hz, not 440 × speed.
        let window = 4096
        let middle = frames / 2 - window / 2
        let kept = Tone.level(output, channels: Self.channels, from: middle, frames: window, frequency: 440, rate: Self.rate)
        let shifted = Tone.level(output, channels: Self.channels, from: middle, frames: window, frequency: 440 * speed, rate: Self.rate)
        #expect(kept - shifted >= 20, "440 Hz at \(kept) dB, \(440 * speed) Hz at \(shifted) dB")
        #expect(output.allSatisfy { abs($0) <= 1 })
    }

    /// One feeder chunk of a 440 Hz tone, 16-bit stereo.
    static let chunk = Tone.samples(frequency: 440, seconds: Double(PlayerCore.chunkFrames) / Double(rate), rate: rate,
                                    channels: channels, amplitude: 0.25)

    private func int16Changer(speed: Double) throws -> SpeedChanger {
        let format = AudioFormat(sampleRate: Self.rate, channels: Self.channels, sampleType: .int16, frames: nil)
        return try #require(SpeedChanger(format: format, maxFrames: PlayerCore.chunkFrames, speed: speed))
    }

    @Test func resetDropsWhatIsHeldAndTakesTheNewSpeed() throws {
        let changer = try int16Changer(speed: 2)
        var before = 0
        _ = Self.chunk.withUnsafeBytes { changer.process($0) { before += $0.count; return .done } }
        #expect(changer.reset(speed: 1.5))
        #expect(changer.speed == 1.5)
        var after = 0
        #expect(changer.finish { after += $0.count; return .done } == .done)
        #expect(after == 0, "\(after) bytes from before the reset came out after it")
    }

    @Test func aSinkThatStopsTakingStopsTheOutput() throws {
        let changer = try int16Changer(speed: 0.5)
        var blocks = 0
        var result = SinkResult.done
        for _ in 0..<5 where result == .done {
            result = Self.chunk.withUnsafeBytes { changer.process($0) { _ in blocks += 1; return .interrupted } }
        }
        #expect(result == .interrupted)
        #expect(blocks == 1)
    }
}
