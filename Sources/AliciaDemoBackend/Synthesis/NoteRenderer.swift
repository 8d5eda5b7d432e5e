#if canImport(Glibc)
import Glibc
#endif

/// Adds notes into a block of interleaved float samples.
///
/// Envelopes and phases are computed exactly at control points every ``controlFrames`` frames of the
/// sound's own clock; between them the level is interpolated linearly and the sine advanced by
/// rotating a phasor (a multiply-add per partial and frame, no `sin`). Starting every control
/// segment from the exact phase means no drift, and since the grid is absolute, a frame's value does
/// not depend on where the block began.
enum NoteRenderer {
    /// 32 frames: 0.7 ms at 44.1 kHz, short enough for a 1.5 ms attack to keep its shape.
    static let controlFrames = 32

    /// Adds `note` to `buffer`, which holds the frames from `firstFrame` on.
    static func add(
        _ note: NoteEvent,
        to buffer: UnsafeMutableBufferPointer<Float>,
        firstFrame: Int,
        channels: Int,
        sampleRate: Double
    ) {
        precondition(firstFrame % controlFrames == 0, "NoteRenderer.add: firstFrame \(firstFrame) is off the control grid")
        let frameCount = buffer.count / channels
        let blockEnd = firstFrame + frameCount
        // Segments that can be non-zero: from the one holding the note's first frame to the one
        // holding its last (the envelope is 0 at both ends, so the rest are silent).
        let from = max(firstFrame, alignedDown(note.start))
        let to = min(blockEnd, note.end)
        guard from < to, let base = buffer.baseAddress else { return }

        let length = Double(note.length) / sampleRate
        let (left, right) = panGains(note.pan, channels: channels)
        for partial in note.instrument.partials {
            let frequency = note.frequency * partial.ratio
            // Partials near Nyquist would alias into harsh tones.
            guard frequency < 0.45 * sampleRate else { continue }
            let step = 2 * Double.pi * frequency / sampleRate
            let rotateCos = cos(step)
            let rotateSin = sin(step)
            var segment = from
            var levelAtStart = level(note, partial, at: segment, length: length, sampleRate: sampleRate)
            while segment < to {
                let next = segment + controlFrames
                let levelAtEnd = level(note, partial, at: next, length: length, sampleRate: sampleRate)
                defer {
                    segment = next
                    levelAtStart = levelAtEnd
                }
                // Below 1/100000 of full scale (-100 dB) a partial is inaudible under the rest.
                if levelAtStart < 1e-5 && levelAtEnd < 1e-5 { continue }
                let count = min(controlFrames, blockEnd - segment)
                let slope = (levelAtEnd - levelAtStart) / Double(controlFrames)
                let phase = step * Double(segment - note.start)
                addSegment(to: base + (segment - firstFrame) * channels, count: count, channels: channels,
                           phase: (sin(phase), cos(phase)), rotation: (rotateCos, rotateSin),
                           level: (levelAtStart, slope), gains: (left, right))
            }
        }
    }

    /// Adds `count` frames of one partial to `out`: the sine from `phase` (its sine and cosine),
    /// advanced by `rotation` a frame, at `level` (the first frame's and its slope a frame).
    /// `while` loops and one branch a segment, not a frame: this loop is where a debug build (what
    /// the tests and a plain `swift build` run) spends its time.
    private static func addSegment(to out: UnsafeMutablePointer<Float>, count: Int, channels: Int,
                                   phase: (sin: Double, cos: Double), rotation: (cos: Double, sin: Double),
                                   level: (start: Double, slope: Double), gains: (left: Double, right: Double)) {
        var phaseSin = phase.sin
        var phaseCos = phase.cos
        var amplitude = level.start
        let (slope, left, right) = (level.slope, gains.left, gains.right)
        let (rotateCos, rotateSin) = (rotation.cos, rotation.sin)
        var index = 0
        if channels == 2 {
            while index < count {
                let value = phaseSin * amplitude
                out[2 * index] += Float(value * left)
                out[2 * index + 1] += Float(value * right)
                amplitude += slope
                let nextSin = phaseSin * rotateCos + phaseCos * rotateSin
                phaseCos = phaseCos * rotateCos - phaseSin * rotateSin
                phaseSin = nextSin
                index += 1
            }
        } else {
            while index < count {
                out[index] += Float(phaseSin * amplitude * left)
                amplitude += slope
                let nextSin = phaseSin * rotateCos + phaseCos * rotateSin
                phaseCos = phaseCos * rotateCos - phaseSin * rotateSin
                phaseSin = nextSin
                index += 1
            }
        }
    }

    /// The control point at or before `frame` (floor division, also for negative frames).
    private static func alignedDown(_ frame: Int) -> Int {
        let remainder = frame % controlFrames
        return remainder < 0 ? frame - remainder - controlFrames : frame - remainder
    }

    /// The partial's amplitude at `frame` of the sound.
    private static func level(_ note: NoteEvent, _ partial: Instrument.Partial, at frame: Int, length: Double, sampleRate: Double) -> Double {
        let age = Double(frame - note.start) / sampleRate
        let envelope = note.instrument.envelope(age: age, length: length)
        guard envelope > 0 else { return 0 }
        var level = note.gain * partial.gain * envelope
        if partial.damping > 0 {
            level *= exp(-age * partial.damping)
        }
        if let swell = note.swell {
            let time = Double(frame) / sampleRate
            level *= 1 - swell.depth * (0.5 - 0.5 * cos(2 * Double.pi * time / swell.period))
        }
        return level
    }

    /// Equal-power panning; a mono sound takes the centre's level so it is as loud as the stereo mix.
    private static func panGains(_ pan: Double, channels: Int) -> (Double, Double) {
        guard channels == 2 else { return (0.5.squareRoot(), 0) }
        let angle = (min(1, max(-1, pan)) + 1) * Double.pi / 4
        return (cos(angle), sin(angle))
    }
}
