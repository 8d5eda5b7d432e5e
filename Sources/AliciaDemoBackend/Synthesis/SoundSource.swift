/// Audio computed on demand, frame by frame: a sample is a pure function of its frame index, so any
/// part of a long recording costs only the frames asked for.
protocol SoundSource: Sendable {
    var sampleRate: Int { get }
    var channels: Int { get }
    var frameCount: Int { get }

    /// Interleaved samples of the frames `firstFrame ..< firstFrame + buffer.count / channels`,
    /// nominally within −0.5…0.5 (the WAV encoder limits what strays beyond).
    ///
    /// `firstFrame` must be a multiple of ``NoteRenderer/controlFrames``: sources compute their
    /// envelopes and phases on that grid, which is what makes a frame's value independent of where a
    /// read began.
    func render(firstFrame: Int, into buffer: UnsafeMutableBufferPointer<Float>)
}
