#if canImport(Glibc)
import Glibc
#endif

/// An episode's audio: an ``Arrangement`` played for `frameCount` frames, faded in and out.
struct EpisodeSound: SoundSource {
    let sampleRate: Int
    let channels: Int
    let frameCount: Int
    let arrangement: Arrangement

    /// The arrangements' gains are written to leave headroom; this brings the mix up by 3 dB to
    /// peaks around −8 dBFS, under the encoder's knee.
    private static let level = 1.4
    /// Seconds of the gentle fade at each end.
    private static let fadeIn = 2.0
    private static let fadeOut = 4.0

    init(arrangement: Arrangement, seconds: Double, sampleRate: Int, channels: Int) {
        self.arrangement = arrangement
        self.sampleRate = sampleRate
        self.channels = channels
        frameCount = Int((seconds * Double(sampleRate)).rounded())
    }

    func render(firstFrame: Int, into buffer: UnsafeMutableBufferPointer<Float>) {
        buffer.update(repeating: 0)
        let frames = buffer.count / channels
        let rate = Double(sampleRate)
        for var note in arrangement.notes(overlapping: firstFrame..<firstFrame + frames, sampleRate: rate) {
            note.gain *= Self.level
            NoteRenderer.add(note, to: buffer, firstFrame: firstFrame, channels: channels, sampleRate: rate)
        }
        applyFades(firstFrame: firstFrame, frames: frames, buffer: buffer)
    }

    /// Raised-cosine fades over the first and last seconds; frames past the end are silent.
    private func applyFades(firstFrame: Int, frames: Int, buffer: UnsafeMutableBufferPointer<Float>) {
        let fadeInFrames = Int(Self.fadeIn * Double(sampleRate))
        let fadeOutFrames = Int(Self.fadeOut * Double(sampleRate))
        let fadeOutStart = frameCount - fadeOutFrames
        guard firstFrame < fadeInFrames || firstFrame + frames > fadeOutStart else { return }
        for offset in 0..<frames {
            let frame = firstFrame + offset
            var gain = 1.0
            if frame < fadeInFrames {
                gain = 0.5 - 0.5 * cos(Double.pi * Double(frame) / Double(fadeInFrames))
            }
            if frame >= frameCount {
                gain = 0
            } else if frame > fadeOutStart {
                gain *= 0.5 + 0.5 * cos(Double.pi * Double(frame - fadeOutStart) / Double(fadeOutFrames))
            }
            for channel in 0..<channels {
                buffer[offset * channels + channel] *= Float(gain)
            }
        }
    }
}
