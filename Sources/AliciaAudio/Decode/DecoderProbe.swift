/// Opens bytes in memory as the player opens a file (`DecoderOpener`: the MP3 frame walk and its
/// ID3v2 tags, libsndfile over the virtual I/O and a WAV's cue chunks, FFmpeg) and decodes
/// them as its feeder does, chunk by chunk: for the fuzz target `audio-header`
/// (Sources/AliciaFuzzTargets) and for tests of hostile headers (truncated, lying sizes, huge chunk
/// lengths, no channels). Never blocks: the bytes are all there.
package enum DecoderProbe {
    package struct Outcome: Sendable, Equatable {
        /// What the header said, once it opened.
        package var format: AudioFormat?
        /// Why it did not open.
        package var failure: String?
        package var framesDecoded: Int64 = 0
        package var isTruncated = false
    }

    /// Opens `bytes` and decodes at most `maximumFrames` frames of it, then seeks to the middle of
    /// what the header claims and reads one chunk more, as a listener's seek would.
    package static func decode(_ bytes: [UInt8], maximumFrames: Int64 = 1 << 20) -> Outcome {
        var outcome = Outcome()
        let decoder: any AudioDecoder
        let format: AudioFormat
        do {
            // A URL with no file beside it; no cover art written.
            let opened = try DecoderOpener.open(Bytes(bytes), metadata: DecoderOpener.Metadata(coverArt: nil))
            decoder = opened.decoder
            format = opened.format
        } catch {
            outcome.failure = "\(error)"
            return outcome
        }
        outcome.format = format
        outcome.isTruncated = decoder.isTruncated
        // The feeder's buffer: one chunk of frames in the decoder's own layout.
        let chunk = PlayerCore.chunkFrames
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk * format.bytesPerFrame, alignment: 16)
        defer { buffer.deallocate() }
        while outcome.framesDecoded < maximumFrames {
            let got = decoder.read(into: buffer, frames: chunk)
            precondition((0...chunk).contains(got), "read returned \(got) frames for \(chunk) asked")
            outcome.framesDecoded += Int64(got)
            if got < chunk { break }
        }
        if let frames = format.frames, frames > 1, decoder.seek(toFrame: frames / 2) {
            _ = decoder.read(into: buffer, frames: chunk)
        }
        return outcome
    }


    /// The bytes as a source whose reads never wait.
    private final class Bytes: ByteSource {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func length() -> Int64? { Int64(bytes.count) }

        func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> ByteRead {
            guard offset >= 0, offset < Int64(bytes.count) else { return .endOfFile }
            let n = min(buffer.count, bytes.count - Int(offset))
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + Int(offset), byteCount: n)
            }
            return .bytes(n)
        }

        func interruptReader() {}
        func clearInterrupt() {}
        var failure: PlaybackError? { nil }
    }
}
