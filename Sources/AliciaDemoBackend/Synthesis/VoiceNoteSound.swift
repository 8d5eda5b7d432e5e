#if canImport(Glibc)
import Glibc
#endif

/// A voice note: a warm hum that sings a short melodic phrase, "mm-ah, mm-oh", in syllables and
/// words with pauses, as a stand-in for a text-to-speech reply. 24 kHz mono, 2–5 s, a pure function
/// of the note's number.
///
/// The voice is additive: harmonics of a gliding fundamental, weighted by vowel formants. The
/// syllable plan and, on the control grid, the fundamental's phase, level and vowel are worked out
/// once per note (a few thousand points); samples are computed from them on demand.
struct VoiceNoteSound: SoundSource {
    let sampleRate = 24_000
    let channels = 1
    let frameCount: Int

    /// Per control point `k` (frame `k × controlFrames`): the fundamental's phase and frequency,
    /// the level and the formants of the vowel being sung.
    private let phase: [Double]
    private let pitch: [Double]
    private let level: [Double]
    private let formants: [Formants]

    /// The most a sample can reach: the harmonic weights sum to 1 at every control point.
    private static let peak = 0.42
    /// Harmonics of the fundamental, as far as a soft voice has energy.
    private static let maxHarmonics = 18

    struct Formants: Sendable {
        var first: Double
        var second: Double
        var third: Double

        /// "mm": the murmur that opens each syllable.
        static let hum = Formants(first: 260, second: 1_000, third: 2_300)
        static let vowels = [
            Formants(first: 720, second: 1_100, third: 2_500),  // "ah"
            Formants(first: 520, second: 850, third: 2_400),  // "oh"
            Formants(first: 330, second: 800, third: 2_250),  // "oo"
            Formants(first: 560, second: 1_750, third: 2_500),  // "eh"
        ]

        func blended(with other: Formants, _ amount: Double) -> Formants {
            Formants(
                first: first + (other.first - first) * amount,
                second: second + (other.second - second) * amount,
                third: third + (other.third - third) * amount
            )
        }
    }

    private struct Syllable {
        var start: Double
        var length: Double
        /// Semitones above the voice's base pitch.
        var pitch: Double
        var vowel: Formants
    }

    init(number: Int) {
        let seed = UInt64(bitPattern: Int64(number)) &* 0x2545_F491_4F6C_DD1D
        let seconds = 2 + 3 * SplitMix64.unit(seed, 0)
        frameCount = Int(seconds * 24_000)
        let syllables = Self.plan(seconds: seconds, seed: seed)
        let basePitch = 170 + 50 * SplitMix64.unit(seed, 1)

        let control = NoteRenderer.controlFrames
        let points = frameCount / control + 2
        var phase: [Double] = []
        var pitch: [Double] = []
        var level: [Double] = []
        var formants: [Formants] = []
        phase.reserveCapacity(points)
        var accumulated = 0.0
        for point in 0..<points {
            let time = Double(point * control) / 24_000
            let (semitones, amplitude, vowel) = Self.voice(at: time, syllables)
            // A slight vibrato that grows as a note is held, as singers do.
            let vibrato = 0.22 * sin(2 * Double.pi * 5.3 * time)
            let frequency = basePitch * pow(2, (semitones + vibrato * amplitude) / 12)
            if let previous = pitch.last {
                // The phase at each point integrates the linearly interpolated frequency exactly.
                accumulated += 2 * Double.pi * Double(control) * (previous + frequency) / 2 / 24_000
                accumulated = accumulated.truncatingRemainder(dividingBy: 2 * Double.pi)
            }
            phase.append(accumulated)
            pitch.append(frequency)
            level.append(amplitude)
            formants.append(vowel)
        }
        self.phase = phase
        self.pitch = pitch
        self.level = level
        self.formants = formants
    }

    func render(firstFrame: Int, into buffer: UnsafeMutableBufferPointer<Float>) {
        let control = NoteRenderer.controlFrames
        precondition(firstFrame % control == 0, "VoiceNoteSound.render: firstFrame \(firstFrame) is off the control grid")
        buffer.update(repeating: 0)
        var weightsAtStart = [Double](repeating: 0, count: Self.maxHarmonics)
        var weightsAtEnd = weightsAtStart
        var frame = firstFrame
        var point = firstFrame / control
        if point < level.count { weights(at: point, into: &weightsAtStart) }
        while frame < firstFrame + buffer.count, point + 1 < level.count, frame < frameCount {
            weights(at: point + 1, into: &weightsAtEnd)
            let startLevel = level[point]
            let endLevel = level[point + 1]
            if startLevel > 0 || endLevel > 0 {
                let f0 = pitch[point]
                let f1 = pitch[point + 1]
                for offset in 0..<min(control, firstFrame + buffer.count - frame, frameCount - frame) {
                    let t = Double(offset)
                    let along = t / Double(control)
                    let angle = phase[point] + 2 * Double.pi / 24_000 * (f0 * t + (f1 - f0) * t * t / (2 * Double(control)))
                    let baseSin = sin(angle)
                    let baseCos = cos(angle)
                    var harmonicSin = baseSin
                    var harmonicCos = baseCos
                    var sum = 0.0
                    for harmonic in 0..<Self.maxHarmonics {
                        let weight = weightsAtStart[harmonic] + (weightsAtEnd[harmonic] - weightsAtStart[harmonic]) * along
                        sum += weight * harmonicSin
                        let nextSin = harmonicSin * baseCos + harmonicCos * baseSin
                        harmonicCos = harmonicCos * baseCos - harmonicSin * baseSin
                        harmonicSin = nextSin
                    }
                    let amplitude = startLevel + (endLevel - startLevel) * along
                    buffer[frame - firstFrame + offset] = Float(sum * amplitude * Self.peak)
                }
            }
            swap(&weightsAtStart, &weightsAtEnd)
            frame += control
            point += 1
        }
    }

