#if canImport(Glibc)
import Glibc
#endif

/// A looping piece of music as a few rules: a chord progression, a pad that holds each chord, an
/// arpeggio over it and pulses (bass notes, soft percussion) on chosen beats.
///
/// Everything is a function of time: ``notes(overlapping:sampleRate:)`` lists the notes that sound
/// in any stretch of frames without playing the piece from the start.
struct Arrangement: Sendable {
    /// Pitches as MIDI note numbers (60 = middle C).
    struct Chord: Sendable {
        var bass: Int
        var tones: [Int]
    }

    struct Pad: Sendable {
        var instrument: Instrument
        /// Per chord tone.
        var gain: Double
        /// In stereo the chord's tones are spread across the field, alternately left and right, up
        /// to this far from the centre (0…1).
        var stereoSpread: Double
        var swell: NoteEvent.Swell?
    }

    struct Arpeggio: Sendable {
        var instrument: Instrument
        var gain: Double
        var stepsPerBeat: Int
        /// Indexes into the chord's tones; past the last tone they continue an octave up.
        var pattern: [Int]
        /// Semitones added to the chord tones.
        var transpose: Int
        /// The share of steps that play (1: all); which ones is a seeded choice.
        var density: Double
        /// Seconds each note rings.
        var ring: Double
        var seed: UInt64
    }

    struct Pulse: Sendable {
        enum Pitch: Sendable {
            case fixed(hertz: Double)
            /// The chord's bass note, moved by some semitones.
            case chordBass(transpose: Int)
        }

        var instrument: Instrument
        var gain: Double
        /// Positions in the bar, in beats from 0.
        var beats: [Double]
        var pitch: Pitch
        /// Seconds.
        var length: Double
    }

    var tempo: Double
    var beatsPerBar: Int
    var barsPerChord: Int
    var chords: [Chord]
    var pad: Pad?
    var arpeggio: Arpeggio?
    var pulses: [Pulse]

    /// The notes that may sound in `frames` (a few more at the edges do no harm: they add nothing).
    func notes(overlapping frames: Range<Int>, sampleRate: Double) -> [NoteEvent] {
        let beat = 60 / tempo * sampleRate
        let bar = beat * Double(beatsPerBar)
        var notes: [NoteEvent] = []
        if let pad {
            addPad(pad, frames, bar * Double(barsPerChord), sampleRate, to: &notes)
        }
        if let arpeggio {
            addArpeggio(arpeggio, frames, beat, bar, sampleRate, to: &notes)
        }
        for pulse in pulses {
            addPulse(pulse, frames, beat, bar, sampleRate, to: &notes)
        }
        return notes
    }

    /// The chord sounding at `frame`.
    func chord(at frame: Double, sampleRate: Double) -> Chord {
        let span = 60 / tempo * sampleRate * Double(beatsPerBar * barsPerChord)
        let index = Int(floor(frame / span)) % chords.count
        return chords[index < 0 ? index + chords.count : index]
    }

    static func frequency(midi: Double) -> Double {
        440 * pow(2, (midi - 69) / 12)
    }

    /// One pad note per chord tone, overlapping its neighbours by the attack so that
    /// one chord's release is the next one's attack.
    private func addPad(_ pad: Pad, _ frames: Range<Int>, _ span: Double, _ sampleRate: Double, to notes: inout [NoteEvent]) {
        let overlap = pad.instrument.attack * sampleRate
        let first = max(0, Int(floor((Double(frames.lowerBound) - overlap) / span)) - 1)
        let last = Int(floor((Double(frames.upperBound) + overlap) / span))
        guard first <= last else { return }
        for index in first...last {
            let start = Int((Double(index) * span - overlap).rounded())
            let length = Int((span + 2 * overlap).rounded())
            let chord = chords[index % chords.count]
            for (position, tone) in chord.tones.enumerated() {
                // Outer voices wide, inner ones nearer the centre: -1, 1, -0.5, 0.5, … of the spread.
                let side = position % 2 == 0 ? -1.0 : 1.0
                let pan = side * pad.stereoSpread / Double(1 + position / 2)
                notes.append(
                    NoteEvent(start: start, length: length, frequency: Self.frequency(midi: Double(tone)), gain: pad.gain, pan: pan, instrument: pad.instrument, swell: pad.swell)
                )
            }
        }
    }

    private func addArpeggio(_ arpeggio: Arpeggio, _ frames: Range<Int>, _ beat: Double, _ bar: Double, _ sampleRate: Double, to notes: inout [NoteEvent]) {
        let step = beat / Double(arpeggio.stepsPerBeat)
        let ring = Int((arpeggio.ring * sampleRate).rounded())
        let first = max(0, Int(floor(Double(frames.lowerBound - ring) / step)))
        let last = Int(floor(Double(frames.upperBound) / step))
        guard first <= last else { return }
        let stepsPerBar = arpeggio.stepsPerBeat * beatsPerBar
        // Alternating sides, never hard left or right.
        let pans = [-0.35, 0.3, -0.15, 0.4, 0.1]
        for index in first...last {
            if arpeggio.density < 1 && SplitMix64.unit(arpeggio.seed, index) >= arpeggio.density {
                continue
            }
            let start = Int((Double(index) * step).rounded())
            // Half a step in: clear of rounding at the chord change.
            let chord = chord(at: Double(index) * step + step / 2, sampleRate: sampleRate)
            let tones = chord.tones.sorted()
            let position = arpeggio.pattern[index % arpeggio.pattern.count]
            let midi = tones[position % tones.count] + 12 * (position / tones.count) + arpeggio.transpose
            let accent = index % stepsPerBar == 0 ? 1.0 : (index % arpeggio.stepsPerBeat == 0 ? 0.85 : 0.7)
            let humanize = 0.92 + 0.16 * SplitMix64.unit(arpeggio.seed &+ 1, index)
            notes.append(
                NoteEvent(
                    start: start,
                    length: ring,
                    frequency: Self.frequency(midi: Double(midi)),
                    gain: arpeggio.gain * accent * humanize,
                    pan: pans[index % pans.count],
                    instrument: arpeggio.instrument
                )
            )
        }
    }

    private func addPulse(_ pulse: Pulse, _ frames: Range<Int>, _ beat: Double, _ bar: Double, _ sampleRate: Double, to notes: inout [NoteEvent]) {
        let length = Int((pulse.length * sampleRate).rounded())
        let first = max(0, Int(floor(Double(frames.lowerBound - length) / bar)))
        let last = Int(floor(Double(frames.upperBound) / bar))
        guard first <= last else { return }
        for barIndex in first...last {
            for position in pulse.beats {
                let at = Double(barIndex) * bar + position * beat
                let frequency: Double
                switch pulse.pitch {
                case .fixed(let hertz):
                    frequency = hertz
                case .chordBass(let transpose):
                    frequency = Self.frequency(midi: Double(chord(at: at + 1, sampleRate: sampleRate).bass + transpose))
                }
                notes.append(
                    NoteEvent(start: Int(at.rounded()), length: length, frequency: frequency, gain: pulse.gain, pan: 0, instrument: pulse.instrument)
                )
            }
        }
    }
}
