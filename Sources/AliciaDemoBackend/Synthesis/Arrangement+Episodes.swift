/// The demo episodes' music. Chords are MIDI notes (60 = middle C); gains are chosen so that the
/// busiest moments stay under the WAV encoder's knee (0.42 of full scale).
extension Arrangement {
    /// D major, 84 bpm: an electric piano in eighths, pad, bass, a soft thump and tick.
    static let morningLight = Arrangement(
        tempo: 84,
        beatsPerBar: 4,
        barsPerChord: 1,
        chords: [
            Chord(bass: 38, tones: [62, 66, 69, 76]),  // Dadd9
            Chord(bass: 37, tones: [61, 64, 69, 76]),  // A/C#
            Chord(bass: 35, tones: [59, 62, 66, 69]),  // Bm7
            Chord(bass: 31, tones: [55, 59, 62, 66]),  // Gmaj7
        ],
        pad: Pad(instrument: .warmPad, gain: 0.024, stereoSpread: 0.6, swell: nil),
        arpeggio: Arpeggio(instrument: .electricPiano, gain: 0.07, stepsPerBeat: 2, pattern: [0, 1, 2, 3, 4, 3, 2, 1], transpose: 12, density: 1, ring: 1.2, seed: 11),
        pulses: [
            Pulse(instrument: .softBass, gain: 0.13, beats: [0, 2.5], pitch: .chordBass(transpose: 0), length: 1.4),
            Pulse(instrument: .thump, gain: 0.1, beats: [0, 2], pitch: .fixed(hertz: 58), length: 0.35),
            Pulse(instrument: .tick, gain: 0.018, beats: [1, 3], pitch: .fixed(hertz: 2_400), length: 0.08),
        ]
    )

    /// A minor, 72 bpm: kalimba triplets over a pad and a walking bass.
    static let longWayRound = Arrangement(
        tempo: 72,
        beatsPerBar: 4,
        barsPerChord: 1,
        chords: [
            Chord(bass: 45, tones: [57, 60, 64, 67]),  // Am7
            Chord(bass: 41, tones: [53, 57, 60, 64]),  // Fmaj7
            Chord(bass: 48, tones: [55, 60, 64, 67]),  // C
            Chord(bass: 43, tones: [55, 59, 62, 67]),  // G
        ],
        pad: Pad(instrument: .warmPad, gain: 0.02, stereoSpread: 0, swell: nil),
        arpeggio: Arpeggio(instrument: .kalimba, gain: 0.085, stepsPerBeat: 3, pattern: [0, 2, 1, 3, 2, 4], transpose: 12, density: 1, ring: 1.0, seed: 23),
        pulses: [
            Pulse(instrument: .softBass, gain: 0.13, beats: [0, 2], pitch: .chordBass(transpose: 0), length: 1.8),
            Pulse(instrument: .thump, gain: 0.08, beats: [0], pitch: .fixed(hertz: 55), length: 0.35),
        ]
    )

    /// Major ninths, 56 bpm, two bars a chord: a breathing pad, sparse bells, a deep bass; no drums.
    static let slowTide = Arrangement(
        tempo: 56,
        beatsPerBar: 4,
        barsPerChord: 2,
        chords: [
            Chord(bass: 36, tones: [52, 55, 59, 62]),  // Cmaj9
            Chord(bass: 33, tones: [55, 59, 60, 64]),  // Am9
            Chord(bass: 29, tones: [57, 60, 64, 67]),  // Fmaj9
            Chord(bass: 31, tones: [55, 59, 62, 64]),  // G6
        ],
        pad: Pad(instrument: .tidePad, gain: 0.032, stereoSpread: 0.6, swell: NoteEvent.Swell(period: 11, depth: 0.35)),
        arpeggio: Arpeggio(instrument: .softBell, gain: 0.06, stepsPerBeat: 1, pattern: [4, 2, 3, 1, 5, 3], transpose: 12, density: 0.55, ring: 3, seed: 37),
        pulses: [
            Pulse(instrument: .softBass, gain: 0.12, beats: [0], pitch: .chordBass(transpose: 0), length: 3.5),
        ]
    )

    /// F major waltz, 66 bpm: a music box in eighths over soft ticks.
    static let lanternHours = Arrangement(
        tempo: 66,
        beatsPerBar: 3,
        barsPerChord: 1,
        chords: [
            Chord(bass: 41, tones: [57, 60, 65]),  // F
            Chord(bass: 38, tones: [57, 60, 62, 65]),  // Dm7
            Chord(bass: 34, tones: [57, 58, 62, 65]),  // B♭maj7
            Chord(bass: 36, tones: [55, 60, 64]),  // C
        ],
        pad: Pad(instrument: .warmPad, gain: 0.024, stereoSpread: 0.6, swell: nil),
        arpeggio: Arpeggio(instrument: .musicBox, gain: 0.065, stepsPerBeat: 2, pattern: [0, 2, 4, 2, 1, 3], transpose: 12, density: 1, ring: 1.5, seed: 41),
        pulses: [
            Pulse(instrument: .softBass, gain: 0.12, beats: [0], pitch: .chordBass(transpose: 0), length: 2.5),
            Pulse(instrument: .tick, gain: 0.015, beats: [1, 2], pitch: .fixed(hertz: 1_900), length: 0.08),
        ]
    )

    /// G major, 60 bpm: one electric piano note per beat over a pad.
    static let interlude = Arrangement(
        tempo: 60,
        beatsPerBar: 4,
        barsPerChord: 1,
        chords: [
            Chord(bass: 43, tones: [59, 62, 67]),  // G
            Chord(bass: 40, tones: [59, 62, 64, 67]),  // Em7
            Chord(bass: 36, tones: [59, 60, 64, 67]),  // Cmaj7
            Chord(bass: 38, tones: [57, 62, 66]),  // D
        ],
        pad: Pad(instrument: .warmPad, gain: 0.024, stereoSpread: 0, swell: nil),
        arpeggio: Arpeggio(instrument: .electricPiano, gain: 0.08, stepsPerBeat: 1, pattern: [0, 1, 2, 1], transpose: 12, density: 1, ring: 1.6, seed: 53),
        pulses: [
            Pulse(instrument: .softBass, gain: 0.12, beats: [0], pitch: .chordBass(transpose: 0), length: 3),
        ]
    )
}