    /// Harmonic weights at a control point: a steeply falling spectral tilt (a soft, closed-mouth
    /// voice) shaped by three formant peaks, normalised to sum to 1; nothing above 4 kHz.
    private func weights(at point: Int, into weights: inout [Double]) {
        let f0 = pitch[point]
        let vowel = formants[point]
        var total = 0.0
        for index in 0..<Self.maxHarmonics {
            let frequency = f0 * Double(index + 1)
            guard frequency < 4_000 else {
                weights[index] = 0
                continue
            }
            func peak(_ center: Double, _ width: Double, _ gain: Double) -> Double {
                let distance = (frequency - center) / width
                return gain * exp(-distance * distance)
            }
            let resonance = 0.08 + peak(vowel.first, 130, 1) + peak(vowel.second, 180, 0.55) + peak(vowel.third, 260, 0.18)
            weights[index] = resonance / pow(Double(index + 1), 1.3)
            total += weights[index]
        }
        for index in 0..<Self.maxHarmonics {
            weights[index] /= total
        }
    }

    /// Words of two to four syllables with short pauses between them, walking a pentatonic melody
    /// that drifts down (and, for every other note, lifts at the end like a question).
    private static func plan(seconds: Double, seed: UInt64) -> [Syllable] {
        let scale = [-5.0, -3, 0, 2, 4, 7, 9]
        var syllables: [Syllable] = []
        var time = 0.12
        var degree = 3
        var draw = 10
        func next() -> Double {
            draw += 1
            return SplitMix64.unit(seed, draw)
        }
        while time < seconds - 0.45 {
            let count = 2 + Int(next() * 3)
            for _ in 0..<count where time < seconds - 0.4 {
                let length = min(0.16 + 0.16 * next(), seconds - 0.25 - time)
                degree = min(scale.count - 1, max(0, degree + Int(next() * 3) - 1))
                let drift = -0.6 * time / seconds
                let vowel = Formants.vowels[Int(next() * Double(Formants.vowels.count))]
                syllables.append(Syllable(start: time, length: length, pitch: scale[degree] + drift, vowel: vowel))
                time += length
            }
            time += 0.1 + 0.14 * next()
        }
        if var last = syllables.popLast() {
            last.pitch += seed % 2 == 0 ? 3 : -2
            syllables.append(last)
        }
        return syllables
    }

    /// Pitch (semitones), level and formants at `time`: each syllable opens from a hum into its vowel
    /// and glides from the previous pitch; syllables of a word are joined, pauses are silent.
    private static func voice(at time: Double, _ syllables: [Syllable]) -> (Double, Double, Formants) {
        guard let index = syllables.lastIndex(where: { $0.start <= time }) else {
            return (syllables.first?.pitch ?? 0, 0, .hum)
        }
        let syllable = syllables[index]
        let age = time - syllable.start
        guard age < syllable.length else {
            return (syllable.pitch, 0, syllable.vowel)
        }
        let previous = index > 0 ? syllables[index - 1] : syllable
        let joined = index > 0 && previous.start + previous.length >= syllable.start - 0.001
        let nextJoined = index + 1 < syllables.count && syllables[index + 1].start <= syllable.start + syllable.length + 0.001
        let pitch = previous.pitch + (syllable.pitch - previous.pitch) * smoothstep(age / 0.07)
        // From the previous vowel (or silence) into a hum, then open into this syllable's vowel.
        let opening = joined ? previous.vowel.blended(with: .hum, smoothstep(age / 0.04)) : .hum
        let vowel = opening.blended(with: syllable.vowel, smoothstep((age - 0.03) / 0.06))
        // A syllable swells in, sags a little and lets go; between joined syllables the level rests
        // at `hold` times the sag (0.85) instead of falling silent, so the hum carries on.
        let hold = 0.35
        let sag = 1 - 0.15 * age / syllable.length
        let floor = joined ? hold * 0.85 : 0
        let attack = floor + (1 - floor) * smoothstep(age / 0.045)
        let release = smoothstep((syllable.length - age) / 0.07)
        let tail = nextJoined ? hold + (1 - hold) * release : release
        return (pitch, attack * tail * sag, vowel)
    }

    private static func smoothstep(_ x: Double) -> Double {
        let t = min(1, max(0, x))
        return t * t * (3 - 2 * t)
    }
}
