#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import AliciaAudio

/// The stage chain's parts on their own: gain, format conversion, and the chain's order.
@Suite struct StageTests {
    static let stereo = AudioFormat(sampleRate: 48_000, channels: 2, sampleType: .int16, frames: nil)

    private func run(_ stage: any AudioStage, _ input: [Int16], flush: Bool = true) -> [Int16] {
        var output: [Int16] = []
        let collect: (UnsafeRawBufferPointer) -> SinkResult = { bytes in
            output += Array(bytes.bindMemory(to: Int16.self))
            return .done
        }
        _ = input.withUnsafeBytes { stage.process($0, emit: collect) }
        if flush { _ = stage.flush(emit: collect) }
        return output
    }

    private func noise(_ count: Int, seed: UInt64 = 9) -> [Int16] {
        var state = seed
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int16(truncatingIfNeeded: state)
        }
    }

    @Test func unityGainPassesSamplesThroughUntouched() {
        let gain = GainStage(format: Self.stereo, blockFrames: 2048)
        let input = noise(4096 * 2)
        #expect(run(gain, input) == input)
        gain.setTarget(1, ramp: 0.2)
        #expect(run(gain, input) == input, "a ramp to where it already is changes nothing")
    }

    @Test func aRampMovesSmoothlyAndEndsExactlyAtItsTarget() {
        let gain = GainStage(format: Self.stereo, blockFrames: 2048)
        gain.setTarget(0.25, ramp: 0.1)  // 4800 frames
        let input = [Int16](repeating: 16_000, count: 6000 * 2)
        let output = run(gain, input)
        let left = stride(from: 0, to: output.count, by: 2).map { output[$0] }
        #expect(zip(left, left.dropFirst()).allSatisfy { $1 <= $0 }, "a ramp down never goes up")
        #expect(left.last == 4000)
        #expect(gain.current == 0.25)
        // No step larger than a small fraction of the level: no click.
        let steps = zip(left, left.dropFirst()).map { Int($0) - Int($1) }
        #expect(steps.max() ?? 0 < 200)
    }

    @Test func monoToStereoAtTheSameRateDuplicatesEachSampleExactly() throws {
        let mono = AudioFormat(sampleRate: 48_000, channels: 1, sampleType: .int16, frames: nil)
        let converter = try FormatConverter(from: mono, to: Self.stereo, maxInputFrames: 2048)
        let input = noise(5000)
        let output = run(converter, input)
        #expect(output == input.flatMap { [$0, $0] })
    }

    @Test func halfTheRateBecomesTwiceTheFramesAndKeepsATone() throws {
        let low = AudioFormat(sampleRate: 24_000, channels: 1, sampleType: .int16, frames: nil)
        let converter = try FormatConverter(from: low, to: Self.stereo, maxInputFrames: 2048)
        let frames = 24_000
        let input = (0..<frames).map { frame -> Int16 in
            let phase = 2 * Double.pi * 1000 * Double(frame) / 24_000
            return Int16((8000 * sin(phase)).rounded())
        }
        let output = run(converter, input)
        #expect(abs(output.count / 2 - 2 * frames) <= 48, "\(output.count / 2) frames out for \(frames) in")
        // The middle of the output is the same 1 kHz tone at 48 kHz, within a few LSB of the ideal.
        let offset = 10_000
        var worst = 0.0
        for i in offset..<offset + 1000 {
            let phase = 2 * Double.pi * 1000 * Double(i) / 48_000
            worst = max(worst, abs(Double(output[i * 2]) - 8000 * sin(phase)))
        }
        #expect(worst < 40, "the resampled tone is off by up to \(worst)")
    }

    @Test func theChainRunsItsStagesInOrderAndFlushesThroughTheLaterOnes() throws {
        let mono = AudioFormat(sampleRate: 48_000, channels: 1, sampleType: .int16, frames: nil)
        let gain = GainStage(format: Self.stereo, blockFrames: 4096)
        gain.setTarget(0.5, ramp: 0)
        let chain = StageChain([gain])
        chain.replaceFront(try FormatConverter(from: mono, to: Self.stereo, maxInputFrames: 2048)) { $0 is FormatConverter }
        #expect(chain.stages.count == 2)
        var output: [Int16] = []
        let input: [Int16] = [1000, -2000, 3000]
        _ = input.withUnsafeBytes {
            chain.process($0) { bytes in
                output += Array(bytes.bindMemory(to: Int16.self))
                return .done
            }
        }
        #expect(output == [500, 500, -1000, -1000, 1500, 1500])
        chain.replaceFront(nil) { $0 is FormatConverter }
        #expect(chain.stages.count == 1)
    }
}
