/// Turns bytes into interleaved PCM frames in `format`. Lives on one thread
/// (a player's feeder). The seam between decoding and output: libsndfile (`SndFile`) for what it
/// reads, libmpg123 (`Mpg123Decoder`) for MP3, FFmpeg (`FFmpegDecoder`, loaded on demand) for
/// AAC and what else libsndfile cannot open; `DecoderOpener` picks.
protocol AudioDecoder: AnyObject {
    var format: AudioFormat { get }
    /// Decodes up to `frames` frames into `buffer` (room for `frames × bytesPerFrame`
    /// bytes); returns how many. Fewer than asked means the end, or an interrupted
    /// or failed read (see `interrupted`).
    func read(into buffer: UnsafeMutableRawPointer, frames: Int) -> Int
    /// Moves to `frame`; false if the decoder cannot.
    func seek(toFrame frame: Int64) -> Bool
    /// A read was cut short by `ByteSource.interruptReader`: the decoder's state is
    /// unknown until `clearInterruption` and a seek.
    var interrupted: Bool { get }
    /// After an interrupted read: makes the decoder usable again by its next seek; false when it
    /// cannot (libsndfile's state after a short read is unknown) and must be reopened.
    func clearInterruption() -> Bool
    /// The header promises more audio than the file holds.
    var isTruncated: Bool { get }
    /// The encoded bytes a second its headers state (MP3's bitrate), when they do: how much to read
    /// ahead of a stream whose length is not known.
    var nominalByteRate: Double? { get }
}

extension AudioDecoder {
    var nominalByteRate: Double? { nil }
}

/// Why a decoder did not open.
enum DecoderFailure: Error, Equatable {
    /// A read was interrupted (a seek or stop wants the thread): open again if still wanted.
    case interrupted
    /// The bytes cannot be decoded; the reason in words.
    case unreadable(String)
    /// The source failed (its `failure` says why).
    case sourceFailed
}
