#if canImport(Glibc)
import Glibc
#endif

/// Sine tones for tests that listen for a pitch (ducking, speed), and a Goertzel filter to measure
/// one frequency's level.
public enum Tone {
    /// 16-bit interleaved samples of a sine, the same on every channel.
    public static func samples(frequency: Double, seconds: Double, rate: Int, channels: Int, amplitude: Double) -> [Int16] {
        let frames = Int(seconds * Double(rate))
        var samples: [Int16] = []
        samples.reserveCapacity(frames * channels)
        for frame in 0..<frames {
            let value = Int16((amplitude * 32767 * sin(2 * Double.pi * frequency * Double(frame) / Double(rate))).rounded())
            for _ in 0..<channels { samples.append(value) }
        }
        return samples
    }

    /// The same tone as a 16-bit PCM WAV file.
    public static func wav(frequency: Double, seconds: Double, rate: Int, channels: Int, amplitude: Double) -> [UInt8] {
        WAVFixture.pcm16File(samples(frequency: frequency, seconds: seconds, rate: rate, channels: channels, amplitude: amplitude),
                             sampleRate: rate, channels: channels)
    }

    /// Level in dB of `frequency` in a window of the first channel (Goertzel, Hann window);
    /// samples at full scale ±1.
    public static func level(_ samples: [Double], channels: Int, from frame: Int, frames: Int, frequency: Double, rate: Int) -> Double {
        let k = 2 * cos(2 * Double.pi * frequency / Double(rate))
        var s1 = 0.0, s2 = 0.0
        for i in 0..<frames {
            let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(frames - 1))
            let s0 = samples[(frame + i) * channels] * window + k * s1 - s2
            s2 = s1
            s1 = s0
        }
        let power = s1 * s1 + s2 * s2 - k * s1 * s2
        return 10 * log10(max(power, 1e-20))
    }

    /// As above, for 16-bit samples.
    public static func level(_ samples: [Int16], channels: Int, from frame: Int, frames: Int, frequency: Double, rate: Int) -> Double {
        // Only the samples the window reads become doubles: converting the whole capture for every
        // window made a sweep of windows over a capture quadratic.
        let start = frame * channels
        let end = frames > 0 ? (frame + frames - 1) * channels + 1 : start
        let window = samples[start..<end].map { Double($0) / 32768 }
        return level(window, channels: channels, from: 0, frames: frames, frequency: frequency, rate: rate)
    }
}
