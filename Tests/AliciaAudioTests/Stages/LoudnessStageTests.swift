#if canImport(Glibc)
import Glibc
#endif
import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// Matched loudness's stage on its own: untouched at 0 dB and when off, ramps that never step, a
/// limiter that keeps boosted peaks under −1 dBTP (measured by libebur128's true peak).
@Suite struct LoudnessStageTests {
    static let format = AudioFormat(sampleRate: 48_000, channels: 2, sampleType: .int16, frames: nil)

    private func run(_ stage: LoudnessStage, _ input: [Int16], chunk: Int = 2048) -> [Int16] {
        var output: [Int16] = []
        let collect: (UnsafeRawBufferPointer) -> SinkResult = { bytes in
            output += Array(bytes.bindMemory(to: Int16.self))
            return .done
        }
        input.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let end = min(all.count, offset + chunk * 4)
                _ = stage.process(UnsafeRawBufferPointer(rebasing: all[offset..<end]), emit: collect)
                offset = end
            }
        }
        _ = stage.flush(emit: collect)
        return output
    }

    private func truePeak(_ samples: [Int16]) -> Double {
        let meter = LoudnessMeter(channels: 2, sampleRate: 48_000, truePeak: true)!
        samples.withUnsafeBytes { meter.add($0.baseAddress!, frames: samples.count / 2, type: .int16) }
        return meter.peak
    }

    @Test func atZeroDecibelsAndOffTheSamplesAreUntouched() {
        let input = SpeechLikeSignal().samples
        let on = LoudnessStage(format: Self.format, blockFrames: 2048)
        on.setEnabled(true)
        on.setGain(decibels: 0, ramp: 0)
        #expect(run(on, input) == input)
        let off = LoudnessStage(format: Self.format, blockFrames: 2048)
        #expect(run(off, input) == input)
    }

    @Test func aBoostIsLimitedToMinusOneDecibelTruePeak() {
        // Full-scale bursts boosted 6 dB: the limiter takes the peaks down to the ceiling.
        let input = SpeechLikeSignal().samples.map { Int16(clamping: Int($0) * 3) }
        let stage = LoudnessStage(format: Self.format, blockFrames: 2048)
        stage.setEnabled(true)
        stage.setGain(decibels: 6, ramp: 0)
        let output = run(stage, input)
        #expect(output.count == input.count)
        let peak = truePeak(output)
        #expect(peak <= -1, "true peak \(peak) dBTP")
        #expect(stage.takeDeepestReduction() < -3, "the limiter did not work")
        #expect(truePeak(input) + 6 > 0, "the test signal would not need the limiter")
    }

    @Test func theLimitedOutputIsTheSameInBlocksOfAnySize() {
        // The stage works a block at a time; what the limiter does must not depend on where the
        // blocks begin (the skipper hands on pieces of any length), nor a ramp.
        let input = Array(SpeechLikeSignal().samples.map { Int16(clamping: Int($0) * 3) }.prefix(96_000 * 2))
        func output(chunk: Int) -> [Int16] {
            let stage = LoudnessStage(format: Self.format, blockFrames: 2048)
            stage.setEnabled(true)
            stage.setGain(decibels: 3, ramp: 0)
            stage.setGain(decibels: 7, ramp: 1)
            return run(stage, input, chunk: chunk)
        }
        let whole = output(chunk: 2048)
        #expect(whole.count == input.count)
        for chunk in [1, 7, 240, 1000, 5000] {
            let other = output(chunk: chunk)
            #expect(other == whole, "blocks of \(chunk): \(AudioCompare.describeDifference(expected: whole, actual: other, channels: 2))")
        }
    }

    @Test func aGainChangeRampsOverASecondWithoutAStep() {
        // A steady 1 kHz tone; the gain goes from 0 to −12 dB over at least a second.
        let input = Tone.samples(frequency: 1000, seconds: 3, rate: 48_000, channels: 2, amplitude: 0.25)
        let stage = LoudnessStage(format: Self.format, blockFrames: 2048)
        stage.setEnabled(true)
        stage.setGain(decibels: 0, ramp: 0)
        var output = run(stage, Array(input.prefix(48_000 * 2)))
        stage.setGain(decibels: -12, ramp: 0.2)
        output += run(stage, Array(input.dropFirst(48_000 * 2)))
        let levels = stride(from: 0, to: output.count / 2 - 4800, by: 4800).map { start -> Double in
            let peak = (start..<start + 4800).map { abs(Double(output[$0 * 2])) }.max() ?? 0
            return 20 * log10(max(peak, 1))
        }
        let steps = zip(levels, levels.dropFirst()).map { abs($1 - $0) }
        #expect(steps.allSatisfy { $0 <= 1.3 }, "a step between 100 ms windows: \(steps)")
        #expect(abs((levels.last ?? 0) - (levels.first ?? 0) + 12) < 0.2, "\(levels)")
    }

    @Test func theGainForFiguresMeetsTheTargetUnlessThePeakForbids() {
        #expect(LoudnessFigures(integrated: -28, peak: -20).gain(toward: -16) == 12)
        // A peak at −3 dBTP: +12 dB would need 14 dB off the peaks; the limiter takes 6 at most.
        #expect(LoudnessFigures(integrated: -28, peak: -3).gain(toward: -16) == 8)
        #expect(LoudnessFigures(integrated: -10, peak: 0).gain(toward: -16) == -6)
    }
}
