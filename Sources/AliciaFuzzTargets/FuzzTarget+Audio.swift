import AliciaAudio

extension FuzzTarget {
    /// Audio files as the player opens them: libsndfile over the virtual I/O from memory, decoded
    /// chunk by chunk into the feeder's buffer (WAV, FLAC and whatever else the header claims).
    static let audioHeader = FuzzTarget(name: "audio-header", about: "WAV/FLAC headers and decoding through libsndfile's virtual I/O") { bytes in
        let outcome = DecoderProbe.decode(bytes, maximumFrames: 1 << 18)
        if let format = outcome.format {
            precondition(format.channels > 0 && format.sampleRate > 0, "a format without channels or rate was opened")
        }
    }
}
