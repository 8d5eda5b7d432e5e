import Foundation
import Testing
@testable import AliciaAudio

/// The stretcher itself: the pitch search finds a voice's period, and what comes out depends on the
/// samples alone, never on how they were cut into writes (a starved feeder writes the same audio in
/// other pieces than a free one).
@Suite struct PitchStretcherTests {
    static let rate = 48_000

    /// A voiced-like signal: a fundamental at `pitch` Hz with two weaker harmonics, stereo, and a
    /// little of another frequency on the right so the channels differ.
    static func voice(pitch: Double, seconds: Double, channels: Int = 2) -> [Float] {
        let frames = Int(seconds * Double(rate))
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            let t = Double(frame) / Double(rate)
            let glide = pitch * (1 + 0.1 * sin(2 * .pi * 0.7 * t))
            let phase = 2 * Double.pi * glide * t
            let value = 0.3 * sin(phase) + 0.15 * sin(2 * phase) + 0.05 * sin(3 * phase)
            for channel in 0..<channels {
                samples[frame * channels + channel] = Float(value + (channel == 1 ? 0.02 * sin(2 * .pi * 1_000 * t) : 0))
            }
        }
        return samples
    }

    /// Everything the stretcher makes of `samples`, written `piece` frames at a time, then flushed.
    static func stretch(_ samples: [Float], speed: Double, piece: Int, channels: Int = 2) -> [Float] {
        let stretcher = PitchStretcher(sampleRate: rate, channels: channels, speed: speed, maxWrite: piece)
        var output: [Float] = []
        var block = [Float](repeating: 0, count: 4_096 * channels)
        func drain() {
            while stretcher.available > 0 {
                let frames = block.withUnsafeMutableBufferPointer { stretcher.read(into: $0.baseAddress!, maxFrames: 4_096) }
                output += block[0..<frames * channels]
            }
        }
        samples.withUnsafeBufferPointer { all in
            var start = 0
            let frames = all.count / channels
            while start < frames {
                let count = min(piece, frames - start)
                stretcher.write(all.baseAddress! + start * channels, frames: count)
                drain()
                start += count
            }
        }
        stretcher.flush()
        drain()
        return output
    }

    @Test(arguments: [100.0, 150.0, 220.0, 330.0])
    func theSearchFindsTheVoicesPeriod(pitch: Double) {
        // A steady tone at `pitch`: its period in frames, searched over the whole range.
        let frames = 2 * Self.rate / PitchStretcher.lowestPitch
        let signal = (0..<frames).map { Float(sin(2 * Double.pi * pitch * Double($0) / Double(Self.rate))) }
        let range = Self.rate / PitchStretcher.highestPitch...Self.rate / PitchStretcher.lowestPitch
        let found = signal.withUnsafeBufferPointer { PitchStretcher.search($0.baseAddress!, periods: range) }
        let period = Double(Self.rate) / pitch
        // The first period or a multiple of it (every multiple matches a pure tone as well).
        let multiple = (Double(found.period) / period).rounded()
        #expect(multiple >= 1 && abs(Double(found.period) - multiple * period) <= 1, "found \(found.period), period \(period)")
    }

    @Test(arguments: [0.5, 0.75, 1.25, 1.5, 2.0, 2.5, 3.0])
    func theOutputDoesNotDependOnHowTheInputWasCut(speed: Double) {
        let samples = Self.voice(pitch: 140, seconds: 1.5)
        let whole = Self.stretch(samples, speed: speed, piece: 2_048)
        #expect(Self.stretch(samples, speed: speed, piece: 1) == whole)
        #expect(Self.stretch(samples, speed: speed, piece: 7) == whole)
        #expect(Self.stretch(samples, speed: speed, piece: 1_000) == whole)
        let expected = 1.5 * Double(Self.rate) / speed
        #expect(abs(Double(whole.count / 2) - expected) <= 0.02 * expected, "\(whole.count / 2) frames for \(Int(expected))")
    }

    @Test func aResetDropsWhatIsHeld() {
        let stretcher = PitchStretcher(sampleRate: Self.rate, channels: 2, speed: 2, maxWrite: 4_096)
        let samples = Self.voice(pitch: 140, seconds: 0.05)
        samples.withUnsafeBufferPointer { stretcher.write($0.baseAddress!, frames: $0.count / 2) }
        stretcher.reset(speed: 1.5)
        #expect(stretcher.available == 0)
        stretcher.flush()
        #expect(stretcher.available == 0)
        #expect(stretcher.speed == 1.5)
    }

    @Test func monoAndSixChannelsKeepTheirLength() {
        for channels in [1, 6] {
            let samples = Self.voice(pitch: 180, seconds: 1, channels: channels)
            let output = Self.stretch(samples, speed: 2, piece: 2_048, channels: channels)
            let expected = Double(Self.rate) / 2
            #expect(abs(Double(output.count / channels) - expected) <= 0.02 * expected)
        }
    }
}
